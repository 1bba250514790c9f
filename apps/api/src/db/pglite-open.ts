import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { runningServerBundle } from './pglite-bundle.ts';

// How an embedded PGlite is opened, shared by the in-thread database (client.ts) and the worker
// thread that runs it off the request thread (pglite-worker.ts, decision 0170).

/** The contrib extensions the migrations create, loaded into every PGlite. */
export const pgliteExtensions = { pg_trgm, btree_gist };

/** PGlite's package folder (its WebAssembly and file bundle). */
export const pgliteDir = () => path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

/** Compiles PGlite's 9 MB WebAssembly. A compiled module can be posted to a worker thread without compiling again. */
export async function compilePglite(): Promise<WebAssembly.Module> {
  const wasm = await fs.promises.readFile(path.join(pgliteDir(), 'pglite.wasm'));
  // The global's value is not declared by this project's libraries (no DOM lib), only its types.
  const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } };
  return wasmApi.compile(wasm);
}

/**
 * The file bundle: a Blob backed by the file (read at each open; the first start opens twice) rather
 * than 6 MB held in memory, and the same without the files only initdb reads (pglite-bundle.ts).
 */
export async function pgliteBundles(): Promise<{ fsBundle: Blob; runningBundle: Blob }> {
  const dir = pgliteDir();
  const fsBundle = await fs.openAsBlob(path.join(dir, 'pglite.data'));
  return { fsBundle, runningBundle: runningServerBundle(fsBundle, dir) };
}

/**
 * The server's start parameters. An embedded database for one server: a small buffer pool keeps the
 * process lean; the operating system's page cache still holds hot table files. ANALYZE samples 300
 * rows per statistics target: at PostgreSQL's 100, the current month of positions (120,000 rows after
 * a first start) took 0.9-2.7 s, at 30 it takes 0.16-0.28 s (decision 0151). PGlite is one
 * single-user backend, but PostgreSQL sizes its shared memory (lock tables, the per-backend arrays)
 * for max_connections and the WAL senders: 100 and 10 by default, 4 MB of the WebAssembly memory
 * resident for connections that cannot exist (decision 0161). The lock table keeps room for 64 × 8
 * locks and grows into the free shared memory beyond.
 */
export function pgliteStartParams(sharedBuffers: string): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...['-c', `shared_buffers=${sharedBuffers}`, '-c', 'default_statistics_target=30'],
    ...['-c', 'max_connections=4', '-c', 'max_wal_senders=0'],
  ];
}

export interface PgliteOpen {
  /** A data directory, or undefined for an in-memory database. */
  dataDir: string | undefined;
  /** A migrated in-memory database's dump to start from (tests). */
  template?: Blob;
  sharedBuffers: string;
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
  runningBundle: Blob;
}

/** PGlite's constructor options for an open of a server's database. */
export function pgliteOptions(o: PgliteOpen): PGliteOptions {
  return {
    pgliteWasmModule: o.pgliteWasmModule,
    // A data directory exists by now (pglite-init.mjs made it) and a template is a migrated
    // database: no initdb in this process, so the bundle without initdb's files.
    fsBundle: o.dataDir || o.template ? o.runningBundle : o.fsBundle,
    extensions: pgliteExtensions,
    loadDataDir: o.template,
    startParams: pgliteStartParams(o.sharedBuffers),
  };
}

/** Size of a PGlite's WebAssembly memory (it only grows). */
export function wasmBytesOf(client: PGlite): number | null {
  return (client.Module as { HEAPU8?: Uint8Array } | undefined)?.HEAPU8?.buffer.byteLength ?? null;
}
