import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeLiteral, PreparedStatements } from './pglite-prepared.ts';

// Statements seen twice run prepared on the embedded database (decision 0170): same answers as the
// ordinary query, a bounded number kept, and a statement PREPARE refuses still answers.
describe('prepared statements on PGlite', () => {
  let db: PGlite;
  const prepared = async () => (await db.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map((r) => r.name);
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`create table t (id int primary key, v text); insert into t values (1, 'a'), (2, 'b''c'), (3, null)`);
  });
  afterAll(async () => {
    await db.close();
  });

  it('quotes values as literals, and refuses what is not text, a number or a boolean', () => {
    expect(executeLiteral("it's")).toBe(`'it''s'`);
    expect(executeLiteral(5)).toBe(`'5'`);
    expect(executeLiteral(null)).toBe('NULL');
    expect(executeLiteral(true)).toBe(`'t'`);
    expect(executeLiteral('a\0b')).toBeUndefined();
    expect(executeLiteral(new Date())).toBeUndefined();
    expect(executeLiteral(Number.NaN)).toBeUndefined();
  });

  it('never makes a transaction wait for a PREPARE sent outside it (which waits for the transaction: a deadlock)', async () => {
    const s = new PreparedStatements();
    const q = 'select v from t where id = $1';
    await s.query(db, q, [1]);
    const answer = await db.transaction(async (tx) => {
      // Seen once before: this query PREPAREs it outside the transaction, queued behind it.
      const outside = s.query(db, q, [2]);
      const inside = s.queryInTransaction(tx, q, [1]);
      const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 5_000).unref());
      const r = await Promise.race([inside, stuck]);
      return { r, outside };
    });
    expect(answer.r).not.toBe('stuck');
    expect((answer.r as { rows: unknown[] }).rows).toEqual([{ v: 'a' }]);
    // Once the transaction ends, the PREPARE runs and the outside query answers, prepared.
    expect((await answer.outside).rows).toEqual([{ v: "b'c" }]);
    expect((await s.queryInTransaction(db, q, [3])).rows).toEqual([{ v: null }]);
    expect(await prepared()).toContain('p1');
    await db.exec('deallocate all');
  });

  it('prepares a statement the second time, answers as the ordinary query, and keeps at most the cap', async () => {
    const s = new PreparedStatements(2);
    const q = 'select id, v from t where id >= $1 and coalesce(v, $2) <> $3 order by id';
    const plain = await db.query(q, [1, 'x', 'a']);
    expect((await s.query(db, q, [1, 'x', 'a'])).rows).toEqual(plain.rows);
    expect(await prepared()).toEqual([]);
    expect((await s.query(db, q, [1, 'x', 'a'])).rows).toEqual(plain.rows);
    expect((await s.query(db, q, [2, "b'c", 'zz'])).rows).toEqual((await db.query(q, [2, "b'c", 'zz'])).rows);
    expect(await prepared()).toEqual(['p1']);
    for (const other of ['select 1 as a where $1::int > 0', 'select 2 as b where $1::int > 0']) {
      await s.query(db, other, [1]);
      await s.query(db, other, [1]);
    }
    // The cap is 2: the least recently used (the first) was deallocated.
    await db.query('select 1');
    expect(await prepared()).toEqual(['p2', 'p3']);
    // Updates report their rows through EXECUTE as well.
    const u = 'update t set v = v where id = $1';
    await s.query(db, u, [1]);
    expect((await s.query(db, u, [1])).affectedRows).toBe(1);
    await db.exec('deallocate all');
  });

  it('answers a statement PREPARE refuses, and one deallocated behind its back', async () => {
    const s = new PreparedStatements();
    for (let i = 0; i < 3; i++) expect((await s.query(db, 'select $1 as x', ['a'])).rows).toEqual([{ x: 'a' }]);
    const q = 'select count(*)::int as n from t where id > $1';
    await s.query(db, q, [0]);
    await s.query(db, q, [0]);
    await db.exec('deallocate all');
    expect((await s.query(db, q, [0])).rows).toEqual([{ n: 3 }]);
    expect((await s.query(db, q, [1])).rows).toEqual([{ n: 2 }]);
  });
});
