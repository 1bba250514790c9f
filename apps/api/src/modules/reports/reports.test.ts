import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  detentionTotalsSchema,
  reportSubscriptionPageSchema,
  reportSubscriptionSchema,
  stopPageSchema,
  summaryPageSchema,
  tripPageSchema,
  visitPageSchema,
  type StopRow,
  type TripRow,
} from '@fleet/api-contract';
import { rowsOf } from '../../db/sql/rows.ts';
import { createMailer } from '../../mail/mailer.ts';
import { runReportSchedule } from '../../jobs/report-schedule.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, readOutbox, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';
import { pdfPageCount, pdfText } from '../../test/pdf.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import type { PositionRow } from '../positions/index.ts';
import { TripsStops } from './trips-stops.service.ts';
import { MIN, MORNING, MORNING_NO_IGNITION, track, type TrackFix } from './trip-track.test-helper.ts';

// Trips, stops, visits, summaries and their exports through HTTP on the real database (issue 32,
// decision 0163): the trips and stops come from fixes posted to ingest and worked by the follower;
// places and visits (the places engineer's follower writes them) are inserted as rows.

let t: TestContext;
let admin: Awaited<ReturnType<typeof registerOrganization>>;
let orgId: string;
let h: Record<string, string>;
let A: TestVehicle;
let B: TestVehicle;
let C: TestVehicle;
let D: TestVehicle;
const ZONE = 'America/Chicago';
// Yesterday 14:00 UTC (08:00 or 09:00 in Chicago): the morning stays within one day in both zones.
const T0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 14 * 3_600_000;
const at = (m: number) => new Date(T0 + m * MIN).toISOString();

const org = (rest: string, id = orgId) => `/api/v1/organizations/${id}${rest}`;
const get = (url: string, headers = h) => t.app.inject({ method: 'GET', url, headers });

async function post(v: TestVehicle, fixes: readonly TrackFix[]): Promise<void> {
  const positions = fixes.map((f) => ({ fixTime: new Date(f.t).toISOString(), latitude: f.lat, longitude: f.lon, speed: f.speed, ignition: f.ignition }));
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: { authorization: `Bearer ${v.token}` }, payload: { positions } });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.tripsStops.idle();
}

async function trips(q: string): Promise<TripRow[]> {
  const res = await get(org(`/reports/trips?size=100&${q}`));
  expect(res.statusCode, res.body).toBe(200);
  return tripPageSchema.parse(res.json()).content;
}
async function stops(q: string): Promise<StopRow[]> {
  const res = await get(org(`/reports/stops?size=100&${q}`));
  expect(res.statusCode, res.body).toBe(200);
  return stopPageSchema.parse(res.json()).content;
}
const mins = (iso: string | null) => (iso === null ? null : (Date.parse(iso) - T0) / MIN);
const shape = (ts: TripRow[], ss: StopRow[]) => ({
  trips: ts.map((x) => [x.startedAt, x.endedAt, x.distanceKm, x.maxSpeedKmh, x.start.address, x.end.address]),
  stops: ss.map((x) => [x.startedAt, x.endedAt, x.idleSeconds, x.engineOn, x.where.address]),
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerOrganization(t.app, 'Reports Carrier');
  orgId = admin.user.organization!.id;
  h = bearer(admin.accessToken);
  await t.app.db.execute(sql`update users set time_zone = ${ZONE} where id = ${admin.user.id}`);
  A = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-a-${Date.now()}`, unitNumber: '=SUM(A1)' });
  B = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-b-${Date.now()}`, unitNumber: 'B-2' });
  C = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-c-${Date.now()}`, unitNumber: 'C-3' });
  D = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-d-${Date.now()}`, unitNumber: 'D-4' });
  const morning = track(T0, MORNING);
  await post(A, morning);
  // B drives the same morning, its fixes arriving in chunks out of order (late uploads).
  const chunk = Math.ceil(morning.length / 4);
  for (const k of [2, 0, 3, 1]) await post(B, morning.slice(k * chunk, (k + 1) * chunk));
  await post(C, track(T0, MORNING_NO_IGNITION));
  // D stood parked an hour with GPS jitter and speed spikes.
  await post(
    D,
    track(T0, [[60, 0, null]]).map((f, i) => ({
      ...f,
      lat: f.lat + Math.sin(i * 1.7) * 0.00012,
      lon: f.lon + Math.cos(i * 2.3) * 0.00015,
      speed: i % 7 === 3 ? 9 : 0.8,
    })),
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('trips and stops behind ingest', () => {
  it('cut a morning with ignition into two trips and three stops, with the driver, addresses and idling', async () => {
    const ts = await trips(`assetId=${A.assetId}&sort=startedAt,asc`);
    expect(ts.map((x) => [mins(x.startedAt), mins(x.endedAt), Math.round(x.distanceKm * 10) / 10, x.maxSpeedKmh, x.durationSeconds])).toEqual([
      [35, 66, 30, 60, 31 * 60],
      [106, 121, 15, 60, 15 * 60],
    ]);
    expect(ts[0]!.avgSpeedKmh).toBeCloseTo((30 / 31) * 60, 0);
    expect(ts[0]!.driver?.id).toBe(A.driverId);
    expect(ts[0]!.asset).toEqual({ id: A.assetId, unitNumber: '=SUM(A1)' });
    // The nearest bundled locality, as the ELD describes a position.
    expect(ts[0]!.start.address).toMatch(/Chicago, IL|, IL$/);
    const ss = await stops(`assetId=${A.assetId}&sort=startedAt,asc`);
    expect(ss.map((x) => [mins(x.startedAt), mins(x.endedAt), x.idleSeconds, x.engineOn])).toEqual([
      [0, 35, 300, false],
      [66, 106, 600, false],
      // Still stopped, the engine off.
      [121, null, 0, false],
    ]);
  });

  it('give the same trips and stops when the fixes arrive late and out of order', async () => {
    const inOrder = shape(await trips(`assetId=${A.assetId}&sort=startedAt,asc`), await stops(`assetId=${A.assetId}&sort=startedAt,asc`));
    const late = shape(await trips(`assetId=${B.assetId}&sort=startedAt,asc`), await stops(`assetId=${B.assetId}&sort=startedAt,asc`));
    expect(late).toEqual(inOrder);
    expect(late.trips).toHaveLength(2);
  });

  it('cut by speed alone when the device reports no ignition, and make no trip of jitter while parked', async () => {
    const ts = await trips(`assetId=${C.assetId}&sort=startedAt,asc`);
    expect(ts.map((x) => [mins(x.startedAt), mins(x.endedAt)])).toEqual([
      [35, 66],
      [106, 121],
    ]);
    const ss = await stops(`assetId=${C.assetId}&sort=startedAt,asc`);
    expect(ss.map((x) => [mins(x.startedAt), mins(x.endedAt), x.idleSeconds, x.engineOn])).toEqual([
      [0, 35, 0, null],
      [66, 106, 0, null],
      [121, null, 0, null],
    ]);
    expect(await trips(`assetId=${D.assetId}`)).toEqual([]);
    expect((await stops(`assetId=${D.assetId}`)).map((x) => [mins(x.startedAt), x.endedAt])).toEqual([[0, null]]);
  });

  it('come from positions a device stored before it was paired, once the pairing says since when', async () => {
    const F = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-f-${Date.now()}`, unitNumber: 'F-6', paired: false });
    await post(F, track(T0, MORNING));
    expect(await trips(`assetId=${F.assetId}`)).toEqual([]);
    const res = await t.app.inject({ method: 'POST', url: org(`/gateways/${F.gatewayId}/pair/${F.assetId}`), headers: h, payload: { from: at(-60) } });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.tripsStops.idle();
    const late = shape(await trips(`assetId=${F.assetId}&sort=startedAt,asc`), await stops(`assetId=${F.assetId}&sort=startedAt,asc`));
    expect(late).toEqual(shape(await trips(`assetId=${A.assetId}&sort=startedAt,asc`), await stops(`assetId=${A.assetId}&sort=startedAt,asc`)));
    // Its trips count in the paging below: take them out again.
    await t.app.db.execute(sql`delete from trips where asset_id = ${F.assetId}`);
    await t.app.db.execute(sql`delete from vehicle_stops where asset_id = ${F.assetId}`);
  });

  it('join two trips again when a late fix moves within the stop between them (computed from the stop before)', async () => {
    // Driving, 8 min standing with the engine on, driving: in order, one trip, as the 30 s of movement
    // at minute 53 leaves no 5 minutes standing. Without that fix the standing was a stop between
    // two trips; when it comes late, the trip before that stop has to be computed again too.
    const fixes = track(T0, [
      [30, 0, false],
      [20, 60, true],
      [3, 0, true],
      [0.5, 60, true],
      [4.5, 0, true],
      [20, 60, true],
      [10, 0, false],
    ]);
    const lateAt = fixes.findIndex((f) => f.t === T0 + 53 * MIN);
    const G = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-g-${Date.now()}`, unitNumber: 'G-7' });
    const H = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-h-${Date.now()}`, unitNumber: 'H-8' });
    await post(G, fixes);
    await post(
      H,
      fixes.filter((_, i) => i !== lateAt),
    );
    expect((await trips(`assetId=${H.assetId}&sort=startedAt,asc`)).map((x) => [mins(x.startedAt), mins(x.endedAt)])).toEqual([
      [30, 50],
      [58, 78],
    ]);
    const split = await trips(`assetId=${H.assetId}&sort=startedAt,asc`);
    await post(H, [fixes[lateAt]!]);
    // The late fix joined two finished trips: the first is corrected (it ends later), the second
    // withdrawn, each a correction in the activity log naming before and after (decision 0238).
    const corrected = async (id: string) =>
      (await get(`/api/v1/organizations/${orgId}/activity-logs?action=CORRECTION&entityType=TRIP&entityId=${id}`)).json() as {
        content: Array<{ summary: string }>;
      };
    expect((await corrected(split[0]!.id)).content.map((e) => e.summary)).toEqual(['System corrected a trip from its positions']);
    expect((await corrected(split[1]!.id)).content.map((e) => e.summary)).toEqual(['System withdrew a trip: its positions no longer show it']);
    expect((await trips(`assetId=${H.assetId}&sort=startedAt,asc`)).map((x) => x.id)).toEqual([split[0]!.id]);
    const inOrder = shape(await trips(`assetId=${G.assetId}&sort=startedAt,asc`), await stops(`assetId=${G.assetId}&sort=startedAt,asc`));
    expect(inOrder.trips.map((x) => [mins(x[0] as string), mins(x[1] as string)])).toEqual([[30, 78]]);
    expect(shape(await trips(`assetId=${H.assetId}&sort=startedAt,asc`), await stops(`assetId=${H.assetId}&sort=startedAt,asc`))).toEqual(inOrder);
    // Their trips count in the paging below: take them out again.
    for (const v of [G, H]) {
      await t.app.db.execute(sql`delete from trips where asset_id = ${v.assetId}`);
      await t.app.db.execute(sql`delete from vehicle_stops where asset_id = ${v.assetId}`);
    }
  });

  it('are computed again the same from stored positions (the start-up catch-up)', async () => {
    // Recomputed over what is stored: the same rows keep their ids, and nothing is corrected (decision 0238).
    const ids = async () =>
      [...(await trips(`assetId=${A.assetId}&sort=startedAt,asc`)), ...(await stops(`assetId=${A.assetId}&sort=startedAt,asc`))].map((x) => x.id);
    const kept = await ids();
    await t.app.tripsStops.recomputeVehicle(orgId, A.assetId, T0);
    expect(await ids()).toEqual(kept);
    expect(
      (await get(`/api/v1/organizations/${orgId}/activity-logs?action=CORRECTION`))
        .json()
        .content.filter((e: { entityId: string }) => kept.includes(e.entityId)),
    ).toEqual([]);
    const before = shape(await trips(`assetId=${A.assetId}&sort=startedAt,asc`), await stops(`assetId=${A.assetId}&sort=startedAt,asc`));
    await t.app.db.execute(sql`delete from trips where asset_id = ${A.assetId}`);
    await t.app.db.execute(sql`delete from vehicle_stops where asset_id = ${A.assetId}`);
    await t.app.tripsStops.recomputeVehicle(orgId, A.assetId, T0 + 140 * MIN);
    expect(shape(await trips(`assetId=${A.assetId}&sort=startedAt,asc`), await stops(`assetId=${A.assetId}&sort=startedAt,asc`))).toEqual(before);
  });

  it('keep their rows when computed again from a stop whose first fix was stored finer than a millisecond', async () => {
    // Fixes written in bulk from fractional seconds (as the demo's history once was) lie 0.4 ms
    // before the millisecond their stops start at: computed again from such a stop, it must still
    // begin at that fix, not be moved to the next one and rewritten (decision 0298).
    const E = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-m-${Date.now()}`, unitNumber: 'M-13' });
    const fixes = track(T0, MORNING);
    const list = (xs: readonly unknown[]) => `{${xs.join(',')}}`;
    await t.app.db
      .execute(sql`insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, speed, ignition, protocol)
      select ${orgId}::uuid, ${E.gatewayId}::uuid, ${E.assetId}::uuid, ${E.driverId}::uuid, to_timestamp(u.t - 0.0004), u.lat, u.lon, u.speed, u.ign, 'osmand'
      from unnest(${list(fixes.map((f) => f.t / 1000))}::float8[], ${list(fixes.map((f) => f.lat))}::float8[], ${list(fixes.map((f) => f.lon))}::float8[],
        ${list(fixes.map((f) => f.speed))}::float8[], ${list(fixes.map((f) => f.ignition))}::boolean[]) as u(t, lat, lon, speed, ign)`);
    await t.app.tripsStops.recomputeVehicle(orgId, E.assetId, T0);
    const first = await stops(`assetId=${E.assetId}&sort=startedAt,asc`);
    expect(first.map((s) => mins(s.startedAt))).toEqual([0, 66, 121]);
    // From within the last stop: computed again from the stop before it (66 min), whose fix is 0.4 ms early.
    await t.app.tripsStops.recomputeVehicle(orgId, E.assetId, T0 + 130 * MIN);
    const again = await stops(`assetId=${E.assetId}&sort=startedAt,asc`);
    expect(again.map((s) => [s.id, s.startedAt, s.endedAt])).toEqual(first.map((s) => [s.id, s.startedAt, s.endedAt]));
    const corrections = (await get(org('/activity-logs?action=CORRECTION&size=100'))).json().content as Array<{ entityId: string }>;
    expect(corrections.filter((e) => first.some((s) => s.id === e.entityId))).toEqual([]);
    await t.app.db.execute(sql`delete from trips where asset_id = ${E.assetId}`);
    await t.app.db.execute(sql`delete from vehicle_stops where asset_id = ${E.assetId}`);
  });
});

describe('the daily summary', () => {
  it("sums the day's trips and stops per vehicle in the reader's zone, and agrees with the daily statistics", async () => {
    const res = await get(org(`/reports/summary?assetId=${A.assetId}`));
    expect(res.statusCode, res.body).toBe(200);
    const page = summaryPageSchema.parse(res.json());
    expect(page.timeZone).toBe(ZONE);
    expect(page.content).toHaveLength(1);
    const [row] = page.content;
    const ts = await trips(`assetId=${A.assetId}`);
    const ss = await stops(`assetId=${A.assetId}`);
    expect(row!.day).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(T0)));
    expect(row!.distanceKm).toBeCloseTo(
      ts.reduce((s, x) => s + x.distanceKm, 0),
      2,
    );
    expect(row!.drivingSeconds).toBe(ts.reduce((s, x) => s + x.durationSeconds, 0));
    expect(row!.idleSeconds).toBe(ss.reduce((s, x) => s + x.idleSeconds, 0));
    expect(row!.stops).toBe(3);
    expect([mins(row!.firstMovementAt), mins(row!.lastMovementAt)]).toEqual([35, 121]);
    expect(row!.asset?.id).toBe(A.assetId);
    await t.app.fleetStats.idle();
    const [stat] = rowsOf<{ distance_m: number }>(await t.app.db.execute(sql`select distance_m from vehicle_daily_stats where asset_id = ${A.assetId}`));
    expect(row!.distanceKm).toBeCloseTo(stat!.distance_m / 1000, 1);
  });

  it('groups per driver with by=driver, and with a driver filter', async () => {
    const byDriver = summaryPageSchema.parse((await get(org(`/reports/summary?by=driver&assetId=${C.assetId}`))).json()).content;
    expect(byDriver.map((r) => [r.driver?.id, r.asset, r.stops])).toEqual([[C.driverId, null, 3]]);
    const filtered = summaryPageSchema.parse((await get(org(`/reports/summary?driverId=${C.driverId}`))).json()).content;
    expect(filtered.map((r) => r.driver?.id)).toEqual([C.driverId]);
  });
});

describe('the trip under way (issue 46)', () => {
  it("counts in today's summary and the trips up to the latest fix, marked in progress, and ends as the trip it becomes", async () => {
    // Its own organization: the other tests count every trip of theirs.
    const o = await registerOrganization(t.app, 'Trip Under Way Carrier');
    const oid = o.user.organization!.id;
    const oh = bearer(o.accessToken);
    const E = await createTestVehicle(t.app.db, oid, { uniqueId: `rep-e-${Date.now()}`, unitNumber: 'E-5' });
    // Parked 10 minutes, then 70 minutes at 90 km/h up to a minute ago: on the road now.
    const start = Date.now() - 81 * MIN;
    await post(
      E,
      track(start, [
        [10, 0, false],
        [70, 90, true],
      ]),
    );
    const list = async (q: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/reports/${q}`, headers: oh });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const ts = tripPageSchema.parse(await list(`trips?assetId=${E.assetId}`)).content;
    expect(ts).toHaveLength(1);
    const [x] = ts;
    expect(x).toMatchObject({ id: `in-progress:${E.assetId}`, inProgress: true, asset: { id: E.assetId, unitNumber: 'E-5' } });
    expect((Date.parse(x!.startedAt) - start) / MIN).toBe(10);
    // Up to the latest fix: 70 minutes at 90 km/h, about 105 km.
    expect((Date.parse(x!.endedAt) - start) / MIN).toBe(79.5);
    expect(x!.distanceKm).toBeGreaterThan(100);
    expect(x!.distanceKm).toBeLessThan(110);
    expect(x!.durationSeconds).toBe(69.5 * 60);
    expect(x!.maxSpeedKmh).toBe(90);
    // The daily summary: the trip's distance and driving time so far, on the day it began, marked.
    const sum = summaryPageSchema.parse(await list(`summary?assetId=${E.assetId}`)).content;
    const today = sum.find((r) => r.inProgress)!;
    expect(today).toBeDefined();
    expect(today.distanceKm).toBeCloseTo(x!.distanceKm, 3);
    expect(today.drivingSeconds).toBe(x!.durationSeconds);
    expect(today.lastMovementAt).toBe(x!.endedAt);
    // A range that ends before the trip began leaves it out; another organization never sees it.
    expect(tripPageSchema.parse(await list(`trips?assetId=${E.assetId}&to=${encodeURIComponent(new Date(start).toISOString())}`)).content).toEqual([]);
    expect(tripPageSchema.parse((await get(org('/reports/trips?size=100'))).json()).content.some((r) => r.asset.id === E.assetId)).toBe(false);
    // The CSV marks it.
    const csv = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${oid}/reports/trips/export?format=csv&assetId=${E.assetId}`, headers: oh }))
      .body;
    expect(csv).toContain('In progress (');
    // It stops: the trip it becomes replaces it, no longer marked.
    await post(E, track(start + 80 * MIN, [[10, 0, false]], -87.6 + (70 * 1.5) / (111.32 * Math.cos((41.8 * Math.PI) / 180))));
    const done = tripPageSchema.parse(await list(`trips?assetId=${E.assetId}`)).content;
    expect(done).toHaveLength(1);
    expect(done[0]!.inProgress).toBe(false);
    expect(done[0]!.id).not.toContain('in-progress');
    expect(summaryPageSchema.parse(await list(`summary?assetId=${E.assetId}`)).content.some((r) => r.inProgress)).toBe(false);
  });
});

describe('visits and detention', () => {
  let customer: string;
  let terminal: string;
  beforeAll(async () => {
    const place = async (name: string, category: string) =>
      rowsOf<{ id: string }>(
        await t.app.db.execute(sql`insert into places (organization_id, name, category, geometry, radius_m, min_lat, min_lon, max_lat, max_lon)
          values (${orgId}, ${name}, ${category}, '{"type":"Point","coordinates":[-87.2,41.8]}'::jsonb, 300, 41.79, -87.21, 41.81, -87.19) returning id`),
      )[0]!.id;
    customer = await place('Acme Foods DC', 'CUSTOMER');
    terminal = await place('Home Terminal', 'TERMINAL');
    const visit = (placeId: string, v: TestVehicle, from: string, to: string | null) =>
      t.app.db.execute(
        sql`insert into place_visits (organization_id, place_id, asset_id, driver_id, arrived_at, departed_at) values (${orgId}, ${placeId}, ${v.assetId}, ${v.driverId}, ${from}::timestamptz, ${to}::timestamptz)`,
      );
    // A at the customer between its two trips (42 minutes: no detention), B 3 hours (1 hour of detention).
    await visit(customer, A, at(64), at(107));
    await visit(customer, B, at(-200), at(-20));
    await visit(terminal, C, at(-300), at(-10));
    // C still at the customer since 2h30 ago: detention counts up to now.
    await visit(customer, C, new Date(Date.now() - 150 * MIN).toISOString(), null);
  });

  it('lists each visit with its dwell, and detention beyond the free time at customers only', async () => {
    const res = await get(org('/reports/visits?sort=arrivedAt,asc'));
    expect(res.statusCode, res.body).toBe(200);
    const rows = visitPageSchema.parse(res.json()).content;
    expect(rows.map((r) => [r.placeName, r.unitNumber, r.dwellSeconds, r.detentionSeconds])).toEqual([
      ['Home Terminal', 'C-3', 290 * 60, 0],
      ['Acme Foods DC', 'B-2', 180 * 60, 60 * 60],
      ['Acme Foods DC', '=SUM(A1)', 43 * 60, 0],
      ['Acme Foods DC', 'C-3', expect.closeTo(150 * 60, -1), expect.closeTo(30 * 60, -1)],
    ]);
    expect(rows[3]!.departedAt).toBeNull();
    expect(rows[1]!.driverId).toBe(B.driverId);
    const atPlace = visitPageSchema.parse((await get(org(`/reports/visits?placeId=${terminal}`))).json()).content;
    expect(atPlace.map((r) => r.placeName)).toEqual(['Home Terminal']);
  });

  it("totals detention per customer with the organization's free time", async () => {
    await t.app.db.execute(sql`update organizations set settings = jsonb_set(settings, '{detention}', '{"freeMinutes": 30}'::jsonb) where id = ${orgId}`);
    try {
      const res = await get(org('/reports/detention'));
      expect(res.statusCode, res.body).toBe(200);
      const d = detentionTotalsSchema.parse(res.json());
      expect(d.freeMinutes).toBe(30);
      expect(d.content).toHaveLength(1);
      const [acme] = d.content;
      expect([acme!.placeName, acme!.visits, acme!.visitsWithDetention]).toEqual(['Acme Foods DC', 3, 3]);
      expect(acme!.detentionSeconds).toBeCloseTo(150 * 60 + 13 * 60 + 120 * 60, -1);
    } finally {
      await t.app.db.execute(sql`update organizations set settings = settings - 'detention' where id = ${orgId}`);
    }
    expect(detentionTotalsSchema.parse((await get(org('/reports/detention'))).json()).freeMinutes).toBe(120);
  });

  it('names the place a trip started or ended at, and filters trips and stops by place', async () => {
    const ts = await trips(`assetId=${A.assetId}&sort=startedAt,asc`);
    expect(ts.map((x) => [x.start.place?.name ?? null, x.end.place?.name ?? null])).toEqual([
      [null, 'Acme Foods DC'],
      ['Acme Foods DC', null],
    ]);
    expect((await trips(`placeId=${customer}`)).map((x) => x.asset.id)).toEqual([A.assetId, A.assetId]);
    expect((await stops(`placeId=${customer}`)).map((x) => [x.asset.id, mins(x.startedAt)])).toEqual([[A.assetId, 66]]);
  });
});

describe('report filters, paging and errors', () => {
  it('pages, bounds by time and narrows by group', async () => {
    const res = await get(org('/reports/trips?size=3&page=1&sort=startedAt,asc'));
    const page = tripPageSchema.parse(res.json());
    // A, B and C drove two trips each.
    expect([page.totalElements, page.totalPages, page.content.length, page.page]).toEqual([6, 2, 3, 1]);
    expect((await trips(`from=${encodeURIComponent(at(100))}&to=${encodeURIComponent(at(110))}`)).map((x) => mins(x.startedAt))).toEqual([106, 106, 106]);
    const [g] = rowsOf<{ id: string }>(await t.app.db.execute(sql`insert into groups (organization_id, name) values (${orgId}, 'North') returning id`));
    await t.app.db.execute(sql`insert into group_assets (organization_id, group_id, asset_id) values (${orgId}, ${g!.id}, ${C.assetId})`);
    expect(new Set((await trips(`groupId=${g!.id}`)).map((x) => x.asset.id))).toEqual(new Set([C.assetId]));
    expect(new Set((await stops(`groupId=${g!.id}`)).map((x) => x.asset.id))).toEqual(new Set([C.assetId]));
  });

  it('answer 400 naming the field for bad input, and 404 for another organization and its ids', async () => {
    expectFieldErrors((await get(org(`/reports/trips?from=${encodeURIComponent(at(10))}&to=${encodeURIComponent(at(5))}`))).json(), 400, {
      to: 'to must be after from',
    });
    expectFieldErrors((await get(org('/reports/stops?assetId=nope'))).json(), 400, { assetId: 'assetId must be a vehicle id' });
    expectFieldErrors((await get(org('/reports/summary?by=week'))).json(), 400, { by: 'by must be vehicle or driver' });
    expectFieldErrors((await get(org('/reports/visits?sort=secret,asc'))).json(), 400, { sort: 'sort must be one of' });
    expectFieldErrors((await get(org('/reports/trips/export?format=xls'))).json(), 400, { format: 'format must be csv or pdf' });
    const other = await registerOrganization(t.app, 'Other Carrier');
    const otherId = other.user.organization!.id;
    const theirs = await createTestVehicle(t.app.db, otherId, { uniqueId: `rep-x-${Date.now()}` });
    expect((await get(org('/reports/trips'), bearer(other.accessToken))).statusCode).toBe(404);
    expectErrorBody((await get(org(`/reports/trips?assetId=${theirs.assetId}`))).json(), 404);
    expect((await get(org(`/reports/summary?driverId=${theirs.driverId}`))).statusCode).toBe(404);
    expect((await get(org(`/reports/detention?assetId=${theirs.assetId}`))).statusCode).toBe(404);
    // Nothing of this organization leaks into theirs.
    expect(tripPageSchema.parse((await get(org('/reports/trips', otherId), bearer(other.accessToken))).json()).totalElements).toBe(0);
    expect((await get(org('/reports/trips'), {})).statusCode).toBe(401);
  });

  it('needs REPORT_LIST', async () => {
    const m = await memberWithRole(t.app, t.dataDir, admin, ['ASSET_LIST']);
    expect((await get(org('/reports/summary'), bearer(m.session.accessToken))).statusCode).toBe(403);
    expect((await get(org('/report-subscriptions'), bearer(m.session.accessToken))).statusCode).toBe(403);
  });
});

describe('report exports', () => {
  it("write CSV in the organization's units with the zone named, formula-safe", async () => {
    const res = await get(org(`/reports/trips/export?format=csv&assetId=${A.assetId}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="trips-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(`Vehicle,Driver,Started (${ZONE}),From,Ended (${ZONE}),To,Distance (mi),Duration (h:mm),Max speed (mph),Average speed (mph)`);
    expect(lines).toHaveLength(3);
    // The unit number a spreadsheet would run as a formula is quoted; 30 km are 18.6 miles.
    expect(lines.slice(1).every((l) => l.startsWith(`"'=SUM(A1)",`))).toBe(true);
    expect(res.body).toContain(',18.6,0:31,37.3,');
    for (const kind of ['stops', 'visits', 'summary']) {
      const r = await get(org(`/reports/${kind}/export?format=csv`));
      expect(r.statusCode, r.body).toBe(200);
      expect(r.body).toContain("'=SUM(A1)");
    }
  });

  it('draw PDF pages naming the zone, the units and the filters', async () => {
    const res = await get(org(`/reports/summary/export?format=pdf&assetId=${A.assetId}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPageCount(res.rawPayload)).toBe(1);
    const text = pdfText(res.rawPayload);
    for (const words of [ZONE, 'Miles, mph', 'Vehicle =SUM(A1)', 'Daily summary']) expect(text).toContain(words);
    // Many rows run onto further pages with the header again.
    await t.app.db.execute(sql`insert into vehicle_stops (organization_id, asset_id, started_at, ended_at, lat, lon, address)
      select ${orgId}, ${D.assetId}, ${at(-3000)}::timestamptz + i * interval '1 minute', ${at(-3000)}::timestamptz + i * interval '1 minute' + interval '30 seconds', 41.8, -87.6, 'Chicago, IL'
      from generate_series(1, 120) i`);
    const long = await get(org(`/reports/stops/export?format=pdf&assetId=${D.assetId}`));
    expect(pdfPageCount(long.rawPayload)).toBeGreaterThan(2);
    await t.app.db.execute(sql`delete from vehicle_stops where asset_id = ${D.assetId} and ended_at is not null`);
  });
});

describe('report subscriptions', () => {
  const body = { report: 'TRIPS', filters: { assetId: '' }, frequency: 'DAILY', timeOfDay: '07:30' };

  it('are created in the profile zone with their next run, listed, replaced and deleted, each change logged', async () => {
    const now = Date.now();
    const res = await t.app.inject({ method: 'POST', url: org('/report-subscriptions'), headers: h, payload: { ...body, filters: { assetId: A.assetId } } });
    expect(res.statusCode, res.body).toBe(201);
    const s = reportSubscriptionSchema.parse(res.json());
    expect([s.timeZone, s.weekday, s.formats, s.recipient, s.userId]).toEqual([ZONE, null, ['pdf', 'csv'], admin.user.email, admin.user.id]);
    const next = Date.parse(s.nextRunAt);
    expect(next).toBeGreaterThan(now);
    expect(next - now).toBeLessThanOrEqual(86_400_000);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' }).format(new Date(next))).toBe('07:30');

    const put = await t.app.inject({
      method: 'PUT',
      url: org(`/report-subscriptions/${s.id}`),
      headers: h,
      payload: { report: 'SUMMARY', frequency: 'WEEKLY', weekday: 1, timeOfDay: '06:00', timeZone: 'Europe/Paris', formats: ['csv'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const w = reportSubscriptionSchema.parse(put.json());
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'long', hour: '2-digit', minute: '2-digit' }).format(
      new Date(w.nextRunAt),
    );
    expect([w.report, w.weekday, w.timeZone, w.formats, local]).toEqual(['SUMMARY', 1, 'Europe/Paris', ['csv'], 'Monday 06:00']);

    const list = reportSubscriptionPageSchema.parse((await get(org('/report-subscriptions'))).json());
    expect(list.content.map((x) => x.id)).toContain(s.id);
    expect((await t.app.inject({ method: 'DELETE', url: org(`/report-subscriptions/${s.id}`), headers: h })).statusCode).toBe(204);
    expect((await get(org(`/report-subscriptions/${s.id}`))).statusCode).toBe(404);
    const logged = rowsOf<{ action: string }>(await t.app.db.execute(sql`select action from activity_log where entity_id = ${s.id} order by created_at`));
    expect(logged.map((l) => l.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it('reject bad input naming the field', async () => {
    const post = (payload: unknown) => t.app.inject({ method: 'POST', url: org('/report-subscriptions'), headers: h, payload: payload as object });
    expectFieldErrors((await post({ ...body, filters: {}, timeOfDay: '7:30' })).json(), 400, { timeOfDay: 'Time of day must look like 07:30' });
    expectFieldErrors((await post({ ...body, filters: {}, frequency: 'WEEKLY' })).json(), 400, { weekday: 'Day of the week is required for a weekly report' });
    expectFieldErrors((await post({ ...body, filters: {}, timeZone: 'Mars/Olympus' })).json(), 400, {
      timeZone: 'Time zone must be a zone name like America/Chicago',
    });
    expectFieldErrors((await post({ ...body, filters: {}, report: 'FUEL' })).json(), 400, { report: 'Report must be one of' });
    expectFieldErrors((await post({ ...body, filters: {}, formats: [] })).json(), 400, { formats: 'Choose at least one attachment' });
  });

  it("are each user's own; a user holding USER_LIST lists everyone's", async () => {
    const m = await memberWithRole(t.app, t.dataDir, admin, ['REPORT_LIST']);
    const mh = bearer(m.session.accessToken);
    const mine = await t.app.inject({ method: 'POST', url: org('/report-subscriptions'), headers: mh, payload: { ...body, filters: {} } });
    expect(mine.statusCode, mine.body).toBe(201);
    const id = mine.json().id as string;
    // The member's profile has no zone: the organization's.
    expect(mine.json().timeZone).toBe('America/Chicago');
    expect((await get(org(`/report-subscriptions/${id}`))).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: org(`/report-subscriptions/${id}`), headers: h, payload: { ...body, filters: {} } })).statusCode).toBe(
      404,
    );
    expect(reportSubscriptionPageSchema.parse((await get(org('/report-subscriptions'))).json()).content.map((x) => x.id)).not.toContain(id);
    expect(reportSubscriptionPageSchema.parse((await get(org('/report-subscriptions?all=true'))).json()).content.map((x) => x.id)).toContain(id);
    expect((await get(org('/report-subscriptions?all=true'), mh)).statusCode).toBe(403);
    const adminsOwn = await t.app.inject({ method: 'POST', url: org('/report-subscriptions'), headers: h, payload: { ...body, filters: {} } });
    expect((await get(org(`/report-subscriptions/${adminsOwn.json().id}`), mh)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: org(`/report-subscriptions/${id}`), headers: h })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: org(`/report-subscriptions/${adminsOwn.json().id}`), headers: h })).statusCode).toBe(204);
  });
});

describe('the scheduled report e-mails', () => {
  it('send one e-mail with the PDF and CSV of the day just ended when two instances run the schedule', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: org('/report-subscriptions'),
      headers: h,
      payload: { report: 'TRIPS', filters: { assetId: A.assetId }, frequency: 'DAILY', timeOfDay: '05:00' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = reportSubscriptionSchema.parse(res.json());
    const due = Date.parse(s.nextRunAt);
    // The run covering the morning's day: pretend the schedule is due the morning after it.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(T0));
    const [{ t: runAt }] = rowsOf<{ t: string }>(await t.app.db.execute(sql`select ((${day}::date + 1) + time '05:00') at time zone ${ZONE} as t`)) as [
      { t: string },
    ];
    await t.app.db.execute(sql`update report_subscriptions set next_run_at = ${new Date(runAt).toISOString()}::timestamptz where id = ${s.id}`);
    const reportMails = () =>
      readOutbox(t.dataDir).filter((m) => m.subject.startsWith('Trips report')) as Array<{
        to: string;
        subject: string;
        text: string;
        attachments: Array<{ filename: string; content: string; contentType: string; encoding?: string }>;
      }>;
    const before = reportMails().length;
    // Two API instances: two job passes at once, each with its own mailer, on one database.
    const mailers = [0, 1].map(() => createMailer({ from: 'fleet@test', outboxDir: `${t.dataDir}/outbox`, log: t.app.log }));
    const now = new Date(runAt).getTime() + 20_000;
    const results = await Promise.all(mailers.map((m) => runReportSchedule(t.database, m, now)));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(results.reduce((n, r) => n + r.taken, 0)).toBeLessThanOrEqual(1);
    const mails = reportMails();
    expect(mails.length - before).toBe(1);
    const mail = mails[mails.length - 1]!;
    expect(mail.to).toBe(admin.user.email);
    expect(mail.text).toContain(ZONE);
    expect(mail.attachments.map((a) => [a.filename, a.contentType, a.encoding ?? null])).toEqual([
      [`trips-${day}.pdf`, 'application/pdf', 'base64'],
      [`trips-${day}.csv`, 'text/csv; charset=utf-8', null],
    ]);
    expect(Buffer.from(mail.attachments[0]!.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    // The day just ended: the morning's two trips.
    expect(mail.attachments[1]!.content.trim().split('\r\n')).toHaveLength(3);
    // Once: again at the same time, nothing; the next run is the next morning.
    await Promise.all(mailers.map((m) => runReportSchedule(t.database, m, now)));
    expect(reportMails().length - before).toBe(1);
    const after = reportSubscriptionSchema.parse((await get(org(`/report-subscriptions/${s.id}`))).json());
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(now);
    expect(after.lastRunAt).not.toBeNull();
    void due;
  });
});

// Last: it stops this app's own follower, so the two followers below are the only ones writing.
describe('two API instances following one vehicle on a shared database', () => {
  it("give the same trips and stops as one, each seeing the other's fixes in the positions", async () => {
    await t.app.tripsStops.close();
    const E = await createTestVehicle(t.app.db, orgId, { uniqueId: `rep-e-${Date.now()}`, unitNumber: 'E-5' });
    const instances = [0, 1].map(() => new TripsStops(t.app.db, { shared: true, flushMs: 0 }));
    const morning = track(T0, MORNING);
    const chunk = Math.ceil(morning.length / 6);
    for (let k = 0; k < 6; k++) {
      const part = morning.slice(k * chunk, (k + 1) * chunk);
      await post(E, part);
      // The device's requests reach the two instances in turn (a load balancer); each hears only its own.
      const rows = part.map((f) => ({
        organizationId: orgId,
        assetId: E.assetId,
        driverId: E.driverId,
        fixTime: new Date(f.t),
        latitude: f.lat,
        longitude: f.lon,
        speed: f.speed,
        ignition: f.ignition,
      }));
      const it = instances[k % 2]!;
      // Only the fields the follower reads: a whole PositionRow is the pipeline's business.
      it.enqueue(
        rows as unknown as PositionRow[],
        rows.map(() => true),
      );
      await it.idle();
    }
    const shapeOf = async (v: TestVehicle) =>
      shape(await trips(`assetId=${v.assetId}&sort=startedAt,asc`), await stops(`assetId=${v.assetId}&sort=startedAt,asc`));
    expect(await shapeOf(E)).toEqual(await shapeOf(A));
    // Each computed the vehicle from its positions once (its first round) and then folded the
    // stored fixes it never heard of, not computing it again every round.
    expect(instances.map((i) => i.stats.recomputed)).toEqual([1, 1]);
    for (const i of instances) await i.close();
  });
});
