// `npm run build -w apps/api`: the API as plain JavaScript for production, so `node` runs it without a
// TypeScript loader (faster start, less memory; docs/decisions/0089). esbuild bundles the API, the
// workspace packages it imports (@fleet/*, TypeScript sources) and the pure-JavaScript npm packages
// into apps/api/dist/main.js (decision 0172); the rest load from node_modules (see EXTERNAL). The
// files the server reads beside its own code (migrations, the PGlite initialiser) are copied next to it,
// at the same relative place as in src/ so import.meta.dirname finds them in both.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const api = path.resolve(import.meta.dirname, '../apps/api');
const out = path.join(api, 'dist');
const started = Date.now();

fs.rmSync(out, { recursive: true, force: true });

/**
 * npm packages are bundled too (decision 0172): V8 keeps every loaded module's source for the life of
 * the process, and node_modules' sources with their comments and indentation were 6.5 of the idle
 * server's 8.2 MB of script source. These stay external, loaded from node_modules: native addons,
 * packages that read files beside their own module (PGlite's WebAssembly, pdfkit's fonts, the Swagger
 * UI's assets), packages imported on first use only, and optional peers that are not installed.
 */
const EXTERNAL = new Set([
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'koffi',
  'pdfkit',
  'nodemailer',
  'node-forge',
  'fast-xml-parser',
  '@fastify/swagger-ui',
  'pg-native',
]);
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:') || !EXTERNAL.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const result = await build({
  // The embedded database's worker thread is a module of its own (decision 0170).
  entryPoints: { main: path.join(api, 'src/main.ts'), 'pglite-worker': path.join(api, 'src/db/pglite-worker.ts') },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  legalComments: 'none',
  // V8 keeps every script's source for the life of the process: without the indentation and the
  // newlines the bundle's string on the heap is smaller. Names stay (logs, stack traces, the map).
  minifyWhitespace: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externalPackages],
  // The bundled CommonJS packages call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

// V8 keeps the bundle's source for the life of the process: one byte a character only if every
// character is Latin-1. esbuild escapes the others in code (its charset is ASCII) but copies comments
// as written, and a few of their characters (… − ≥) made the 2.9 MB source a 5.9 MB two-byte string on
// the idle server's heap (decision 0161). Escaped here, where only comments can hold them.
for (const name of ['main.js', 'pglite-worker.js']) {
  const file = path.join(out, name);
  const code = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(
    file,
    code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

fs.cpSync(path.join(api, 'src/db/migrations'), path.join(out, 'migrations'), { recursive: true });
fs.copyFileSync(path.join(api, 'src/db/pglite-init.mjs'), path.join(out, 'pglite-init.mjs'));
// Data files the bundled packages read beside their module (import.meta.dirname is dist/ once bundled).
fs.copyFileSync(path.join(api, '../../packages/geo/src/boundaries.topojson'), path.join(out, 'boundaries.topojson'));

const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`api: ${path.relative(process.cwd(), out)} (${(bytes / 1024).toFixed(0)} kB JavaScript) in ${Date.now() - started} ms`);
