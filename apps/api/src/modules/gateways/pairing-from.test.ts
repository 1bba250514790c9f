import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Issue 28, "Positions that belong to a vehicle": a device that reported before it was paired
// (buffered fixes, or installed last week and paired today) gives those fixes to the vehicle when
// the pairing says since when; history, the map, IFTA miles, automatic duty status and the daily
// statistics see them.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const MIN = 60_000;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
const base = (orgId = a.orgId) => `/api/v1/organizations/${orgId}`;
const pair = (v: TestVehicle, payload?: unknown, headers = a.admin, orgId = a.orgId) =>
  t.app.inject({
    method: 'POST',
    url: `${base(orgId)}/gateways/${v.gatewayId}/pair/${v.assetId}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** An unpaired device and a vehicle whose driver has driven it since three days ago. */
async function unpairedTruck(uniqueId: string): Promise<TestVehicle> {
  const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId, paired: false });
  await sql(
    `insert into asset_driver_assignments (organization_id, asset_id, driver_id, started_at) values ('${a.orgId}', '${v.assetId}', '${v.driverId}', now() - interval '3 days')`,
  );
  return v;
}

/** One fix a minute east along 39° N at 90 km/h from Kansas across State Line Road into Missouri, then `still` minutes parked. */
function drive(start: number, minutes: number, still = 0) {
  const kmPerDegree = 111.32 * Math.cos((39 * Math.PI) / 180);
  const out = [];
  let lon = -94.75;
  for (let i = 0; i <= minutes + still; i++) {
    const moving = i < minutes;
    out.push({ fixTime: new Date(start + i * MIN).toISOString(), latitude: 39, longitude: lon, speed: moving ? 90 : 0, ignition: true });
    if (moving) lon += 1.5 / kmPerDegree;
  }
  return out;
}

async function send(v: TestVehicle, positions: unknown[]): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: bearer(v.token), payload: { positions } });
  expect(res.statusCode).toBe(200);
  expect(res.json().rejected).toEqual([]);
}

const settled = async () => {
  await t.app.autoDuty.idle();
  await t.app.iftaMiles.idle({ dirty: true });
  await t.app.fleetStats.idle();
};

const milesOf = async (v: TestVehicle) =>
  sql<{ jurisdiction: string; metres: number }>(
    `select jurisdiction, sum(metres)::float8 as metres from ifta_distance_days where vehicle_id = '${v.assetId}' group by jurisdiction order by jurisdiction`,
  );

describe('pairing with a start in the past', () => {
  it('gives the vehicle the fixes the device sent since then: history, map, IFTA miles, duty status and statistics see them', async () => {
    const v = await unpairedTruck('pair-from-1');
    const start = Date.now() - 3 * 60 * MIN;
    await send(v, drive(start, 40, 12));
    await settled();
    const before = await sql<{ n: number }>(`select count(*)::int as n from positions where gateway_id = '${v.gatewayId}' and asset_id is null`);
    expect(before[0]!.n).toBe(53);
    expect(await milesOf(v)).toEqual([]);

    const from = new Date(start - 60 * MIN).toISOString();
    const res = await pair(v, { from });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().asset.id).toBe(v.assetId);
    expect(res.json().pairingHistory[0]).toMatchObject({ from, to: null, asset: { id: v.assetId } });

    const owned = await sql<{ asset_id: string | null; driver_id: string | null }>(
      `select asset_id, driver_id from positions where gateway_id = '${v.gatewayId}'`,
    );
    expect(owned).toHaveLength(53);
    expect(owned.every((p) => p.asset_id === v.assetId && p.driver_id === v.driverId)).toBe(true);
    const [latest] = await sql<{ fix_time: string | Date; stationary_since: string | Date | null }>(
      `select fix_time, stationary_since from latest_positions where asset_id = '${v.assetId}'`,
    );
    expect(new Date(latest!.fix_time).getTime()).toBe(start + 52 * MIN);
    expect(new Date(latest!.stationary_since!).getTime()).toBe(start + 40 * MIN);

    const history = await t.app.inject({
      method: 'GET',
      url: `${base()}/history-routes/assets/${v.assetId}?from=${encodeURIComponent(new Date(start - MIN).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`,
      headers: a.admin,
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().summary.positions).toBe(53);

    await settled();
    const miles = await milesOf(v);
    expect(miles.map((m) => m.jurisdiction)).toEqual(['KS', 'MO']);
    expect(miles.reduce((s, m) => s + m.metres, 0)).toBeGreaterThan(55_000);

    const driving = await sql<{ driver_id: string; record_origin: number }>(
      `select driver_id, record_origin from hos_events where vehicle_id = '${v.assetId}' and event_type = 1 and event_code = 3`,
    );
    expect(driving).toEqual([{ driver_id: v.driverId, record_origin: 1 }]);

    const stats = await sql<{ distance_m: number; fixes: number }>(`select distance_m, fixes from vehicle_daily_stats where asset_id = '${v.assetId}'`);
    expect(stats.reduce((s, r) => s + r.fixes, 0)).toBe(53);
    expect(stats.reduce((s, r) => s + r.distance_m, 0)).toBeGreaterThan(55_000);
  });

  it('pairing again with the same vehicle and an earlier start takes the buffered fixes, and the IFTA days they touch are recomputed', async () => {
    const v = await unpairedTruck('pair-from-2');
    const first = await pair(v);
    expect(first.statusCode, first.body).toBe(200);
    // The device's buffer: an hour ago, before the pairing, so stored for no vehicle; then live fixes.
    const start = Date.now() - 90 * MIN;
    await send(v, drive(start, 30));
    const now = Date.now();
    await send(
      v,
      [0, 1].map((k) => ({ fixTime: new Date(now + k * 1000).toISOString(), latitude: 39, longitude: -94.2 + k * 0.001, speed: 0 })),
    );
    await settled();
    const counted = await milesOf(v);
    expect(counted.reduce((s, m) => s + m.metres, 0)).toBeLessThan(1000);
    const late = t.app.iftaMiles.stats.recomputedDays;

    const res = await pair(v, { from: new Date(start - MIN).toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json().pairingHistory;
    expect(history).toHaveLength(1);
    expect(history[0].from).toBe(new Date(start - MIN).toISOString());
    await settled();
    expect(t.app.iftaMiles.stats.recomputedDays).toBeGreaterThan(late);
    const miles = await milesOf(v);
    // 30 minutes at 90 km/h, then the hop to where the live fixes are.
    expect(miles.reduce((s, m) => s + m.metres, 0)).toBeGreaterThan(44_000);
    expect(miles.map((m) => m.jurisdiction)).toEqual(['KS', 'MO']);
  });

  it('refuses a start before the previous pairing ended, in the future or not a time, with 400 naming from, and changes nothing', async () => {
    const v = await unpairedTruck('pair-from-3');
    const other = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'pair-from-3b', paired: false, driver: false });
    expect((await pair(v)).statusCode).toBe(200);
    const unpaired = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${v.gatewayId}/unpair`, headers: a.admin });
    const ended = unpaired.json().pairingHistory[0].to as string;
    const toOther = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: `${base()}/gateways/${v.gatewayId}/pair/${other.assetId}`, headers: a.admin, payload: payload as object });

    const early = await toOther({ from: new Date(Date.parse(ended) - 60 * MIN).toISOString() });
    expect(early.statusCode).toBe(400);
    expectFieldErrors(early.json(), 400, { from: `Positions from must be on or after ${ended}, when the device's previous pairing ended` });
    const future = await toOther({ from: new Date(Date.now() + 60 * MIN).toISOString() });
    expectFieldErrors(future.json(), 400, { from: 'Positions from cannot be in the future' });
    const garbage = await toOther({ from: 'last tuesday' });
    expectFieldErrors(garbage.json(), 400, { from: 'Positions from must be an ISO-8601 date-time' });

    const detail = (await t.app.inject({ method: 'GET', url: `${base()}/gateways/${v.gatewayId}`, headers: a.admin })).json();
    expect(detail.asset).toBeNull();
    expect(detail.pairingHistory).toHaveLength(1);

    // At the moment it ended is fine.
    const ok = await toOther({ from: ended });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().pairingHistory[0]).toMatchObject({ from: ended, to: null, asset: { id: other.assetId } });
  });

  it("refuses a start before the vehicle's previous device was unpaired, and another organization's device is not found", async () => {
    const v = await unpairedTruck('pair-from-4');
    const second = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'pair-from-4b', paired: false, driver: false });
    expect((await pair(v)).statusCode).toBe(200);
    const unpaired = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${v.gatewayId}/unpair`, headers: a.admin });
    const ended = unpaired.json().pairingHistory[0].to as string;
    const res = await t.app.inject({
      method: 'POST',
      url: `${base()}/gateways/${second.gatewayId}/pair/${v.assetId}`,
      headers: a.admin,
      payload: { from: new Date(Date.parse(ended) - MIN).toISOString() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().technicalMessage).toMatch(/^from: .*previous device was unpaired/);
    expect((await pair(v, { from: new Date(Date.now() - MIN).toISOString() }, a.other, a.otherOrgId)).statusCode).toBe(404);
  });
});
