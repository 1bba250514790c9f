import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { iftaTablesOf } from '../../test/ifta-tables.ts';
import type { DayRecord, DayRecords } from './distance-days.ts';
import { replaceDays, writeRound, type VehicleState } from './ifta-miles.repository.ts';

// The round's write as Citus routes it (multi-row VALUES per table, month rollups summed in the
// API, decision 0207) must leave exactly what the one array statement leaves: the same random
// rounds go to two vehicles, one each way, and every IFTA table's rows of the two are compared.

let t: TestContext;
let orgId: string;
let vehicles: [string, string];

beforeAll(async () => {
  t = await createTestApp();
  orgId = (await registerOrganization(t.app, 'Routed IFTA Carrier')).user.organization!.id;
  const a = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-plain', driver: false });
  const b = await createTestVehicle(t.app.db, orgId, { uniqueId: 'ifta-routed', driver: false });
  vehicles = [a.assetId, b.assetId];
});
afterAll(async () => {
  await t?.close();
});

const JURISDICTIONS = ['IL', 'IN', 'WI', 'IA', 'MI'] as const;
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const metres = fc.double({ min: 1, max: 50_000, noNaN: true });
const time = (day: number) => fc.integer({ min: 0, max: 86_399_000 }).map((ms) => Date.UTC(2026, 9, 28 + day) + ms);
const fix = (day: number) =>
  fc.record({
    time: time(day),
    lat: fc.double({ min: 40, max: 44, noNaN: true }),
    lon: fc.double({ min: -92, max: -85, noNaN: true }),
    speedKmh: fc.double({ min: 0, max: 140, noNaN: true }),
    odometerM: nullable(metres),
  });

/** One day's record; days straddle a month end, so the month rollups take two months. */
const dayRecord = (day: number): fc.Arbitrary<DayRecord> =>
  fc
    .record({
      metres: fc.uniqueArray(fc.tuple(fc.constantFrom(...JURISDICTIONS), metres, fc.boolean()), { selector: (x) => x[0], maxLength: 3 }),
      crossings: fc.array(
        fc.record({
          time: time(day),
          lat: fc.double({ min: 40, max: 44, noNaN: true }),
          lon: fc.double({ min: -92, max: -85, noNaN: true }),
          odometerM: nullable(metres),
          from: fc.constantFrom(...JURISDICTIONS),
          to: fc.constantFrom(...JURISDICTIONS),
        }),
        { maxLength: 2 },
      ),
      flagged: fc.array(fc.record({ from: fix(day), to: fix(day), metres, j: fc.constantFrom(...JURISDICTIONS) }), { maxLength: 1 }),
      fixes: fc.integer({ min: 0, max: 500 }),
      first: nullable(time(day)),
      last: nullable(time(day)),
      os: nullable(metres),
      oe: nullable(metres),
      ot: fc.double({ min: 0, max: 50_000, noNaN: true }),
      om: fc.double({ min: 0, max: 50_000, noNaN: true }),
    })
    .map((r) => ({
      day: new Date(Date.UTC(2026, 9, 28 + day)).toISOString().slice(0, 10),
      metres: new Map(r.metres.map(([j, m, interpolated]) => [j, [m, interpolated ? m / 2 : 0] as [number, number]])),
      crossings: r.crossings,
      flagged: r.flagged.map((s) => ({
        from: s.from,
        to: s.to,
        flags: ['impossible-speed' as const],
        metres: s.metres,
        jurisdictions: [s.j],
        byJurisdiction: { [s.j]: s.metres },
      })),
      fixes: r.fixes,
      firstFixAt: r.first,
      lastFixAt: r.last,
      odometerStartM: r.os,
      odometerEndM: r.oe,
      odometerTravelM: r.ot,
      odometerMetres: r.om,
    }));

const round = fc.record({
  days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 }).chain((ds) => fc.tuple(...ds.map((d) => dayRecord(d)))),
  state: nullable(fix(3)),
  dirty: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
});

const tablesOf = (vehicleId: string) => iftaTablesOf(t.app.db, vehicleId);

describe('the IFTA round write routed for Citus', () => {
  it('leaves the same rows as the array statement, round after round and after a recompute', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 1, maxLength: 4 }), async (rounds) => {
        for (const v of vehicles) {
          for (const table of [
            'ifta_distance_days',
            'ifta_distance_months',
            'ifta_vehicle_months',
            'ifta_vehicle_days',
            'ifta_crossings',
            'ifta_flagged_segments',
            'ifta_vehicle_state',
            'ifta_dirty_days',
          ]) {
            await t.app.db.execute(sql.raw(`delete from ${table} where vehicle_id = '${v}'`));
          }
        }
        for (const r of rounds) {
          for (const [i, vehicleId] of vehicles.entries()) {
            const days: DayRecords = new Map(r.days.map((d) => [d.day, d]));
            const states: VehicleState[] = r.state ? [{ vehicleId, orgId, fix: r.state }] : [];
            const dirty = r.dirty.map((d) => ({ vehicleId, orgId, day: new Date(Date.UTC(2026, 9, 28 + d)).toISOString().slice(0, 10) }));
            await t.app.db.transaction((tx) => writeRound(tx, [{ vehicleId, orgId, days }], states, dirty, i === 1));
          }
        }
        // A recompute of the middle days, each way.
        const last = rounds.at(-1)!;
        for (const [i, vehicleId] of vehicles.entries()) {
          await t.app.db.transaction((tx) =>
            replaceDays(tx, orgId, [{ vehicleId, fromDay: '2026-10-29', toDay: '2026-11-01', days: new Map(last.days.map((d) => [d.day, d])) }], i === 1),
          );
        }
        expect(await tablesOf(vehicles[1])).toEqual(await tablesOf(vehicles[0]));
      }),
      {
        numRuns: 15,
        // Found by a run: a day with a crossing and nothing else, which the array statement dropped.
        examples: [
          [
            [
              {
                days: [
                  {
                    day: '2026-11-03',
                    metres: new Map(),
                    crossings: [{ time: Date.UTC(2026, 10, 3), lat: 40, lon: -85, odometerM: null, from: 'IL', to: 'IL' }],
                    flagged: [],
                    fixes: 0,
                    firstFixAt: null,
                    lastFixAt: null,
                    odometerStartM: null,
                    odometerEndM: null,
                    odometerTravelM: 0,
                    odometerMetres: 0,
                  },
                ],
                state: null,
                dirty: [],
              },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
