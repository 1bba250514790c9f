// `npm run build -w apps/api`: the API as plain JavaScript for production, so `node` runs it without a
// TypeScript loader (faster start, less memory; docs/decisions/0089). esbuild bundles the API and the
// workspace packages it imports (@fleet/*, TypeScript sources) into apps/api/dist/main.js; npm
// dependencies stay external and load from node_modules (native addons, PGlite's WebAssembly). The
// files the server reads beside its own code (migrations, the PGlite initialiser) are copied next to it,
// at the same relative place as in src/ so import.meta.dirname finds them in both.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const api = path.resolve(import.meta.dirname, '../apps/api');
const out = path.join(api, 'dist');
const started = Date.now();

fs.rmSync(out, { recursive: true, force: true });

/** npm packages stay external; our own workspace packages are TypeScript and are bundled. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@fleet/') || args.kind === 'entry-point') return undefined;
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
  plugins: [externalNpmPackages],
});

// V8 keeps the bundle's source for the life of the process: one byte a character only if every
// character is Latin-1. esbuild escapes the others in code (its charset is ASCII) but copies comments
// as written, and a few of their characters (… − ≥) made the 2.9 MB source a 5.9 MB two-byte string on
// the idle server's heap (decision 0161). Escaped here, where only comments can hold them.
for (const name of ['main.js', 'pglite-worker.js']) {
  const file = path.join(out, name);
  const code = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

fs.cpSync(path.join(api, 'src/db/migrations'), path.join(out, 'migrations'), { recursive: true });
fs.copyFileSync(path.join(api, 'src/db/pglite-init.mjs'), path.join(out, 'pglite-init.mjs'));
// Data files the bundled packages read beside their module (import.meta.dirname is dist/ once bundled).
fs.copyFileSync(path.join(api, '../../packages/geo/src/boundaries.topojson'), path.join(out, 'boundaries.topojson'));

const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`api: ${path.relative(process.cwd(), out)} (${(bytes / 1024).toFixed(0)} kB JavaScript) in ${Date.now() - started} ms`);
