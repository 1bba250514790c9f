import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onServer, serverDatabase } from '../test/helpers.ts';
import { openDatabase, type Database } from './client.ts';
import { rowsOf } from './sql/rows.ts';

// The pool's session setting (client.ts): JIT off on every connection before the app's first
// statement, sent by the pool's onConnect hook, awaited, so never beside another statement on the
// same connection (pg@8 warns of that; pg@9 will refuse it).

describe.skipIf(!onServer())('the pool’s session settings (a server database)', () => {
  let server: { url: string; drop: () => Promise<void> };
  let database: Database;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);

  beforeAll(async () => {
    process.on('warning', onWarning);
    server = await serverDatabase();
    database = await openDatabase({ databaseUrl: server.url, dataDir: 'memory', poolSize: 4 });
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await database?.close();
    await server?.drop();
  });

  it('has JIT off on every connection from its first statement, with no statement sent beside another', async () => {
    // Four at once: the pool opens new connections and hands each out at once.
    const shown = await Promise.all(
      Array.from(
        { length: 4 },
        async () =>
          rowsOf<{ jit: string; pid: number }>(
            await database.db.execute(sql`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`),
          )[0]!,
      ),
    );
    expect(new Set(shown.map((s) => s.pid)).size).toBe(4);
    expect(shown.map((s) => s.jit)).toEqual(['off', 'off', 'off', 'off']);
    // The time passing is the subject: no late warning comes.
    await new Promise((r) => setTimeout(r, 10));
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  });
});
