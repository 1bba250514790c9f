import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { candidatePageSchema, loadPlanSchema, notificationPageSchema } from '@fleet/api-contract';
import { loads, loadStops } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, DEMO, expectErrorBody, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';

// Dispatch on the real database through HTTP and ingest (issue 33, decision 0167): a load's legal
// plan from the driver's position, the candidates ranked with reasons, and live ETAs re-planned
// from ingested positions, a load at risk told to the dispatchers once.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let dispatcher: Record<string, string>;
let near: TestVehicle;
let far: TestVehicle;
let parked: TestVehicle;

const DALLAS = { lat: 32.7767, lon: -96.797 };
const MEMPHIS = { lat: 35.1495, lon: -90.049 };
const ATLANTA = { lat: 33.749, lon: -84.388 };
const LOS_ANGELES = { lat: 34.0522, lon: -118.2437 };
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  const a = await login(t.app, DEMO.admin);
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
  dispatcher = bearer((await login(t.app, DEMO.dispatcher)).accessToken);
  near = await createTestVehicle(t.database.db, orgId, { uniqueId: 'disp-near' });
  far = await createTestVehicle(t.database.db, orgId, { uniqueId: 'disp-far' });
  parked = await createTestVehicle(t.database.db, orgId, { uniqueId: 'disp-none' });
  await fix(near, DALLAS, Date.now() - 60_000);
  await fix(far, LOS_ANGELES, Date.now() - 60_000);
});
afterAll(async () => {
  await t?.close();
});

async function fix(v: TestVehicle, at: { lat: number; lon: number }, ms: number): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/positions',
    headers: bearer(v.token),
    payload: { positions: [{ fixTime: new Date(ms).toISOString(), latitude: at.lat, longitude: at.lon, speed: 80 }] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

let numbers = 5000;
/** A load written straight to the tables (the loads module owns its API). */
async function createLoad(opts: {
  status?: 'PLANNED' | 'ASSIGNED' | 'EN_ROUTE';
  driverId?: string | null;
  assetId?: string | null;
  stops: Array<{ at: { lat: number; lon: number }; kind: 'PICKUP' | 'DELIVERY'; from: number; to: number; departedAt?: number }>;
}): Promise<{ id: string; stopIds: string[] }> {
  const [l] = await t.database.db
    .insert(loads)
    .values({
      organizationId: orgId,
      number: `L-${++numbers}`,
      customer: 'Test Foods',
      status: opts.status ?? 'PLANNED',
      driverId: opts.driverId ?? null,
      assetId: opts.assetId ?? null,
    })
    .returning({ id: loads.id });
  const stops = await t.database.db
    .insert(loadStops)
    .values(
      opts.stops.map((s, seq) => ({
        organizationId: orgId,
        loadId: l!.id,
        seq,
        kind: s.kind,
        latitude: s.at.lat,
        longitude: s.at.lon,
        address: seq === 0 ? 'Dallas, TX' : 'Memphis, TN',
        windowStart: new Date(s.from),
        windowEnd: new Date(s.to),
        serviceMinutes: 60,
        arrivedAt: s.departedAt ? new Date(s.departedAt - HOUR) : null,
        departedAt: s.departedAt ? new Date(s.departedAt) : null,
      })),
    )
    .returning({ id: loadStops.id });
  return { id: l!.id, stopIds: stops.map((s) => s.id) };
}

describe('a load’s plan', () => {
  it('plans the lead driver from their vehicle’s position: deadhead, drive, stops, ETAs within the windows', async () => {
    const now = Date.now();
    const load = await createLoad({
      driverId: near.driverId,
      assetId: near.assetId,
      stops: [
        { at: DALLAS, kind: 'PICKUP', from: now, to: now + 6 * HOUR },
        { at: MEMPHIS, kind: 'DELIVERY', from: now, to: now + 30 * HOUR },
      ],
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/plan`, headers: dispatcher });
    expect(res.statusCode, res.body).toBe(200);
    const plan = loadPlanSchema.parse(res.json());
    expect(plan.feasible).toBe(true);
    expect(plan.routing).toBe('estimated');
    expect(plan.driverIds).toEqual([near.driverId]);
    expect(plan.stops.map((s) => s.stopId)).toEqual(load.stopIds);
    expect(plan.stops.every((s) => s.windowMet)).toBe(true);
    const kinds = plan.segments.map((s) => s.kind);
    expect(kinds).toContain('DRIVE');
    expect(kinds.filter((k) => k === 'STOP')).toHaveLength(2);
    // Dallas to Memphis is about 450 road miles.
    const driven = plan.segments.filter((s) => s.kind === 'DRIVE').reduce((sum, s) => sum + s.miles, 0);
    expect(driven).toBeGreaterThan(400);
    expect(driven).toBeLessThan(560);
    expect(Date.parse(plan.stops[1]!.eta)).toBeGreaterThan(now + 7 * HOUR);

    // Another driver, far away, cannot: a 10-hour rest (and the reason says so).
    const other = loadPlanSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/plan?driverId=${far.driverId}`, headers: dispatcher })).json(),
    );
    expect(other.feasible).toBe(false);
    expect(other.reason).toMatch(/late/);
    expect(other.segments.some((s) => s.kind === 'REST')).toBe(true);
  });

  it('answers 400 without a driver, 400 naming an unknown driver, 404 for another organization’s load', async () => {
    const now = Date.now();
    const load = await createLoad({
      stops: [
        { at: DALLAS, kind: 'PICKUP', from: now, to: now + HOUR },
        { at: MEMPHIS, kind: 'DELIVERY', from: now, to: now + 40 * HOUR },
      ],
    });
    const none = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/plan`, headers: dispatcher });
    expect(expectErrorBody(none.json(), 400).technicalMessage).toMatch(/^driverId/);
    const unknown = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/plan?driverId=${orgId}`, headers: dispatcher });
    expect(expectErrorBody(unknown.json(), 400).technicalMessage).toMatch(/^driverId/);
    const bad = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/plan?driverId=nope`, headers: dispatcher });
    expect(bad.statusCode).toBe(400);
    const stranger = await registerOrganization(t.app);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${stranger.user.organization!.id}/loads/${load.id}/plan?driverId=${near.driverId}`,
      headers: bearer(stranger.accessToken),
    });
    expect(foreign.statusCode).toBe(404);
    const candidates = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${stranger.user.organization!.id}/loads/${load.id}/candidates`,
      headers: bearer(stranger.accessToken),
    });
    expect(candidates.statusCode).toBe(404);
  });
});

describe('candidates', () => {
  it('ranks every active driver: on time first, then deadhead; the excluded with their reason; the driver’s current load', async () => {
    const now = Date.now();
    const running = await createLoad({
      status: 'EN_ROUTE',
      driverId: far.driverId,
      assetId: far.assetId,
      stops: [
        { at: LOS_ANGELES, kind: 'PICKUP', from: now - 3 * HOUR, to: now, departedAt: now - HOUR },
        { at: DALLAS, kind: 'DELIVERY', from: now, to: now + 60 * HOUR },
      ],
    });
    const load = await createLoad({
      stops: [
        { at: DALLAS, kind: 'PICKUP', from: now, to: now + 4 * HOUR },
        { at: ATLANTA, kind: 'DELIVERY', from: now, to: now + 36 * HOUR },
      ],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/loads/${load.id}/candidates?search=disp-&size=10`,
      headers: dispatcher,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = candidatePageSchema.parse(res.json());
    expect(page.totalElements).toBe(3);
    expect(page.content.map((c) => c.driverId)).toEqual([near.driverId, far.driverId, parked.driverId]);
    const [first, second, third] = page.content;
    expect(first).toMatchObject({ feasible: true, reason: null, currentLoad: null });
    expect(first!.deadheadMiles).toBeLessThan(5);
    // Rested, but driving since the fix a minute ago (automatic duty status).
    expect(first!.remainingDriveMinutes).toBeGreaterThan(10 * 60);
    // On the road from Los Angeles: planned from where and when that load ends (Dallas), too late.
    expect(second!.feasible).toBe(false);
    expect(second!.deadheadMiles).toBeLessThan(5);
    expect(second!.after).toMatchObject({ loadId: running.id, place: 'Memphis, TN', loads: 1 });
    expect(Date.parse(second!.after!.freeAt)).toBeGreaterThan(now + 20 * HOUR);
    expect(second!.reason).toMatch(/earliest (pick-up|delivery) .* late/);
    expect(second!.currentLoad?.id).toBe(running.id);
    expect(third).toMatchObject({ feasible: false, lastStopEta: null });
    expect(third!.reason).toMatch(/no position/);
    // Paging: the second page of one.
    const p2 = candidatePageSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/candidates?search=disp-&size=1&page=1`, headers: dispatcher })
      ).json(),
    );
    expect(p2.content.map((c) => c.driverId)).toEqual([far.driverId]);
    expect(p2.totalPages).toBe(3);
    await t.database.db.update(loads).set({ status: 'DELIVERED' }).where(eq(loads.id, running.id));
  });
});

describe('a driver on other loads', () => {
  it('is planned from where and when their load ends, with the clocks they will have there; the list and the plan say so', async () => {
    const now = Date.now();
    const v = await createTestVehicle(t.database.db, orgId, { uniqueId: 'disp-busy' });
    await fix(v, DALLAS, now - 60_000);
    // Picked up in Dallas an hour ago, delivering in Memphis (450 road miles, ~8 h of driving).
    const running = await createLoad({
      status: 'EN_ROUTE',
      driverId: v.driverId,
      assetId: v.assetId,
      stops: [
        { at: DALLAS, kind: 'PICKUP', from: now - 3 * HOUR, to: now, departedAt: now - 60_000 },
        { at: MEMPHIS, kind: 'DELIVERY', from: now, to: now + 30 * HOUR },
      ],
    });
    // The next load picks up in Memphis: no deadhead once they are there, but not before.
    const next = await createLoad({
      stops: [
        { at: MEMPHIS, kind: 'PICKUP', from: now, to: now + 40 * HOUR },
        { at: ATLANTA, kind: 'DELIVERY', from: now, to: now + 70 * HOUR },
      ],
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${next.id}/candidates?search=disp-busy`, headers: dispatcher });
    expect(res.statusCode, res.body).toBe(200);
    const [c] = candidatePageSchema.parse(res.json()).content;
    expect(c).toBeDefined();
    expect(c!.after).toMatchObject({ loadId: running.id, number: `L-${numbers - 1}`, loads: 1, place: 'Memphis, TN' });
    // Free when the Memphis delivery is done: ~8 h of driving, a 30-minute break, an hour unloading.
    const freeAt = Date.parse(c!.after!.freeAt);
    expect(freeAt).toBeGreaterThan(now + 8 * HOUR);
    expect(freeAt).toBeLessThan(now + 12 * HOUR);
    expect(c!.deadheadMiles).toBeLessThan(5);
    // Their clocks there, not now: most of the 11 hours driven, so the rest of the drive waits for a rest.
    expect(c!.after!.clocks.driveMinutes).toBeLessThan(4 * 60);
    expect(c!.remainingDriveMinutes).toBe(Math.min(c!.after!.clocks.driveMinutes, c!.after!.clocks.windowMinutes, c!.after!.clocks.cycleMinutes));
    expect(Date.parse(c!.lastStopEta!)).toBeGreaterThan(freeAt + 10 * HOUR);
    expect(c!.feasible).toBe(true);

    // Their plan for it starts there and then (the load page's "Show plan").
    const plan = loadPlanSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${next.id}/plan?driverId=${v.driverId}`, headers: dispatcher })).json(),
    );
    expect(plan.after).toMatchObject({ loadId: running.id, place: 'Memphis, TN' });
    expect(Math.abs(Date.parse(plan.startsAt) - freeAt)).toBeLessThan(2 * 60_000);
    expect(plan.origin.latitude).toBeCloseTo(MEMPHIS.lat, 2);
    expect(plan.segments[0]!.start).toBe(plan.startsAt);
    // Driving on from Memphis needs the 10-hour rest the morning's drive leaves them short of.
    expect(plan.segments.findIndex((s) => s.kind === 'REST')).toBeGreaterThan(-1);
    expect(plan.clocksAtDelivery.driveMinutes).toBeLessThan(11 * 60);
    await t.database.db.update(loads).set({ status: 'DELIVERED' }).where(eq(loads.id, running.id));
  });
});

describe('the plan’s roads', () => {
  it('carries the legs the planner routed, along the roads: between the stops and from the driver', async () => {
    const now = Date.now();
    const load = await createLoad({
      driverId: near.driverId,
      assetId: near.assetId,
      stops: [
        { at: DALLAS, kind: 'PICKUP', from: now, to: now + 6 * HOUR },
        { at: MEMPHIS, kind: 'DELIVERY', from: now, to: now + 30 * HOUR },
      ],
    });
    const plan = loadPlanSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/loads/${load.id}/plan`, headers: dispatcher })).json(),
    );
    expect(plan.route.map((l) => [l.fromStopId, l.toStopId])).toEqual([
      [load.stopIds[0], load.stopIds[1]],
      [null, load.stopIds[0]],
    ]);
    const road = plan.route[0]!.line;
    // Not the straight line: hundreds of vertices, starting in Dallas and ending in Memphis, and
    // away from the straight line between them somewhere (I-30 through Little Rock, then I-40).
    expect(road.length).toBeGreaterThan(50);
    expect(road[0]![1]).toBeCloseTo(DALLAS.lat, 0);
    expect(road.at(-1)![1]).toBeCloseTo(MEMPHIS.lat, 0);
    const offLine = Math.max(
      ...road.map(([lon, lat]) => {
        const f = (lon - DALLAS.lon) / (MEMPHIS.lon - DALLAS.lon);
        return Math.abs(lat - (DALLAS.lat + f * (MEMPHIS.lat - DALLAS.lat)));
      }),
    );
    expect(offLine).toBeGreaterThan(0.1);
    await t.database.db.update(loads).set({ status: 'CANCELLED' }).where(eq(loads.id, load.id));
  });
});

describe('live ETAs', () => {
  it('re-plans a running load from each ingested position; a window passed is told to the dispatchers once, with the reason', async () => {
    const now = Date.now();
    const v = await createTestVehicle(t.database.db, orgId, { uniqueId: 'disp-live' });
    await fix(v, LOS_ANGELES, now - 120_000);
    // Picked up in Los Angeles; Memphis (1,800 road miles) by tomorrow evening: not without a 10-hour rest.
    const load = await createLoad({
      status: 'EN_ROUTE',
      driverId: v.driverId,
      assetId: v.assetId,
      stops: [
        { at: LOS_ANGELES, kind: 'PICKUP', from: now - 3 * HOUR, to: now, departedAt: now - 10 * 60_000 },
        { at: MEMPHIS, kind: 'DELIVERY', from: now + 20 * HOUR, to: now + 30 * HOUR },
      ],
    });
    await t.app.liveEtas.refresh();
    await fix(v, { lat: 34.06, lon: -118.0 }, now - 60_000);
    await t.app.liveEtas.idle();
    const read = async () => {
      const [l] = rowsOf<{ at_risk: boolean; risk_reason: string | null; risk_notified_at: string | null; eta_updated_at: string | null }>(
        await t.database.db.execute(sql`select at_risk, risk_reason, risk_notified_at::text, eta_updated_at::text from loads where id = ${load.id}`),
      );
      const stops = rowsOf<{ eta: string | null; window_met: boolean | null }>(
        await t.database.db.execute(sql`select eta::text, window_met from load_stops where load_id = ${load.id} order by seq`),
      );
      return { l: l!, stops };
    };
    const first = await read();
    expect(first.l.eta_updated_at).not.toBeNull();
    expect(first.stops[0]).toEqual({ eta: null, window_met: null });
    expect(first.stops[1]!.window_met).toBe(false);
    expect(Date.parse(first.stops[1]!.eta!)).toBeGreaterThan(now + 30 * HOUR);
    expect(first.l.at_risk).toBe(true);
    expect(first.l.risk_reason).toMatch(/10-hour rest/);
    expect(first.l.risk_notified_at).not.toBeNull();

    // Told once: a second plan of the load (forced) tells no one again.
    await t.app.liveEtas.recompute(orgId);
    const notices = async (who: Record<string, string>) =>
      notificationPageSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/notifications?size=50&kind=LOAD_AT_RISK`, headers: who })).json(),
      ).content;
    // The administrator hears of it (the demo dispatcher hears only of their group's trucks).
    const mine = (await notices(admin)).filter((n) => n.title === `Load L-${numbers} will miss its delivery appointment at Memphis, TN`);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.expandedContent).toMatch(/24 h late: .* the driver needs a 10-hour rest\. Driver: Dana Driver disp-live/);
    const second = await read();
    expect(second.l.risk_notified_at).toBe(first.l.risk_notified_at);

    // A new position within the minute is not planned again; the ETA moves with the truck once it is.
    const before = second.l.eta_updated_at;
    await fix(v, { lat: 34.5, lon: -112.0 }, now);
    await t.app.liveEtas.idle();
    expect((await read()).l.eta_updated_at).toBe(before);
    await t.app.liveEtas.recompute(orgId, Date.now() + 61_000);
    const moved = await read();
    expect(Date.parse(moved.stops[1]!.eta!)).toBeLessThan(Date.parse(first.stops[1]!.eta!) - 3 * HOUR);
  });
});
