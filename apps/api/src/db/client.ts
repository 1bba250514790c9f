import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** One type for both drivers: PGlite (embedded) and node-postgres (server). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** LISTEN/NOTIFY for fan-out across instances (PGlite: in-process). */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Runs `fn` on one dedicated connection, for session state such as pg_try_advisory_lock
   * (a pooled query may land on any connection). PGlite has a single session anyway.
   */
  session<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Size of the embedded database's WebAssembly memory (it only grows); null on a server. */
  wasmMemoryBytes(): number | null;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

export interface OpenOptions {
  /** node-postgres connection string; when unset the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; 'memory' for an in-memory database (tests). */
  dataDir: string | 'memory';
  poolSize?: number;
  /** PGlite buffer pool, e.g. '32MB'. */
  sharedBuffers?: string;
}

/** Opens the database and applies the committed migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle connection the server ends (restart, failover, a dropped test database) is replaced on
    // the next checkout; without a listener its 'error' event would crash the process.
    pool.on('error', (err) => console.warn(`database: idle connection closed (${err.message})`));
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder });
    return {
      db,
      kind: 'postgres',
      async listen(channel, onMessage) {
        const client = await pool.connect();
        client.on('error', (err) => console.warn(`database: LISTEN ${channel} connection closed (${err.message})`));
        client.on('notification', (msg) => {
          if (msg.channel === channel && msg.payload !== undefined) onMessage(msg.payload);
        });
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        return async () => {
          await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
          client.release();
        };
      },
      async session(fn) {
        const client = await pool.connect();
        try {
          return await fn(drizzlePg({ client, schema }) as unknown as Db);
        } finally {
          client.release();
        }
      },
      wasmMemoryBytes: () => null,
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
  const client = await PGlite.create(dataDir ?? 'memory://', {
    extensions: { pg_trgm, btree_gist },
    // An embedded database for one server: a small buffer pool keeps the process lean; the
    // operating system's page cache still holds hot table files.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffers ?? '32MB'}`],
  });
  const drizzleClient = drizzlePglite({ client, schema });
  await migratePglite(drizzleClient, { migrationsFolder });
  return {
    db: drizzleClient as unknown as Db,
    kind: 'pglite',
    async listen(channel, onMessage) {
      const unsub = await client.listen(channel, onMessage);
      return async () => unsub();
    },
    session: (fn) => fn(drizzleClient as unknown as Db),
    wasmMemoryBytes: () => (client.Module as { HEAPU8?: Uint8Array } | undefined)?.HEAPU8?.buffer.byteLength ?? null,
    close: () => client.close(),
  };
}
