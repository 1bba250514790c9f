import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

// How an embedded PGlite is opened, shared by the in-thread database (client.ts) and the worker
// thread that runs it off the request thread (pglite-worker.ts, decision 0170). Loads PGlite's code:
// what the API thread needs in the worker mode is in pglite-assets.ts.

/** The contrib extensions the migrations create, loaded into every PGlite. */
export const pgliteExtensions = { pg_trgm, btree_gist };

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
