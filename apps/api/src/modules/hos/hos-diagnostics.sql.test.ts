import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, login, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { engineFixFacts, fixRuns, POSITION_EVERY_MS, type EngineFix } from './hos-diagnostics.ts';
import { engineFixFactsOf, validFixRuns } from './hos-diagnostics.service.ts';
import { seededRandom } from '../../lib/seeded-random.ts';

// The ELD diagnostics job sums fixes up in the database with window functions (decision 0173); on
// random fixes of three vehicles, what it reads equals what the plain functions make of every fix.

let t: TestContext;
let orgId: string;
const vehicles: TestVehicle[] = [];
const H = 3_600_000;
const NOW = Math.floor(Date.now() / 1000) * 1000;
const FROM = NOW - 36 * H;
beforeAll(async () => {
  t = await createTestApp();
  orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
  for (let i = 0; i < 3; i++) vehicles.push(await createTestVehicle(t.app.db, orgId, { uniqueId: `diag-sql-${Date.now()}-${i}` }));
});
afterAll(async () => {
  await t?.close();
});

const nul = (v: unknown) => (v === null || v === undefined ? 'NULL' : String(v));

/** Random fixes over the 36 hours with millisecond times: dense stretches, gaps of exactly 5 minutes, silences, poor accuracy, every engine-data mix. */
async function insertRandomFixes(v: TestVehicle, seed: number): Promise<void> {
  const r = seededRandom(seed);
  const rows: string[][] = [];
  let time = FROM - H + Math.floor(r() * H);
  let lon = -100;
  while (time <= NOW + H) {
    const roll = r();
    rows.push([
      new Date(time).toISOString(),
      String(40 + r() / 100),
      String(lon),
      nul(r() < 0.15 ? Math.floor(r() * 20_000) : r() < 0.5 ? null : Math.floor(r() * 50)),
      nul(r() < 0.1 ? (r() < 0.5 ? null : false) : true),
      nul(r() < 0.7 ? 'ECM' : r() < 0.5 ? 'GPS' : null),
      nul(r() < 0.8 ? Math.floor(r() * 10_000) : null),
    ]);
    const step = roll < 0.6 ? Math.floor(r() * 60_000) + 1 : roll < 0.7 ? POSITION_EVERY_MS : roll < 0.75 ? POSITION_EVERY_MS + 1 : Math.floor(r() * 2 * H);
    lon += r() < 0.5 ? (step / H) * 1.2 : 0;
    time += step;
  }
  const col = (i: number) => `{${rows.map((x) => x[i]).join(',')}}`;
  await t.database.db.execute(
    `
    insert into positions (organization_id, gateway_id, asset_id, fix_time, latitude, longitude, accuracy, ignition, odometer_source, engine_hours, protocol)
    select '${orgId}', '${v.gatewayId}', '${v.assetId}', u.t, u.lat, u.lon, u.acc, u.ign, u.src, u.hours, 'osmand'
    from unnest('${col(0)}'::timestamptz[], '${col(1)}'::float8[], '${col(2)}'::float8[], '${col(3)}'::real[], '${col(4)}'::boolean[], '${col(5)}'::text[], '${col(6)}'::float8[])
      as u(t, lat, lon, acc, ign, src, hours)` as never,
  );
}

/** Every fix of the vehicle in (from, to], read back plainly. */
async function everyFix(v: TestVehicle, from: number, to: number) {
  return rowsOf<{ t: number; lat: number; lon: number; accuracy: number | null; ignition: boolean | null; engine: boolean }>(
    await t.database.db.execute(
      `
      select floor(extract(epoch from fix_time) * 1000)::float8 as t, latitude as lat, longitude as lon, accuracy, ignition,
        odometer_source is not distinct from 'ECM' and engine_hours is not null as engine
      from positions where asset_id = '${v.assetId}' and fix_time > '${new Date(from).toISOString()}' and fix_time <= '${new Date(to).toISOString()}'
      order by fix_time, gateway_id` as never,
    ),
  ).map((f) => ({ ...f, t: Number(f.t) }));
}

describe('the diagnostics job reads compact facts computed in the database', () => {
  it('gives the runs of valid fixes and the engine facts the plain functions give from every fix', async () => {
    for (const [i, v] of vehicles.entries()) await insertRandomFixes(v, 100 + i);
    const ids = vehicles.map((v) => v.assetId);
    const runs = await validFixRuns(t.database.db, orgId, ids, FROM, NOW);
    const engine = await engineFixFactsOf(t.database.db, orgId, ids, FROM, NOW);
    for (const v of vehicles) {
      const fixes = await everyFix(v, FROM, NOW);
      expect(fixes.length).toBeGreaterThan(100);
      expect(runs.get(v.assetId)).toEqual(fixRuns(fixes.filter((f) => f.accuracy === null || f.accuracy <= 8047).map((f) => f.t)));
      const plain: EngineFix[] = fixes.map((f) => ({ time: f.t, lat: f.lat, lon: f.lon, ignition: f.ignition, engineData: f.engine }));
      const expected = engineFixFacts(plain, NOW);
      const got = engine.facts.get(v.assetId)!;
      expect(got.withoutData).toEqual(expected.withoutData);
      expect(got.silences).toEqual(
        expected.silences.map(([a, b]) => [
          { time: a.time, lat: a.lat, lon: a.lon, ignition: a.ignition },
          { time: b.time, lat: b.lat, lon: b.lon, ignition: b.ignition },
        ]),
      );
      expect({ lastIgnition: got.lastIgnition, lastOnEngineData: got.lastOnEngineData }).toEqual({
        lastIgnition: expected.lastIgnition,
        lastOnEngineData: expected.lastOnEngineData,
      });
      expect(expected.silences.length).toBeGreaterThan(3);
      expect(expected.withoutData.length).toBeGreaterThan(3);
    }
    expect([...engine.reports].sort()).toEqual([...ids].sort());
  });
});
