import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PGLITE_SHARED_BUFFERS } from '../config.ts';
import { assertStandardStrings, carryCitusKind, type CitusKind, defaultPoolSize, SERVER_KIND_SQL, type ServerKindRow } from './database-kind.ts';
import { compilePglite, pgliteBundles, pgliteExtensions, pgliteOptions, wasmBytesOf } from './pglite-open.ts';
import { PreparedStatements, type Session } from './pglite-prepared.ts';
import { RemotePGlite } from './pglite-remote.ts';
import type { WorkerHeap } from './pglite-protocol.ts';
import { listenOnPool, type Listener } from './pg-listener.ts';
import * as schema from './schema/index.ts';

/**
 * PGlite's WebAssembly compiled once per process and its file-system bundle read once, shared by every
 * instance: without them each open (a restarted worker thread, every test database)
 * compiles the 9 MB module and reads the 6 MB bundle again. A worker thread gets the compiled module.
 */
let pgliteAssets: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob; runningBundle: Blob }> | undefined;
function loadPgliteAssets() {
  pgliteAssets ??= (async () => ({ pgliteWasmModule: await compilePglite(), ...(await pgliteBundles()) }))();
  return pgliteAssets;
}

export type { Listener } from './pg-listener.ts';
export { CITUS_POOL_SIZE, citusOf, defaultPoolSize, type CitusKind } from './database-kind.ts';

export type Schema = typeof schema;
/** One type for both drivers: PGlite (embedded) and node-postgres (server). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /** The driver: the embedded PGlite, or a PostgreSQL server (a Citus coordinator is one). */
  kind: 'pglite' | 'postgres';
  /**
   * On a Citus coordinator what it has, else null: found once when the database opens (decision
   * 0254) and read by everything that behaves differently there; `citusOf(db)` gives the same for
   * the `db` handle.
   */
  citus: CitusKind | null;
  /**
   * LISTEN/NOTIFY for fan-out across instances (PGlite: in-process). On PostgreSQL a lost
   * connection is replaced and `onReconnect` called (notifications in between were missed).
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<Listener>;
  /**
   * Runs `fn` on one dedicated connection, for session state such as pg_try_advisory_lock
   * (a pooled query may land on any connection). PGlite has a single session anyway.
   */
  session<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Size of the embedded database's WebAssembly memory (it only grows); null on a server. */
  wasmMemoryBytes(): number | null;
  /**
   * The embedded database's worker thread's V8 heap (decision 0170); null in-thread or on a server.
   * `collect`: after a full compacting collection (where gc is exposed: once after start-up).
   */
  databaseThreadHeap(collect?: boolean): Promise<WorkerHeap | null>;
  /**
   * Runs `fn` while holding the start-up lock (a session advisory lock on a connection of its
   * own), so instances that start together on one database seed one after another. PGlite is one
   * process's database: `fn` just runs.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Why the database cannot serve at all, or null: an in-memory embedded database whose worker
   * thread stopped (its data is gone), or a data directory that could not be opened again after
   * its thread stopped. /readyz answers 503 with it.
   */
  unavailable(): string | null;
  /** Faults on purpose, for the soak (bench/soak.ts) and tests: what a crash or a stalled server does. */
  faults: DatabaseFaults;
  close(): Promise<void>;
}

export interface DatabaseFaults {
  /** Ends the embedded database's worker thread at once, as a crash would (it is opened again); a no-op on a server or in-thread. */
  killThread(): Promise<void>;
  /**
   * Holds the database for `ms`: PGlite runs a sleep (its one session serves nothing else meanwhile);
   * a server has the positions and latest positions tables locked, so every position write waits.
   */
  stall(ms: number): Promise<void>;
}

/**
 * Key of the advisory lock that serialises start-up work across instances: applying migrations
 * (two instances running the same CREATE TABLE at once fail on PostgreSQL's catalog) and the
 * first start's seeding (check-then-insert of the super administrator and demo organization).
 */
export const STARTUP_LOCK_KEY = 724_311_000;

/**
 * Holds `pg_advisory_lock(STARTUP_LOCK_KEY)` on a dedicated connection (not one of the pool's, so
 * `fn` may use the whole pool) while `fn` runs. Waits for another instance's start-up to finish;
 * the lock goes with the connection if this process dies.
 */
async function withStartupLock<T>(connectionString: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    try {
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

export interface OpenOptions {
  /** node-postgres connection string; when unset the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; 'memory' for an in-memory database (tests). */
  dataDir: string | 'memory';
  poolSize?: number;
  /** PGlite buffer pool, e.g. '8MB'. */
  sharedBuffers?: string;
  /**
   * An in-memory PGlite starts as a copy of this dump (see dumpMigratedPglite) instead of running
   * initdb: tests open a database per file, and initdb is most of the cost.
   */
  pgliteTemplate?: Blob;
  /**
   * Where PGlite runs: 'worker' (default) in a worker thread of its own, so a statement never holds
   * up the API's event loop (decision 0170); 'main' on the API's thread, as before (PGLITE_THREAD).
   */
  pgliteThread?: 'worker' | 'main';
  /** The worker-thread PGlite's check of statements sent outside a transaction from inside it (default on; production turns it off). */
  pgliteContextCheck?: boolean;
}

/** Worker-thread stops counted together for the restart back-off. */
const RESTART_WINDOW_MS = 10 * 60_000;
/** The first stop in 10 minutes reopens at once, the next ones after 1, 2, 4 … 30 s. */
export const restartDelayMs = (stopsInWindow: number): number => (stopsInWindow <= 1 ? 0 : Math.min(30_000, 1000 * 2 ** (stopsInWindow - 2)));

/**
 * Asks a server, on a connection of its own before the pool opens, what it is (database-kind.ts),
 * and refuses it when standard_conforming_strings is off.
 */
async function serverKind(url: string): Promise<CitusKind | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const row = (await c.query<ServerKindRow>(SERVER_KIND_SQL)).rows[0]!;
    assertStandardStrings(row.scs, `the server's database ${c.database ?? ''}`.trimEnd());
    return row.citus ? { writeFunction: row.write_function } : null;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Opens the database and applies the committed migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const citus = await serverKind(opts.databaseUrl);
    // TCP keepalive: a connection whose network path silently died (failover, a NAT timeout) errors
    // within minutes instead of hours, so the LISTEN connections are replaced (db/pg-listener.ts).
    // An idle connection is kept a minute, not node-postgres' 10 s: under a load that comes and goes
    // the pool otherwise closes and reopens connections all the time, and each new one costs a
    // server process and its caches (on Citus also the coordinator's connections to the workers:
    // a fifth of the cluster's CPU for single positions went to processes that had exited, issue 49).
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? defaultPoolSize(citus),
      idleTimeoutMillis: 60_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // No JIT: the followers' statements over a round's vehicles are estimated dear enough (100
      // rows for a JSON key set, each with its subqueries) that PostgreSQL compiled each with LLVM,
      // 1-3 s of CPU for a statement that runs in milliseconds (bench/citus.ts singles: 96 positions
      // a second instead of 272). Awaited before the pool hands the new connection out, so it is
      // the first statement on it and never runs beside the app's (pg@8 warns of that, pg@9 refuses).
      onConnect: async (client) => {
        await client.query('set jit = off').catch(() => undefined);
      },
    });
    // An idle connection the server ends (restart, failover, a dropped test database) is replaced on
    // the next checkout; without a listener its 'error' event would crash the process.
    pool.on('error', (err) => console.warn(`database: idle connection closed (${err.message})`));
    // A connection the server ends while it is checked out between two statements (a transaction's
    // JavaScript, a held session) emits 'error' too, and the pool listens only to idle ones: unheard,
    // it would end the process. Its next statement fails on its own; the pool drops it on release.
    pool.on('connect', (client) => {
      client.on('error', (err) => console.warn(`database: a connection in use was closed (${err.message})`));
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const url = opts.databaseUrl;
    await withStartupLock(url, () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder }));
    carryCitusKind(db, citus);
    return {
      db,
      kind: 'postgres',
      citus,
      listen: (channel, onMessage, onReconnect) => listenOnPool(pool, channel, { onMessage, onReconnect }),
      async session(fn) {
        const client = await pool.connect();
        try {
          return await fn(drizzlePg({ client, schema }) as unknown as Db);
        } finally {
          client.release();
        }
      },
      wasmMemoryBytes: () => null,
      databaseThreadHeap: async () => null,
      unavailable: () => null,
      exclusive: (fn) => withStartupLock(url, fn),
      faults: {
        killThread: async () => undefined,
        async stall(ms) {
          const c = await pool.connect();
          // Terminated while it holds the locks (a fault on top of a fault): not an uncaught error.
          c.on('error', () => undefined);
          try {
            await c.query('begin');
            await c.query('lock table positions, latest_positions in exclusive mode');
            await new Promise((r) => setTimeout(r, ms));
          } finally {
            await c.query('rollback').catch(() => undefined);
            c.release(true);
          }
        },
      },
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (opts.dataDir !== 'memory') {
    dataDir = path.join(opts.dataDir, 'pgdata');
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      fs.mkdirSync(dataDir, { recursive: true });
      execFileSync(process.execPath, [path.join(import.meta.dirname, 'pglite-init.mjs'), dataDir], { stdio: 'inherit' });
    }
  }
  const sharedBuffers = opts.sharedBuffers ?? PGLITE_SHARED_BUFFERS;
  const inWorker = (opts.pgliteThread ?? 'worker') === 'worker';
  const open = async (template?: Blob): Promise<PGlite | RemotePGlite> => {
    const assets = await loadPgliteAssets();
    if (inWorker)
      return watched(
        await RemotePGlite.start({ dataDir, template, sharedBuffers, pgliteWasmModule: assets.pgliteWasmModule, checkContext: opts.pgliteContextCheck }),
      );
    const c = new YieldingPGlite(dataDir ?? 'memory://', pgliteOptions({ dataDir, template, sharedBuffers, ...assets }));
    await c.waitReady;
    return c;
  };
  let reopening: Promise<void> | null = null;
  let closing = false;
  let lost: string | null = null;
  const listeners = new Set<{ channel: string; onMessage: (payload: string) => void; unsub: () => Promise<void> }>();
  /** Swaps the instance behind the client (a restart after the thread stopped): calls made meanwhile wait for the new one. */
  const swap = async (fn: () => Promise<void>): Promise<void> => {
    while (reopening) await reopening.catch(() => undefined);
    const p = fn();
    reopening = p;
    try {
      await p;
    } finally {
      if (reopening === p) reopening = null;
    }
  };
  const relisten = async () => {
    for (const l of listeners) l.unsub = await current.listen(l.channel, l.onMessage);
  };
  /**
   * A worker thread that stops without close() (terminated, an uncaught error, out of memory, a
   * WebAssembly trap) takes its statements under way with it: they fail. A data directory is opened
   * again in a new thread, so later statements succeed; an in-memory
   * database is gone, and /readyz says so (unavailable()).
   */
  function watched(remote: RemotePGlite): RemotePGlite {
    remote.onDeath = (err) => {
      if (remote !== current || closing) return;
      if (!dataDir) {
        lost = `the in-memory database is lost: ${err.message}; restart the server`;
        console.error(`database: ${lost}`);
        return;
      }
      // A thread that keeps dying (a statement that runs it out of memory each time) is reopened
      // ever later; meanwhile calls fail at once (503 with Retry-After) rather than wait.
      const now = Date.now();
      deaths = deaths.filter((t) => now - t < RESTART_WINDOW_MS);
      deaths.push(now);
      const delayMs = restartDelayMs(deaths.length);
      console.error(
        `database: ${err.message}; the statements under way failed; opening ${dataDir} again in a new worker thread${delayMs ? ` in ${delayMs / 1000} s (${deaths.length} stops in 10 minutes)` : ''}`,
      );
      const reopen = () =>
        swap(async () => {
          if (remote !== current || closing) return;
          current = await open();
          await relisten();
          console.error(`database: ${dataDir} is open again in a new worker thread`);
        }).catch((e: unknown) => {
          lost = `the database's worker thread stopped and ${dataDir} could not be opened again: ${e instanceof Error ? e.message : String(e)}`;
          console.error(`database: ${lost}`);
        });
      if (delayMs) {
        backingOff = `the database's worker thread stopped ${deaths.length} times in 10 minutes; it opens again in ${delayMs / 1000} s`;
        setTimeout(() => {
          backingOff = null;
          void reopen();
        }, delayMs).unref();
      } else void reopen();
    };
    return remote;
  }
  let deaths: number[] = [];
  let backingOff: string | null = null;
  let current = await open(dataDir ? undefined : opts.pgliteTemplate);
  // One handle for everyone (Drizzle, the PGlite-only read and write paths, caches keyed by it) over
  // whichever instance is open: a restart swaps the instance behind it. Calls made while it
  // is swapped wait for the new one.
  const client = new Proxy(current, {
    get(_target, key) {
      const value: unknown = Reflect.get(current, key, current);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        reopening
          ? reopening.then(() => (Reflect.get(current, key, current) as (...a: unknown[]) => unknown).apply(current, args))
          : (value as (...a: unknown[]) => unknown).apply(current, args);
    },
    set: (_target, key, value) => Reflect.set(current, key, value, current),
  });
  // A worker-thread PGlite offers the calls Drizzle makes (query, exec, transaction) with PGlite's signatures.
  const drizzleClient = drizzlePglite({ client: client as PGlite, schema });
  try {
    assertStandardStrings(
      (await client.query<{ scs: string }>(`select current_setting('standard_conforming_strings') as scs`)).rows[0]?.scs,
      'the embedded database',
    );
  } catch (err) {
    closing = true;
    await current.close().catch(() => undefined);
    throw err;
  }
  await migratePglite(drizzleClient, { migrationsFolder });
  return {
    db: drizzleClient as unknown as Db,
    kind: 'pglite',
    citus: null,
    async listen(channel, onMessage) {
      const entry = { channel, onMessage, unsub: await client.listen(channel, onMessage) };
      listeners.add(entry);
      // One process and one session: a notification reaches its listener before the committing
      // statement returns, so there is nothing to wait for.
      return {
        stop: async () => {
          listeners.delete(entry);
          await entry.unsub();
        },
        sync: async () => undefined,
      };
    },
    session: (fn) => fn(drizzleClient as unknown as Db),
    wasmMemoryBytes: () => (current instanceof RemotePGlite ? current.wasmMemoryBytes() : wasmBytesOf(current)),
    databaseThreadHeap: async (collect) => (current instanceof RemotePGlite ? current.heapStatistics(collect) : null),
    unavailable: () => lost ?? backingOff,
    exclusive: (fn) => fn(),
    faults: {
      killThread: async () => {
        if (current instanceof RemotePGlite) await current.terminate();
      },
      stall: async (ms) => void (await client.query(`select pg_sleep(${Math.max(0, ms) / 1000})`)),
    },
    close: async () => {
      closing = true;
      while (reopening) await reopening.catch(() => undefined);
      await current.close();
    },
  };
}

/**
 * In-thread mode (PGLITE_THREAD=main): PGlite runs every statement on this process's one thread, and a chain of statements (a seeding
 * loop, a round of the work behind ingest) resolves through promise callbacks alone: no request,
 * timer or socket is served until the whole chain ends. Each statement here first lets the event
 * loop turn once, so a long task only holds requests up for one statement at a time.
 */
class YieldingPGlite extends PGlite {
  // Hot statements run prepared, as in the worker thread (pglite-prepared.ts).
  private readonly statements = new PreparedStatements();
  private readonly own: Session = { query: (sql, params, options) => super.query(sql, params, options), exec: (sql) => super.exec(sql) };

  override query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.statements.query<T>(this.own, sql, params, options);
  }

  override _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
    return super._runExclusiveQuery(async () => {
      await yieldToEventLoop();
      return fn();
    });
  }
}

/**
 * A migrated in-memory PGlite as an uncompressed data-directory dump (a test template), empty or with
 * what `fill` writes into it after the migrations.
 */
export async function dumpMigratedPglite(fill?: (db: Db) => Promise<void>): Promise<Blob> {
  const { pgliteWasmModule, fsBundle } = await loadPgliteAssets();
  // In this thread: a short-lived database whose dump is the result.
  const client = await PGlite.create('memory://', { pgliteWasmModule, fsBundle, extensions: pgliteExtensions });
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    await fill?.(db as unknown as Db);
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
