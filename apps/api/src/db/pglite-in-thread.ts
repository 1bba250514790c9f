import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { pgliteExtensions, pgliteOptions, type PgliteOpen } from './pglite-open.ts';
import { PreparedStatements, type Session } from './pglite-prepared.ts';
import * as schema from './schema/index.ts';

// PGlite on the API's own thread (PGLITE_THREAD=main, and test templates). client.ts imports this
// module only then, so the worker mode's API thread never loads PGlite's code (decision 0170).

/**
 * In-thread mode: PGlite runs every statement on this process's one thread, and a chain of statements
 * (a seeding loop, a round of the work behind ingest) resolves through promise callbacks alone: no
 * request, timer or socket is served until the whole chain ends. Each statement here first lets the
 * event loop turn once, so a long task only holds requests up for one statement at a time.
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

/** Opens a server's PGlite on this thread. */
export async function openInThread(o: PgliteOpen): Promise<PGlite> {
  const c = new YieldingPGlite(o.dataDir ?? 'memory://', pgliteOptions(o));
  await c.waitReady;
  return c;
}

/** A migrated, empty in-memory PGlite as an uncompressed data-directory dump (a test template). */
export async function dumpMigrated(o: { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob; migrationsFolder: string }): Promise<Blob> {
  // In this thread: a short-lived database whose dump is the result.
  const client = await PGlite.create('memory://', { pgliteWasmModule: o.pgliteWasmModule, fsBundle: o.fsBundle, extensions: pgliteExtensions });
  try {
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: o.migrationsFolder });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
