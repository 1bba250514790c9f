import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers.ts';
import { rowsOf } from '../db/sql/rows.ts';
import { dueTables, runEmbeddedMaintenance } from './embedded-maintenance.ts';

describe('dueTables', () => {
  it("follows autovacuum's default thresholds", () => {
    const t = (over: Partial<Parameters<typeof dueTables>[0][number]>) => ({
      relname: 'x',
      live: 1000,
      estimate: 1000,
      modified: 0,
      dead: 0,
      analyzed: true,
      ...over,
    });
    expect(dueTables([t({})])).toEqual([]);
    expect(dueTables([t({ modified: 150 })])).toEqual([]);
    expect(dueTables([t({ modified: 151 })])).toEqual([{ table: 'x', vacuum: false }]);
    expect(dueTables([t({ dead: 251 })])).toEqual([{ table: 'x', vacuum: true }]);
    expect(dueTables([t({ analyzed: false })])).toEqual([{ table: 'x', vacuum: false }]);
    // Counters started again at the open: the estimate of the last ANALYZE is the table's size.
    expect(dueTables([t({ live: 600, modified: 600, estimate: 100_000 })])).toEqual([]);
    expect(dueTables([t({ live: 600, modified: 600, dead: 600, estimate: 100_000 })])).toEqual([]);
    expect(dueTables([t({ live: 600, modified: 600, estimate: 1000 })])).toEqual([{ table: 'x', vacuum: false }]);
    // Grown since its statistics, in a life whose counters never saw the rows written.
    expect(dueTables([t({ pages: 118, statPages: 100 })])).toEqual([]);
    expect(dueTables([t({ pages: 119, statPages: 100 })])).toEqual([{ table: 'x', vacuum: false }]);
  });
});

describe('embedded database maintenance', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives a table filled since its creation statistics the planner reads (PGlite only; a server has autovacuum)', async () => {
    const db = t.database.db;
    // Dropped again after the test: on the Citus pass the next file reuses this database.
    onTestFinished(async () => {
      await db.execute(sql`drop table if exists maintenance_probe`);
    });
    await db.execute(sql`drop table if exists maintenance_probe`);
    await db.execute(sql`create table maintenance_probe (id int primary key, v int)`);
    await db.execute(sql`insert into maintenance_probe select g, g % 7 from generate_series(1, 5000) g`);
    const tuples = async () =>
      Number(rowsOf<{ n: number }>(await db.execute(sql`select reltuples as n from pg_class where relname = 'maintenance_probe'`))[0]!.n);
    const before = await tuples();
    const done = await runEmbeddedMaintenance(t.database);
    if (t.database.kind === 'pglite') {
      expect(before).toBeLessThan(0);
      expect(done).toContain('maintenance_probe');
      expect(await tuples()).toBe(5000);
      expect(await runEmbeddedMaintenance(t.database)).not.toContain('maintenance_probe');
      // A small sample (300 rows a target): ANALYZE runs on the API's thread.
      expect(rowsOf<{ default_statistics_target: string }>(await db.execute(sql`show default_statistics_target`))[0]).toEqual({
        default_statistics_target: '30',
      });
      // Rows written in an earlier life (the activity counters start again at every open, as
      // pg_stat_reset does here): the table's growth since its statistics makes it due.
      await db.execute(sql`insert into maintenance_probe select g, g % 7 from generate_series(5001, 10000) g`);
      await db.execute(sql`select pg_stat_reset()`);
      expect(await runEmbeddedMaintenance(t.database)).toContain('maintenance_probe');
      expect(await tuples()).toBe(10000);
    } else {
      expect(done).toEqual([]);
    }
  });
});
