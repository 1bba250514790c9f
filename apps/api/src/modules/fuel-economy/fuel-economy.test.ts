import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelEconomySchema, type FuelEconomy } from '@fleet/api-contract';
import { bearer, createTestApp, expectErrorBody, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { userWithPermissions } from '../../test/registry.ts';
import { createTestVehicle, testPositionRow, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Issue 68: fuel economy and idling through HTTP against a hand calculation. Three trucks on
// 2026-06-10: A reports the engine's fuel counter (with a reset, an odd spike and an idle at the
// end), B only buys fuel (three fills, the last in two receipts), C reports the counter and changes
// driver halfway.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let a: TestVehicle;
let b: TestVehicle;
let c: TestVehicle;
let c2: string;

const MIN = 60_000;
/** 0.015° of latitude along a meridian, in metres (the mean Earth radius the daily statistics use). */
const STEP_M = (6_371_008.8 * 0.015 * Math.PI) / 180;
const T0 = Date.UTC(2026, 5, 10, 14);
const url = (q: string) => `/api/v1/organizations/${orgId}/fuel-economy?${q}`;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

async function ingest(v: TestVehicle, positions: Array<Record<string, unknown>>): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
  expect(res.statusCode, res.body).toBe(200);
}

async function read(q: string, headers = admin): Promise<FuelEconomy> {
  const res = await t.app.inject({ method: 'GET', url: url(q), headers });
  expect(res.statusCode, res.body).toBe(200);
  return fuelEconomySchema.parse(res.json());
}

/** A's counter: 5,000 L rising 0.6 L a minute; at minute 30 the ECU restarts it at 10; minute 45 reads 99,999 once. */
const fuelA = (i: number) => (i === 45 ? 99_999 : i < 30 ? 5000 + 0.6 * i : 10 + 0.6 * (i - 30));

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Fuel Economy Lines');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  a = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fe-engine-a', unitNumber: 'FE-A' });
  b = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fe-bought-b', unitNumber: 'FE-B' });
  c = await createTestVehicle(t.app.db, orgId, { uniqueId: 'fe-engine-c', unitNumber: 'FE-C' });
  c2 = (await sql<{ id: string }>(`insert into drivers (organization_id, first_name, last_name) values ('${orgId}', 'Second', 'Driver') returning id`))[0]!.id;

  // A: an hour north at 100 km/h (a fix a minute), then nine minutes idling where it stopped.
  await ingest(a, [
    ...Array.from({ length: 61 }, (_, i) => ({
      fixTime: new Date(T0 + i * MIN).toISOString(),
      latitude: 39 + i * 0.015,
      longitude: -95,
      speed: 100,
      ignition: true,
      attributes: { fuelUsed: fuelA(i) },
    })),
    ...Array.from({ length: 10 }, (_, k) => ({
      fixTime: new Date(T0 + (61 + k) * MIN).toISOString(),
      latitude: 39 + 60 * 0.015,
      longitude: -95,
      speed: 0,
      ignition: true,
      attributes: { fuelUsed: fuelA(59) + 0.6 + 0.05 * (k + 1) },
    })),
  ]);

  // B: two half-hour trips north (30 steps each) with 40 minutes parked before, between and after (ignition off), no counter.
  const leg = (from: number, startLat: number) =>
    Array.from({ length: 31 }, (_, i) => ({
      fixTime: new Date(from + i * MIN).toISOString(),
      latitude: startLat + i * 0.015,
      longitude: -96,
      speed: 100,
      ignition: true,
    }));
  const parked = (from: number, lat: number) =>
    Array.from({ length: 9 }, (_, i) => ({ fixTime: new Date(from + i * 5 * MIN).toISOString(), latitude: lat, longitude: -96, speed: 0, ignition: false }));
  await ingest(b, [
    ...parked(T0 - 45 * MIN, 38),
    ...leg(T0, 38),
    ...parked(T0 + 31 * MIN, 38.45),
    ...leg(T0 + 72 * MIN, 38.45),
    ...parked(T0 + 103 * MIN, 38.9),
  ]);

  // C: forty minutes north, its own driver the first twenty, the second driver the next (the fix's attribution).
  const rows = Array.from({ length: 41 }, (_, i) =>
    testPositionRow(c, orgId, new Date(T0 + i * MIN), {
      latitude: 40 + i * 0.015,
      longitude: -97,
      speed: 100,
      driverId: i < 20 ? c.driverId : c2,
      protocol: 'osmand',
      attributes: { fuelUsed: i <= 20 ? 800 + 0.5 * i : 810 + 0.7 * (i - 20) },
    }),
  );
  await t.app.ingest.committer.write(rows);
  await t.app.fleetStats.idle();
  await t.app.tripsStops.idle();
  await t.app.safetyEvents.idle();

  // B's fills: before the first trip, between the trips, and after the second in two receipts (both tanks).
  const buy = async (at: number, gallons: number, receipt: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${orgId}/ifta/fuel-purchases`,
      headers: admin,
      payload: {
        purchasedAt: new Date(at).toISOString(),
        assetId: b.assetId,
        jurisdiction: 'KS',
        quantity: gallons,
        volumeUnit: 'GAL',
        receiptNumber: receipt,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  // Bought in the morning, before its positions begin that day: the miles it was burnt over are unknown.
  await buy(T0 - 6 * 3_600_000, 120, 'FE-B-0');
  await buy(T0 - 30 * MIN, 100, 'FE-B-1');
  await buy(T0 + 40 * MIN, 10, 'FE-B-2');
  await buy(T0 + 110 * MIN, 8, 'FE-B-3');
  await buy(T0 + 120 * MIN, 2.5, 'FE-B-4');
});
afterAll(async () => {
  await t?.close();
});

describe('GET /organizations/{orgId}/fuel-economy', () => {
  it('gives each vehicle its fuel and economy as counted by hand, with its basis', async () => {
    const e = await read('from=2026-06-10&to=2026-06-10');
    const row = (v: TestVehicle) => e.rows.find((r) => r.id === v.assetId)!;
    expect(e.rows.map((r) => r.name)).toEqual(['FE-A', 'FE-B', 'FE-C']);

    // A: 60 driving minutes of 0.6 L, less the reset's minute (29→30) and the spike's two (44→45, 45→46):
    // 57 × 0.6 L over 57 steps; then 10 idle minutes of 0.05 L where it stood.
    const A = row(a);
    expect(A.economy).toMatchObject({ basis: 'ENGINE', fills: null });
    expect(A.economy!.fuelL).toBeCloseTo(57 * 0.6 + 10 * 0.05, 2);
    expect(A.economy!.distanceM).toBe(Math.round(57 * STEP_M));
    expect(A.economy!.lPer100Km).toBeCloseTo((57 * 0.6 + 0.5) / ((57 * STEP_M) / 100_000), 2);
    // The daily statistics count all 60 steps; the idling event: minutes 61 to 70 at 0.05 L a minute.
    expect(A.distanceM).toBe(Math.round(60 * STEP_M));
    expect(A.idleEvents).toBe(1);
    expect(A.idleMs).toBe(9 * MIN);
    expect(A.idleFuelL).toBeCloseTo(0.45, 2);
    expect(A.idleSharePct).toBeCloseTo((9 / (A.drivingMs / MIN + 9)) * 100, 1);

    // B: bought after the first fill up to the last (10 + 8 + 2.5 gal; the last two within an hour are
    // one fill) over its two trips between the first and last fill (30 steps each). The morning's fill,
    // before its positions begin, is not the first.
    const B = row(b);
    expect(B.economy).toMatchObject({ basis: 'PURCHASES', fills: 3, from: new Date(T0 - 30 * MIN).toISOString(), to: new Date(T0 + 110 * MIN).toISOString() });
    expect(B.economy!.fuelL).toBeCloseTo(20.5 * 3.785411784, 2);
    expect(B.economy!.distanceM).toBe(Math.round(60 * STEP_M));
    expect(B.idleEvents).toBe(0);
    expect(B.idleFuelL).toBeNull();

    // C: 20 minutes at 0.5 L and 20 at 0.7 L.
    const C = row(c);
    expect(C.economy!.fuelL).toBeCloseTo(10 + 14, 2);
    expect(C.economy!.distanceM).toBe(Math.round(40 * STEP_M));

    // The fleet's median of the three economies; the totals of the rows.
    const l100 = [A, B, C].map((r) => r.economy!.fuelL / (r.economy!.distanceM / 100_000)).sort((x, y) => x - y);
    expect(e.median.lPer100Km).toBeCloseTo(l100[1]!, 1);
    expect(e.median.economyCount).toBe(3);
    expect(e.totals.economy).toMatchObject({ basis: 'MIXED' });
    expect(e.totals.economy!.fuelL).toBeCloseTo(A.economy!.fuelL + B.economy!.fuelL + C.economy!.fuelL, 1);
  });

  it('gives each driver the intervals attributed to them, and a share of a vehicle measured by its purchases', async () => {
    const e = await read('from=2026-06-10&to=2026-06-10&groupBy=driver');
    const row = (id: string | null) => e.rows.find((r) => r.id === id)!;
    expect(row(a.driverId).economy).toMatchObject({ basis: 'ENGINE' });
    expect(row(a.driverId).economy!.fuelL).toBeCloseTo(34.7, 2);
    expect(row(a.driverId).idleMs).toBe(9 * MIN);
    expect(row(b.driverId).economy).toMatchObject({ basis: 'PURCHASES' });
    expect(row(b.driverId).economy!.fuelL).toBeCloseTo(20.5 * 3.785411784, 2);
    expect(row(c.driverId).economy!.fuelL).toBeCloseTo(10, 2);
    expect(row(c.driverId).economy!.distanceM).toBe(Math.round(20 * STEP_M));
    expect(row(c2).economy!.fuelL).toBeCloseTo(14, 2);
    expect(row(c2).name).toBe('Second Driver');
    // One driver's row for the scorecard: the medians stay the fleet's.
    const one = await read(`from=2026-06-10&to=2026-06-10&groupBy=driver&driverId=${c2}`);
    expect(one.rows.map((r) => r.id)).toEqual([c2]);
    expect(one.median).toEqual(e.median);
  });

  it('reads one vehicle for its page, and says nothing on a day without fuel data', async () => {
    const one = await read(`from=2026-06-10&to=2026-06-10&assetId=${a.assetId}`);
    expect(one.rows.map((r) => r.name)).toEqual(['FE-A']);
    expect(one.median.economyCount).toBe(3);
    const none = await read('from=2026-06-11&to=2026-06-12');
    expect(none.rows).toEqual([]);
    expect(none.totals.economy).toBeNull();
    expect(none.median).toEqual({ lPer100Km: null, economyCount: 0, idleSharePct: null, idleShareCount: 0 });
  });

  it('refuses a bad range with a 400 naming the field, and keeps the organization to itself', async () => {
    const bad = async (q: string, message: RegExp) => {
      const res = await t.app.inject({ method: 'GET', url: url(q), headers: admin });
      expect(expectErrorBody(res.json(), 400).message).toMatch(message);
    };
    await bad('from=2026-06-10&to=2026-06-09', /To must be on or after From/);
    await bad('from=2026-01-01&to=2026-06-09', /at most 92 days/);
    await bad('from=2026-06-10&to=2026-06-10&groupBy=trailer', /groupBy must be vehicle or driver/);
    await bad('from=June&to=2026-06-10', /From must be a date/);
    const other = await registerOrganization(t.app, 'Other Fuel Carrier');
    const foreign = await t.app.inject({ method: 'GET', url: url('from=2026-06-10&to=2026-06-10'), headers: bearer(other.accessToken) });
    expect([403, 404]).toContain(foreign.statusCode);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${other.user.organization!.id}/fuel-economy?from=2026-06-10&to=2026-06-10`,
      headers: bearer(other.accessToken),
    });
    expect(fuelEconomySchema.parse(theirs.json()).rows).toEqual([]);
    // Fleet performance's permission.
    const without = await userWithPermissions(t, orgId, ['SAFETY_LIST']);
    expect((await t.app.inject({ method: 'GET', url: url('from=2026-06-10&to=2026-06-10'), headers: without })).statusCode).toBe(403);
    const withIt = await userWithPermissions(t, orgId, ['ANALYTICS_FLEET_PERFORMANCE']);
    expect((await t.app.inject({ method: 'GET', url: url('from=2026-06-10&to=2026-06-10'), headers: withIt })).statusCode).toBe(200);
  });

  it('reads a day again when its positions changed (a late fix), not from what it kept', async () => {
    const before = (await read(`from=2026-06-10&to=2026-06-10&assetId=${c.assetId}`)).rows[0]!;
    // Ten more minutes of C, sent late: 10 × 0.7 L more over 10 steps.
    await t.app.ingest.committer.write(
      Array.from({ length: 10 }, (_, k) =>
        testPositionRow(c, orgId, new Date(T0 + (41 + k) * MIN), {
          latitude: 40 + (41 + k) * 0.015,
          longitude: -97,
          speed: 100,
          driverId: c2,
          attributes: { fuelUsed: 810 + 0.7 * (21 + k) },
        }),
      ),
    );
    await t.app.fleetStats.idle();
    const after = (await read(`from=2026-06-10&to=2026-06-10&assetId=${c.assetId}`)).rows[0]!;
    expect(after.economy!.fuelL).toBeCloseTo(before.economy!.fuelL + 7, 2);
    expect(after.economy!.distanceM).toBe(Math.round(50 * STEP_M));
  });
});
