import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accumulatedValueProblems, parseEldFile } from '@fleet/eld';
import type { HosLogDay } from '@fleet/api-contract';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { driverBody, registryActors, vehicleBody } from '../../../test/registry.ts';
import { hosEvents } from '../../../db/schema/index.ts';
import { ensureLogDays } from '../hos.repository.ts';
import { logDateOf } from '../hos.time.ts';
import { monotonicTotals, type TotalsRecord } from './vehicle-totals.ts';

// Issue 46: odometer values went backwards within a log day (On duty at 1:37 with 664,534.9 mi, the
// engine power-up at 1:51 with 664,534.7): the device reports the engine's odometer when it has it
// and its own GPS one otherwise. A record's total miles and engine hours never go below an earlier
// record's of the same vehicle, on the log and in the ELD output file.

const MILE = 1609.344;
const MIN = 60_000;

describe('monotonicTotals', () => {
  const rec = (min: number, miles: number | null, hours: number | null, over: Partial<TotalsRecord> = {}): TotalsRecord => ({
    vehicleId: 'v1',
    eventTime: new Date(Date.UTC(2026, 10, 20, 7, 0) + min * MIN),
    sequenceId: min,
    latitude: 41.6,
    longitude: -88,
    odometerM: miles === null ? null : miles * MILE,
    engineHours: hours,
    ...over,
  });
  const miles = (rs: TotalsRecord[]) => rs.map((r) => (r.odometerM === null ? null : Math.round((r.odometerM / MILE) * 10) / 10));

  it('keeps a rising series as it is, and raises a value below an earlier one to the last known plus the GPS distance', () => {
    const rising = [rec(0, 100, 10), rec(10, 101.5, 10.2), rec(20, 101.5, 10.3)];
    expect(monotonicTotals(rising)).toEqual(rising);
    // Same place: nothing driven, so the last known value stands; 0.1° of longitude further on: 5.2 miles more.
    const back = monotonicTotals([
      rec(0, 664_534.9, 5001.2),
      rec(14, 664_534.7, 5001.1),
      rec(30, 664_534.8, null, { longitude: -87.9 }),
      rec(40, 664_545, 5001.6, { longitude: -87.8 }),
    ]);
    expect(miles(back)).toEqual([664_534.9, 664_534.9, 664_540.1, 664_545]);
    expect(back.map((r) => r.engineHours)).toEqual([5001.2, 5001.2, null, 5001.6]);
  });

  it('orders by time per vehicle, leaves other vehicles and unknown values alone, and starts from a floor', () => {
    const rs = [rec(20, 50, 5), rec(10, 60, 6), rec(15, 10, 1, { vehicleId: 'v2' }), rec(25, null, null), rec(30, 40, 4, { vehicleId: null })];
    expect(miles(monotonicTotals(rs))).toEqual([60, 60, 10, null, 40]);
    expect(miles(monotonicTotals([rec(0, 99, 9)], new Map([['v1', { time: 0, odometerM: 100 * MILE, engineHours: 10 }]])))).toEqual([100]);
  });
});

describe('the log day and the ELD file of a vehicle whose device switches odometers (HTTP)', () => {
  let t: TestContext;
  let a: Awaited<ReturnType<typeof registryActors>>;
  beforeAll(async () => {
    t = await createTestApp();
    a = await registryActors(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows totals that never go down, and the ELD file passes the accumulated-value check', async () => {
    const driver = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/organizations/${a.orgId}/drivers`,
        headers: a.admin,
        payload: driverBody({ homeTimeZone: 'America/Chicago' }),
      })
    ).json() as { id: string };
    const vehicle = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/organizations/${a.orgId}/assets`,
        headers: a.admin,
        payload: vehicleBody({ unitNumber: `OD${Date.now() % 100_000}` }),
      })
    ).json() as { id: string };
    // Two days ago, from 01:30 Chicago time (02:30 in summer): a night of driving with a stop 70 minutes in.
    const day = logDateOf(Date.now() - 2 * 86_400_000, 'America/Chicago', '00:00');
    const t0 = Date.parse(`${day}T07:30:00Z`);
    const rows: Array<[number, number, number, number, number]> = [
      // [minutes after 00:30, type, code, miles, engine hours]
      [0, 6, 1, 664_500.0, 5000.0], // power-up (engine odometer)
      [5, 1, 3, 664_500.4, 5000.1], // Driving
      [67, 1, 4, 664_534.9, 5001.2], // On duty (the device's GPS odometer)
      [70, 6, 3, 664_535.3, 5001.2], // shut-down (GPS odometer)
      [81, 6, 1, 664_534.7, 5001.1], // power-up 14 minutes later (the engine's odometer: below)
      [90, 1, 3, 664_540.0, 5001.4], // Driving
      [150, 1, 4, 664_590.0, 5002.4], // On duty
    ];
    await t.database.db.insert(hosEvents).values(
      rows.map(([min, type, code, miles, hours], i) => ({
        organizationId: a.orgId,
        driverId: driver.id,
        vehicleId: vehicle.id,
        sequenceId: i + 1,
        eventType: type,
        eventCode: code,
        recordStatus: 1,
        recordOrigin: 1,
        eventTime: new Date(t0 + min * MIN),
        logDate: day,
        latitude: 41.6,
        longitude: -88 + (miles - 664_500) / 50,
        odometerM: miles * MILE,
        engineHours: hours,
      })),
    );
    const logId = (await ensureLogDays(t.database.db, a.orgId, [{ driverId: driver.id, logDate: day }])).get(`${driver.id}|${day}`)!;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/hos_log/${logId}`, headers: a.admin });
    expect(res.statusCode, res.body).toBe(200);
    const log = res.json() as HosLogDay;
    const totals = log.events.map((e) => [e.odometerM!, e.engineHours!] as const);
    expect(totals).toHaveLength(rows.length);
    for (let i = 1; i < totals.length; i++) {
      expect(totals[i]![0], `miles of record ${i + 1}`).toBeGreaterThanOrEqual(totals[i - 1]![0]);
      expect(totals[i]![1], `engine hours of record ${i + 1}`).toBeGreaterThanOrEqual(totals[i - 1]![1]);
    }
    // The day's distance runs from the first reading to the last, never shortened by a step back.
    expect(Math.round(log.header.totalDistanceM! / MILE)).toBe(90);

    const file = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${a.orgId}/drivers/${driver.id}/hos_log/eld-output?from=${day}&to=${day}`,
      headers: a.admin,
    });
    expect(file.statusCode, file.body).toBe(200);
    const parsed = parseEldFile(file.body);
    expect(parsed.enginePower.map((e) => e.totalVehicleMiles).sort()).toEqual([664_500, 664_535, 664_535]);
    expect(accumulatedValueProblems(parsed)).toEqual([]);
  });
});
