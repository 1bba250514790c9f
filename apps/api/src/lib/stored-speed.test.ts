import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSpeed } from './stored-speed.ts';

// A speed handed to the followers must be what a read of its real column returns (decision 0306):
// the engine casts each kept speed to real and writes its text, which must parse to the same number.
describe('a speed as a position keeps it', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await PGlite.create();
  });
  afterAll(async () => {
    await pg.close();
  });

  it('reads back from its real column as exactly the number written', async () => {
    // As devices send them: knots with three decimals times 1.852, m/s times 3.6, any double up to 99,999 km/h.
    const sent = [0, 1, 95.12, 112.596044, 253885.12991335665 / 10, 99_999.994];
    for (let i = 0; i < 600; i++) {
      const r = Math.random();
      sent.push(i % 3 === 0 ? Number((r * 80).toFixed(3)) * 1.852 : i % 3 === 1 ? r * 40 * 3.6 : r * 10 ** ((i % 6) - 1));
    }
    const kept = sent.map((v) => storedSpeed(v)!);
    const res = await pg.query<{ t: string }>(`select (unnest(array[${kept.map(String).join(',')}]::float8[])::real)::text as t`);
    const read = res.rows.map((r) => Number(r.t));
    expect(kept.flatMap((k, i) => (k === read[i] ? [] : [[sent[i], k, res.rows[i]!.t]]))).toEqual([]);
    for (const [i, k] of kept.entries()) expect(Math.abs(k - sent[i]!)).toBeLessThanOrEqual(0.005 + 1e-9);
    expect(storedSpeed(null)).toBeNull();
  });
});
