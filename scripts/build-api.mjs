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

/**
 * One copy of each package here, where npm installed the same version more than once: ajv 8 is nested
 * three times (under fastify's validator compiler, fast-json-stringify and ajv-formats, because the
 * root's ajv is eslint's 6), and each copy's source and module objects were kept (decision 0326). An
 * import that resolves to a copy is pointed at the kept copy of the same version (the one with the
 * shortest path); another version keeps its own.
 */
const DEDUPE = ['ajv'];
/** Every installed copy of `name` under the repository's node_modules folders (nested ones too). */
function copiesOf(name, dir = path.join(api, '../..'), out = []) {
  const modules = path.join(dir, 'node_modules');
  if (!fs.existsSync(modules)) return out;
  if (fs.existsSync(path.join(modules, name, 'package.json'))) out.push(path.join(modules, name));
  for (const entry of fs.readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const scoped = entry.name.startsWith('@')
      ? fs.readdirSync(path.join(modules, entry.name)).map((n) => path.join(modules, entry.name, n))
      : [path.join(modules, entry.name)];
    for (const pkg of scoped) copiesOf(name, pkg, out);
  }
  return out;
}
const versionOf = (root) => JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const dedupePackages = {
  name: 'dedupe-packages',
  setup(b) {
    // Per package and version, the copy kept: the one with the shortest path, then alphabetically first.
    const kept = new Map();
    for (const name of DEDUPE)
      for (const root of [...copiesOf(name), ...copiesOf(name, api)].sort((x, y) => x.length - y.length || x.localeCompare(y))) {
        const key = `${name}@${versionOf(root)}`;
        if (!kept.has(key)) kept.set(key, root);
      }
    const filter = new RegExp(`^(${DEDUPE.join('|')})(/|$)`);
    b.onResolve({ filter }, async (args) => {
      if (args.pluginData === 'dedupe') return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'dedupe' });
      if (found.errors.length) return { errors: found.errors };
      const name = packageOf(args.path);
      const root = found.path.slice(
        0,
        found.path.lastIndexOf(`${path.sep}node_modules${path.sep}${name}${path.sep}`) + `${path.sep}node_modules${path.sep}${name}`.length,
      );
      const copy = kept.get(`${name}@${versionOf(root)}`);
      return copy && copy !== root ? { ...found, path: copy + found.path.slice(root.length) } : found;
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
  // Modules imported on first use (import('pdf-lib'), …) go to chunks of their own beside main.js,
  // read when first imported: V8 keeps every loaded script's source for the life of the process, and
  // inside main.js they were 0.8 MB of it on every server (decision 0326). Chunks stay in dist/ itself,
  // so import.meta.dirname is the same in all of them.
  splitting: true,
  target: 'node20.19',
  sourcemap: 'linked',
  legalComments: 'none',
  // V8 keeps every script's source for the life of the process: without the indentation and the
  // newlines the bundle's string on the heap is smaller. Names stay (logs, stack traces, the map).
  minifyWhitespace: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externalPackages, dedupePackages],
  // The bundled CommonJS packages call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

// V8 keeps the bundle's source for the life of the process: one byte a character only if every
// character is Latin-1. esbuild escapes the others in code (its charset is ASCII) but copies comments
// as written, and a few of their characters (… − ≥) made the 2.9 MB source a 5.9 MB two-byte string on
// the idle server's heap (decision 0161). Escaped here, where only comments can hold them.
for (const name of fs.readdirSync(out).filter((f) => f.endsWith('.js'))) {
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
