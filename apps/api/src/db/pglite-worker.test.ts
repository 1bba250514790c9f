import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { pgliteTemplateBlob } from '../test/helpers.ts';
import { openDatabase, type Database } from './client.ts';
import { copyBinary, pgliteOf, BinaryCopyReader } from './pglite-copy.ts';
import { RemotePGlite, STALL_REPORT_MS } from './pglite-remote.ts';
import { preparedSql } from './sql/prepared-sql.ts';
import { rowsOf } from './sql/rows.ts';

// The embedded database in its worker thread (decision 0170) against the same database on the
// API's thread: same answers through Drizzle and the PGlite-only paths, transactions, errors,
// notifications; and a slow statement no longer holds up a request that needs no database.

describe.skipIf(!!process.env.TEST_DATABASE_URL)('the embedded database in a worker thread', () => {
  const opened: Database[] = [];
  const open = async (pgliteThread: 'worker' | 'main') => {
    const d = await openDatabase({ dataDir: 'memory', pgliteTemplate: pgliteTemplateBlob(), pgliteThread });
    opened.push(d);
    return d;
  };
  let worker: Database;
  let main: Database;
  beforeAll(async () => {
    [worker, main] = await Promise.all([open('worker'), open('main')]);
  });
  afterAll(async () => {
    await Promise.all(opened.map((d) => d.close()));
  });

  it('runs in a worker thread only when asked', () => {
    expect(pgliteOf(worker.db)).toBeInstanceOf(RemotePGlite);
    expect(pgliteOf(main.db)).not.toBeInstanceOf(RemotePGlite);
    expect(pgliteOf(main.db)).not.toBeNull();
  });

  it('answers a query through Drizzle as the in-thread database does (dates and numerics as text, JSON, arrays, bytea, NULL)', async () => {
    const q = sql`select ${'2026-06-01T10:00:00Z'}::timestamptz as t, '2026-06-01'::date as d, '1 day 2 hours'::interval as i, 12.50::numeric as n,
      ${JSON.stringify({ a: [1, 'x'] })}::jsonb as j, array[1, 2, null]::int[] as a, '\\x0102'::bytea as b, null::text as z, 3000000000::int8 as big`;
    const [w, m] = await Promise.all([worker.db.execute(q), main.db.execute(q)]);
    expect(rowsOf(w)).toEqual(rowsOf(m));
    expect(rowsOf<{ t: string; n: string }>(w)[0]).toMatchObject({ t: '2026-06-01 10:00:00+00', n: '12.50' });
  });

  it("keeps Drizzle's text types as text only for Drizzle: a direct call, or one naming other types, gets PGlite's own parsing", async () => {
    const text = `select '2026-06-01T10:00:00Z'::timestamptz as t, '2026-06-01'::date as d, array['2026-06-01T10:00:00Z'::timestamptz] as ts`;
    const remote = pgliteOf(worker.db) as RemotePGlite;
    const inThread = pgliteOf(main.db)!;
    // Twice each: the second run is the prepared statement's.
    for (let i = 0; i < 2; i++) {
      const direct = (await remote.query<{ t: unknown; d: unknown; ts: unknown }>(text)).rows[0]!;
      expect(direct.t).toBeInstanceOf(Date);
      expect(direct).toEqual((await inThread.query(text)).rows[0]);
      const onlyDates = (await remote.query<{ t: unknown; d: unknown }>(text, [], { parsers: { 1082: (v: string) => v } })).rows[0]!;
      expect(onlyDates.d).toBe('2026-06-01');
      expect(onlyDates.t).toBeInstanceOf(Date);
      expect(rowsOf(await worker.db.execute(sql.raw(text)))[0]).toEqual({ t: '2026-06-01 10:00:00+00', d: '2026-06-01', ts: '{"2026-06-01 10:00:00+00"}' });
    }
  });

  it('runs a statement seen twice as a prepared statement, with the same rows, on both threads', async () => {
    const statement = preparedSql<{ n: number; s: string | null; t: string }>(
      'probe_prepared',
      sql`select ${sql.placeholder('n')}::int + 1 as n, ${sql.placeholder('s')}::text as s, ${sql.placeholder('t')}::timestamptz as probe_t`,
    );
    const first = await statement.run(main.db, { n: 0, s: 'x', t: '2026-06-01T00:00:00Z' });
    for (const values of [
      { n: 1, s: "it's", t: '2026-06-01T00:00:00Z' },
      { n: 2, s: null, t: '2026-06-02T00:00:00Z' },
      { n: 0, s: 'x', t: '2026-06-01T00:00:00Z' },
    ]) {
      expect(await statement.run(worker.db, values)).toEqual(await statement.run(main.db, values));
    }
    expect(await statement.run(worker.db, { n: 0, s: 'x', t: '2026-06-01T00:00:00Z' })).toEqual(first);
    const prepared = async (d: Database) =>
      rowsOf<{ statement: string }>(await d.db.execute(sql`select statement from pg_prepared_statements`)).map((r) => r.statement);
    for (const d of [worker, main]) expect((await prepared(d)).filter((s) => s.includes('as probe_t'))).toHaveLength(1);
  });

  it('reads a binary COPY as bytes transferred from the worker', async () => {
    const bytes = await copyBinary(pgliteOf(worker.db)!, 'select g::int4 from generate_series(1, 3) g');
    const reader = new BinaryCopyReader(bytes);
    const got: number[] = [];
    while (reader.row() === 1) {
      reader.field();
      got.push(reader.view.getInt32(reader.offset));
    }
    expect(got).toEqual([1, 2, 3]);
  });

  it('logs a statement sent outside a transaction from inside it, unless production turned the check off', async () => {
    const quiet = await openDatabase({ dataDir: 'memory', pgliteTemplate: pgliteTemplateBlob(), pgliteContextCheck: false });
    opened.push(quiet);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const outsideFrom = async (d: Database) => {
        let outside: Promise<unknown> | undefined;
        await d.db.transaction(async (tx) => {
          // Drizzle's query is lazy: then() sends it, still inside the callback.
          outside = d.db.execute(sql`select 'context probe' as p`).then((r) => r);
          await tx.execute(sql`select 1`);
        });
        await outside;
      };
      await outsideFrom(quiet);
      expect(logged).not.toHaveBeenCalled();
      await outsideFrom(worker);
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]![0])).toMatch(/a statement outside transaction \d+ was sent from inside it.*context probe/);
    } finally {
      logged.mockRestore();
    }
  });

  it('reports a call that has waited for the thread, with the open transaction and its last statement', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const d = await openDatabase({ dataDir: 'memory', pgliteTemplate: pgliteTemplateBlob() });
      opened.push(d);
      let waiting: Promise<unknown> | undefined;
      await d.db.transaction(async (tx) => {
        await tx.execute(sql`select   'held'   as   h`);
        waiting = d.db.execute(sql`select 'behind it' as b`).then((r) => r);
        await new Promise((r) => setTimeout(r, 50));
        vi.advanceTimersByTime(STALL_REPORT_MS + 1);
      });
      await waiting;
      const lines = logged.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('has waited'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/a query: select 'behind it' as b has waited 30 s .*transaction \d+ open for 30 s, its last statement: select 'held' as h/);
    } finally {
      logged.mockRestore();
      vi.useRealTimers();
    }
  });

  it('commits a transaction, rolls one back on an error, and keeps PostgreSQL’s error fields', async () => {
    await worker.db.execute(sql`create table tx_probe (id int primary key)`);
    let outside: Promise<unknown> | undefined;
    await worker.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (1)`);
      // A statement from outside sent meanwhile waits for the transaction (one session), then sees its rows.
      outside = worker.db.execute(sql`select count(*)::int as n from tx_probe`);
      await tx.execute(sql`insert into tx_probe values (2)`);
    });
    expect(rowsOf<{ n: number }>((await outside) as never)[0]!.n).toBe(2);
    const err = await worker.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (3)`);
        await tx.execute(sql`insert into tx_probe values (1)`);
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const cause = (err as { cause?: { code?: string; constraint?: string } }).cause ?? (err as { code?: string; constraint?: string });
    expect(cause).toMatchObject({ code: '23505', constraint: 'tx_probe_pkey' });
    const rows = rowsOf<{ id: number }>(await worker.db.execute(sql`select id from tx_probe order by id`));
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('delivers a notification before the answer of the statement that sent it', async () => {
    const order: string[] = [];
    const l = await worker.listen('probe_channel', (payload) => order.push(`notify ${payload}`));
    await worker.db.execute(sql`select pg_notify('probe_channel', 'hello')`);
    order.push('answered');
    await l.stop();
    await worker.db.execute(sql`select pg_notify('probe_channel', 'unheard')`);
    expect(order).toEqual(['notify hello', 'answered']);
  });

  it('reports the WebAssembly memory of the worker’s database', async () => {
    await worker.db.execute(sql`select 1`);
    expect(worker.wasmMemoryBytes()).toBeGreaterThan(16 * 1024 * 1024);
  });

  // A route that sleeps in the database, and the liveness probe, over real HTTP: with the database
  // in its thread the probe answers while the sleep runs; on the API's thread it waits for it.
  for (const thread of ['worker', 'main'] as const) {
    it(`a slow statement ${thread === 'worker' ? 'does not hold up' : 'holds up (on the API’s thread)'} another request`, async () => {
      const database = thread === 'worker' ? worker : main;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-pgworker-http-'));
      const app = await buildApp({ config: testConfig({ dataDir, publicUrl: 'http://fleet.test' }), database });
      let started!: () => void;
      const sleeping = new Promise<void>((r) => (started = r));
      app.get('/test/slow', { config: { public: true } }, async () => {
        started();
        await app.db.execute(sql`select pg_sleep(0.8)`);
        return { slept: true };
      });
      try {
        const url = await app.listen({ port: 0, host: '127.0.0.1' });
        const order: string[] = [];
        const slow = fetch(`${url}/test/slow`).then(async (r) => order.push(`slow ${r.status} ${JSON.stringify(await r.json())}`));
        await sleeping;
        const fast = fetch(`${url}/healthz`).then((r) => order.push(`healthz ${r.status}`));
        await Promise.all([slow, fast]);
        expect(order).toEqual(thread === 'worker' ? ['healthz 200', 'slow 200 {"slept":true}'] : ['slow 200 {"slept":true}', 'healthz 200']);
      } finally {
        await app.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
