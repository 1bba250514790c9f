import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { iftaTablesOf } from '../../test/ifta-tables.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { type PositionRow, writePositions } from '../positions/index.ts';
import type { DayRecord } from './distance-days.ts';
import { writeRound } from './ifta-miles.repository.ts';
import { IftaMiles } from './ifta-miles.service.ts';

// The batched recompute of dirty days (ifta-recompute.ts, decision 0215) against the plain one, a
// vehicle at a time (IftaMiles.recomputeVehiclePlain): the same random fixes, counted records and
// dirty days go to a vehicle of each of two organizations; one organization is recomputed the
// batched way, the other the plain way, and every IFTA table's rows of each pair must be equal.
// The days straddle a month end; gaps of several days widen runs into each other (the overlap the
// batch leaves to the plain path) and a day may be dirty without a fix.

const PAIRS = 3;
let t: TestContext;
let orgs: [string, string];
let vehicles: Array<[TestVehicle, TestVehicle]>;
let miles: IftaMiles;

beforeAll(async () => {
  t = await createTestApp();
  orgs = [
    (await registerOrganization(t.app, 'Batched Recompute Carrier')).user.organization!.id,
    (await registerOrganization(t.app, 'Plain Recompute Carrier')).user.organization!.id,
  ];
  vehicles = [];
  for (let i = 0; i < PAIRS; i++) {
    const pair = await Promise.all(orgs.map((o, k) => createTestVehicle(t.app.db, o, { uniqueId: `recompute-${k}-${i}`, driver: false })));
    vehicles.push(pair as [TestVehicle, TestVehicle]);
  }
  // Rounds and the dirty timer never run by themselves here: the test calls the recomputes.
  miles = new IftaMiles(t.app.db, { shared: t.database.kind !== 'pglite', roundPauseMs: 3_600_000, dirtyDelayMs: 3_600_000 });
  miles.loadBoundaries();
});
afterAll(async () => {
  await miles?.close();
  await t?.close();
});

const BASE = Date.UTC(2026, 9, 27);
const dayText = (d: number) => new Date(BASE + d * 86_400_000).toISOString().slice(0, 10);
/** A vehicle's fixes: on some of ten days, a few each, moving east across Illinois into Indiana. */
const fixesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 })
  .chain((days) =>
    fc.tuple(
      ...days.map((d) =>
        fc.uniqueArray(fc.integer({ min: 0, max: 86_399 }), { minLength: 1, maxLength: 5 }).map((secs) => secs.map((s) => BASE + d * 86_400_000 + s * 1000)),
      ),
    ),
  )
  .map((perDay) => perDay.flat().sort((a, b) => a - b));
const vehicleCase = fc.record({
  fixes: fixesArb,
  dirty: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 5 }),
  counted: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }),
  metres: fc.double({ min: 100, max: 90_000, noNaN: true }),
});

function rowsOf(v: TestVehicle, orgId: string, times: readonly number[]): PositionRow[] {
  return times.map((ms, i) => ({
    organizationId: orgId,
    gatewayId: v.gatewayId,
    assetId: v.assetId,
    driverId: null,
    fixTime: new Date(ms),
    latitude: 40.5 + (i % 3) * 0.01,
    longitude: -88.2 + ((ms - BASE) / 86_400_000) * 0.35,
    speed: 80,
    course: 90,
    altitude: null,
    accuracy: null,
    odometer: 1_000_000 + i * 5_000,
    odometerSource: 'GPS',
    engineHours: null,
    ignition: true,
    protocol: 'osmand',
    attributes: {},
  }));
}

/** What was counted before the recompute: a record on some days (in Illinois), to be replaced. */
const counted = (day: string, metres: number): DayRecord => ({
  day,
  metres: new Map([['IL', [metres, 0]]]),
  crossings: [],
  flagged: [],
  fixes: 3,
  firstFixAt: null,
  lastFixAt: null,
  odometerStartM: null,
  odometerEndM: null,
  odometerTravelM: metres,
  odometerMetres: metres,
});

describe('the batched IFTA recompute', () => {
  it('leaves the same rows as recomputing one vehicle at a time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(vehicleCase, { minLength: PAIRS, maxLength: PAIRS }), async (cases) => {
        for (const pair of vehicles) {
          for (const v of pair) {
            for (const table of [
              'positions',
              'latest_positions',
              'ifta_distance_days',
              'ifta_distance_months',
              'ifta_vehicle_months',
              'ifta_vehicle_days',
              'ifta_crossings',
              'ifta_flagged_segments',
              'ifta_vehicle_state',
              'ifta_dirty_days',
            ]) {
              const column = table.includes('positions') ? 'asset_id' : 'vehicle_id';
              await t.app.db.execute(sql.raw(`delete from ${table} where ${column} = '${v.assetId}'`));
            }
          }
        }
        for (const [i, c] of cases.entries()) {
          for (const [k, v] of vehicles[i]!.entries()) {
            const orgId = orgs[k]!;
            const rows = rowsOf(v, orgId, c.fixes);
            await writePositions(t.app.db, rows);
            const last = rows.at(-1)!;
            const state = {
              vehicleId: v.assetId,
              orgId,
              fix: { time: last.fixTime.getTime(), lat: last.latitude, lon: last.longitude, speedKmh: 80, odometerM: last.odometer },
            };
            const days = new Map(c.counted.map((d) => [dayText(d), counted(dayText(d), c.metres)]));
            const dirty = c.dirty.map((d) => ({ vehicleId: v.assetId, orgId, day: dayText(d) }));
            await t.app.db.transaction((tx) => writeRound(tx, [{ vehicleId: v.assetId, orgId, days }], [state], dirty, false));
          }
        }
        // The plain way, a vehicle at a time, for the second organization.
        for (const [i, c] of cases.entries()) await miles.recomputeVehiclePlain(orgs[1], vehicles[i]![1].assetId, c.dirty.map(dayText));
        // The batched way for the first (catchUp finds its marks).
        await miles.catchUp();
        await miles.recomputeDirty(0);
        for (const [a, b] of vehicles) expect(await iftaTablesOf(t.app.db, a.assetId)).toEqual(await iftaTablesOf(t.app.db, b.assetId));
        for (const [a] of vehicles) expect((await iftaTablesOf(t.app.db, a.assetId)).dirty).toEqual([]);
      }),
      { numRuns: 12 },
    );
  }, 180_000);
});
