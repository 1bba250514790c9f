import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../db/client.ts';
import * as schema from '../../db/schema/index.ts';
import { vehicleDailyStats } from '../../db/schema/index.ts';
import { repeatedValues } from '../../db/sql/repeated-values.ts';
import { daysUpsertQuery, renderDaysUpsert } from './fleet-stats.service.ts';

// The round's upsert of vehicle days is Drizzle's statement rendered once and repeated
// (db/sql/repeated-values.ts): for any rows it must be the very text and values Drizzle renders.

const db = drizzle.mock({ schema }) as unknown as DbOrTx;

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
}

type DayValues = typeof vehicleDailyStats.$inferInsert & Record<string, unknown>;

function randomDay(r: () => number, i: number): DayValues {
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const maybe = <T>(v: T): T | null => (r() < 0.3 ? null : v);
  const t = Date.UTC(2026, 10, 1) + Math.floor(r() * 40 * 86_400_000);
  return {
    organizationId: uuid(1),
    assetId: uuid(100 + Math.floor(r() * 50)),
    day: new Date(t).toISOString().slice(0, 10),
    distanceM: r() * 1e6,
    drivingMs: Math.floor(r() * 86_400_000),
    idleMs: Math.floor(r() * 3_600_000),
    maxSpeedKmh: maybe(r() * 140),
    speedingEvents: Math.floor(r() * 9),
    stops: Math.floor(r() * 30),
    fixes: i + Math.floor(r() * 1e5),
    lastFixAt: maybe(new Date(t)),
    carry: maybe({ last: { t, lat: r() * 90, lon: -r() * 180, note: `it's "${i}" \\ ${r()}` }, prevS: maybe(t / 1000) }),
    updatedAt: new Date(t + 1000),
  };
}

describe('the vehicle days upsert', () => {
  it('renders the text and values Drizzle renders, for random rounds of 1 to 40 days', () => {
    const r = random(74);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(r() * 40);
      const values = Array.from({ length: n }, (_, i) => randomDay(r, i));
      const reference = daysUpsertQuery(db, values).toSQL();
      expect(renderDaysUpsert(db, values)).toEqual({ sql: reference.sql, params: reference.params });
    }
  });

  it('refuses a statement that is not one VALUES row of every column, and a row missing a column', () => {
    const one = daysUpsertQuery(db, [randomDay(random(1), 0)]).toSQL();
    expect(() => repeatedValues(vehicleDailyStats, { sql: one.sql.replace('$13)', '$13, default)'), params: one.params })).toThrow(/not one VALUES row/);
    expect(() => repeatedValues(vehicleDailyStats, { sql: one.sql, params: one.params.slice(1) })).toThrow(/not one VALUES row/);
    const render = repeatedValues(vehicleDailyStats, one);
    const { carry: _, ...missing } = randomDay(random(2), 0);
    expect(() => render([missing])).toThrow(/has no carry/);
  });
});
