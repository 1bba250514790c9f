import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_SETTINGS, notificationPageSchema, placeSchema, type Place } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, login, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { type PositionRow, writePositions } from '../positions/index.ts';
import { PlaceVisits } from './place-visits.service.ts';

// The geofence follower on real geometry (issue 32, decision 0162): tracks cross a circle and a
// polygon with GPS jitter at the fence lines and pass through a third place faster than its
// dwell; the same track sent in order, in reversed chunks and shuffled gives the same visits, each
// with the driver at the time, and every fact is notified once.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const a = await login(t.app, DEMO.admin);
  orgId = a.user.organization!.id;
  admin = bearer(a.accessToken);
  // Arrivals and departures are off by default: this admin chose to hear of them.
  const prefs = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/organizations/${orgId}/notifications/preferences`,
    headers: admin,
    payload: { kinds: { PLACE_ARRIVAL: { inApp: true, email: false }, PLACE_DEPARTURE: { inApp: true, email: false } } },
  });
  expect(prefs.statusCode, prefs.body).toBe(200);
  // Two minutes of free time: the three minutes at the customer are detention.
  const s = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/organizations/${orgId}/settings`,
    headers: admin,
    payload: { ...DEFAULT_ORGANIZATION_SETTINGS, detention: { freeMinutes: 2 } },
  });
  expect(s.statusCode, s.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const LAT = 39.05;
const M_PER_DEG_LON = 111_194.93 * Math.cos((LAT * Math.PI) / 180);
const STEP_MS = 10_000;
/** Longitude of a point `metres` east of `lon` on the track's parallel. */
const east = (lon: number, metres: number) => lon + metres / M_PER_DEG_LON;

const C_LON = -94.55; // a customer: a circle of 200 m
const Q_LON = -94.5; // a fuel stop passed through at speed: a circle of 200 m
const P_LON = -94.45; // a restricted yard: a square of ±0.002°
const P_HALF_M = 0.002 * M_PER_DEG_LON;

interface Fix {
  fixTime: string;
  latitude: number;
  longitude: number;
  speed: number;
}

/**
 * A visit to a place whose fence crosses the parallel `edgeM` metres either side of `lon`: the
 * approach, 13 fixes jittering ±5 m across the west fence (ending outside), three minutes inside,
 * 11 fixes jittering across the east fence (ending inside), then away. Returns the fixes and the
 * times the visit must have: its first fix inside that led to the arrival, its first fix outside that led to the departure.
 */
function visit(lon: number, edgeM: number, t0: number, out: Fix[]): { arrivedAt: number; departedAt: number; end: number } {
  let t = t0;
  const at = (metres: number, speed: number) => {
    out.push({ fixTime: new Date(t).toISOString(), latitude: LAT, longitude: east(lon, metres), speed });
    t += STEP_MS;
  };
  for (const d of [-700, -550, -400, -300]) at(d, 54);
  for (let i = 0; i < 13; i++) at(i % 2 === 0 ? -edgeM - 5 : -edgeM + 5, 5);
  const arrivedAt = t;
  for (let i = 0; i < 18; i++) at(-edgeM + 40 + i, 0);
  for (let i = 0; i < 11; i++) at(i % 2 === 0 ? edgeM - 5 : edgeM + 5, 5);
  const departedAt = t;
  for (const d of [edgeM + 60, edgeM + 200, edgeM + 400, edgeM + 700, edgeM + 1000, edgeM + 1400, edgeM + 1800, edgeM + 2200]) at(d, 54);
  return { arrivedAt, departedAt, end: t };
}

/** Circle C, the pass through Q (two fixes inside, 10 s: under its dwell), then polygon P. */
function track(t0: number) {
  const fixes: Fix[] = [];
  const c = visit(C_LON, 200, t0, fixes);
  // From C's last fix on at 20 m/s (200 m a fix) to P's approach, straight through Q.
  let t = c.end;
  const from = east(C_LON, 200 + 2200) + 200 / M_PER_DEG_LON;
  for (let lon = from; lon < east(P_LON, -P_HALF_M - 900); lon += 200 / M_PER_DEG_LON) {
    fixes.push({ fixTime: new Date(t).toISOString(), latitude: LAT, longitude: lon, speed: 72 });
    t += STEP_MS;
  }
  const p = visit(P_LON, P_HALF_M, t, fixes);
  return { fixes, c, p };
}

async function ingest(v: TestVehicle, positions: Fix[]): Promise<void> {
  for (let i = 0; i < positions.length; i += 500) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: bearer(v.token),
      payload: { positions: positions.slice(i, i + 500) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejected).toEqual([]);
  }
  await t.app.placeVisits.idle();
}

async function create(body: Record<string, unknown>): Promise<Place> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/places`, headers: admin, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return placeSchema.parse(res.json());
}

type VisitRow = { place_id: string; driver_id: string | null; a: number; d: number | null };
const visitsOf = async (assetId: string) =>
  rowsOf<VisitRow>(
    await t.database.db.execute(
      `select place_id, driver_id, extract(epoch from arrived_at) * 1000 as a, extract(epoch from departed_at) * 1000 as d from place_visits where asset_id = '${assetId}' order by arrived_at` as never,
    ),
  ).map((r) => ({ placeId: r.place_id, driverId: r.driver_id, arrivedAt: Number(r.a), departedAt: r.d === null ? null : Number(r.d) }));

async function bell(kind: string, unit: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/notifications?size=100&kind=${kind}`, headers: admin });
  return notificationPageSchema
    .parse(res.json())
    .content.map((n) => n.title)
    .filter((title) => title.startsWith(`Vehicle ${unit} `));
}

/** Deterministic shuffle (a seeded LCG): the same order every run. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('place visits behind ingest', () => {
  let C: Place;
  let Q: Place;
  let P: Place;
  let expected: Array<{ placeId: string; driverId: string | null; arrivedAt: number; departedAt: number | null }>;
  let trackOf: ReturnType<typeof track>;

  it('gives one visit per place crossed with fence jitter, none for a pass shorter than the dwell', async () => {
    C = await create({ name: 'Acme Foods', category: 'CUSTOMER', geometry: { type: 'Point', coordinates: [C_LON, LAT] }, radiusMeters: 200 });
    Q = await create({ name: 'Quick Fuel', category: 'FUEL', geometry: { type: 'Point', coordinates: [Q_LON, LAT] }, radiusMeters: 200 });
    const h = 0.002;
    P = await create({
      name: 'Depot Zone',
      category: 'RESTRICTED',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [P_LON - h, LAT - h],
            [P_LON + h, LAT - h],
            [P_LON + h, LAT + h],
            [P_LON - h, LAT + h],
            [P_LON - h, LAT - h],
          ],
        ],
      },
    });
    // Recent enough to be notified (the facts of the last 30 minutes are).
    trackOf = track(Date.now() - 25 * 60_000);
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-inorder', unitNumber: 'PV1' });
    // In order, in four rounds.
    const n = trackOf.fixes.length;
    for (let i = 0; i < 4; i++) await ingest(v, trackOf.fixes.slice(Math.floor((i * n) / 4), Math.floor(((i + 1) * n) / 4)));
    expected = [
      { placeId: C.id, driverId: v.driverId, arrivedAt: trackOf.c.arrivedAt, departedAt: trackOf.c.departedAt },
      { placeId: P.id, driverId: v.driverId, arrivedAt: trackOf.p.arrivedAt, departedAt: trackOf.p.departedAt },
    ];
    expect(v.driverId).not.toBeNull();
    expect(await visitsOf(v.assetId)).toEqual(expected);
    // The fixes really went through Q, for less than its arrival dwell.
    const inQ = trackOf.fixes.filter((f) => Math.abs(f.longitude - Q_LON) * M_PER_DEG_LON <= 200);
    expect(inQ.length).toBeGreaterThan(0);
    expect(inQ.length * STEP_MS).toBeLessThan(Q.arrivalDwellSeconds * 1000);
    expect(t.app.placeVisits.blank(v.assetId)).toBe(true);
    // Once each: the arrival at C, the restricted area P (not an ordinary arrival), both departures, C's detention.
    expect(await bell('PLACE_ARRIVAL', 'PV1')).toEqual(['Vehicle PV1 arrived at Acme Foods']);
    expect(await bell('RESTRICTED_PLACE_ENTERED', 'PV1')).toEqual(['Vehicle PV1 entered restricted area Depot Zone']);
    expect((await bell('PLACE_DEPARTURE', 'PV1')).sort()).toEqual(['Vehicle PV1 left Acme Foods', 'Vehicle PV1 left Depot Zone']);
    expect(await bell('DETENTION_EXCEEDED', 'PV1')).toEqual(['Vehicle PV1 has waited at Acme Foods beyond the free time']);

    // Recomputed from positions again (a restart): the same rows, and nothing notified twice.
    t.app.placeVisits.forget();
    await t.app.placeVisits.recomputeVehicles(orgId, [v.assetId], trackOf.fixes[0]!.fixTime ? Date.parse(trackOf.fixes[0]!.fixTime) : 0);
    expect(await visitsOf(v.assetId)).toEqual(expected);
    expect(await bell('PLACE_ARRIVAL', 'PV1')).toHaveLength(1);
    expect(await bell('DETENTION_EXCEEDED', 'PV1')).toHaveLength(1);
  });

  it('gives the same visits when the fixes come late, in reversed chunks or shuffled', async () => {
    const reversed = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-reversed', unitNumber: 'PV2' });
    const n = trackOf.fixes.length;
    const chunks = [0, 1, 2, 3, 4].map((i) => trackOf.fixes.slice(Math.floor((i * n) / 5), Math.floor(((i + 1) * n) / 5)));
    for (const chunk of [...chunks].reverse()) await ingest(reversed, chunk);
    const mine = (driverId: string | null) => expected.map((e) => ({ ...e, driverId }));
    expect(await visitsOf(reversed.assetId)).toEqual(mine(reversed.driverId));

    const shuffledVehicle = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-shuffled', unitNumber: 'PV3' });
    const mixed = shuffled(trackOf.fixes, 7);
    for (let i = 0; i < 6; i++) await ingest(shuffledVehicle, mixed.slice(Math.floor((i * n) / 6), Math.floor(((i + 1) * n) / 6)));
    expect(await visitsOf(shuffledVehicle.assetId)).toEqual(mine(shuffledVehicle.driverId));

    // Reversed again with a restart before each older chunk: no state in memory, the stored newer fixes found.
    const restarted = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-restarted', unitNumber: 'PV7' });
    for (const chunk of [...chunks].reverse()) {
      t.app.placeVisits.forget();
      await ingest(restarted, chunk);
    }
    expect(await visitsOf(restarted.assetId)).toEqual(mine(restarted.driverId));

    // One late fix inside C's departure jitter, outside the fence: still one visit, the same times.
    const late = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-late', unitNumber: 'PV4' });
    const held = trackOf.fixes.findIndex((f) => Date.parse(f.fixTime) === trackOf.c.departedAt - 2 * STEP_MS);
    await ingest(
      late,
      trackOf.fixes.filter((_, i) => i !== held),
    );
    await ingest(late, [trackOf.fixes[held]!]);
    expect(await visitsOf(late.assetId)).toEqual(mine(late.driverId));
    // Told once: the late fix corrected history (nothing new to tell) and the in-order part told everything once.
    expect(await bell('PLACE_ARRIVAL', 'PV4')).toEqual(['Vehicle PV4 arrived at Acme Foods']);
    expect(await bell('RESTRICTED_PLACE_ENTERED', 'PV4')).toHaveLength(1);
    expect(await bell('PLACE_DEPARTURE', 'PV4')).toHaveLength(2);
    // Newest first, then older chunks: the older fixes only correct history, never tell it again.
    // The newest chunk alone (the end of P's stay, jittering out) makes no visit: nothing was told.
    expect(await bell('PLACE_ARRIVAL', 'PV2')).toEqual([]);
    expect(await bell('PLACE_DEPARTURE', 'PV2')).toEqual([]);
    // Shuffled: what the first sparse batch showed may be told, once per place at the most.
    for (const kind of ['PLACE_ARRIVAL', 'RESTRICTED_PLACE_ENTERED']) expect((await bell(kind, 'PV3')).length).toBeLessThanOrEqual(1);
    expect((await bell('PLACE_DEPARTURE', 'PV3')).length).toBeLessThanOrEqual(2);
  });

  it('keeps a visit once recorded across a recompute (same id), and records a late fix that moves it as a correction (decision 0238)', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-kept', unitNumber: 'PV8' });
    await ingest(v, trackOf.fixes);
    const ids = async () =>
      rowsOf<{ id: string; place_id: string }>(
        await t.database.db.execute(`select id, place_id from place_visits where asset_id = '${v.assetId}' order by arrived_at` as never),
      );
    const recorded = await ids();
    expect(recorded.map((r) => r.place_id)).toEqual([C.id, P.id]);
    // A restart: recomputed from positions, the same visits keep their ids and nothing is corrected.
    t.app.placeVisits.forget();
    await t.app.placeVisits.recomputeVehicles(orgId, [v.assetId], Date.parse(trackOf.fixes[0]!.fixTime));
    expect(await ids()).toEqual(recorded);
    const corrections = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/organizations/${orgId}/activity-logs?action=CORRECTION&entityType=PLACE_VISIT&entityId=${recorded[0]!.id}`,
        headers: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { content: Array<{ id: number; summary: string; changedFields: string[] }> }).content;
    };
    expect(await corrections()).toEqual([]);
    // A late fix back inside C just after the recorded departure: the truck left one fix later.
    const out = trackOf.fixes.find((f) => Date.parse(f.fixTime) === trackOf.c.departedAt)!;
    await ingest(v, [{ ...out, fixTime: new Date(trackOf.c.departedAt + STEP_MS / 2).toISOString(), longitude: C_LON, speed: 0 }]);
    const now = await visitsOf(v.assetId);
    expect(now[0]).toEqual({ placeId: C.id, driverId: v.driverId, arrivedAt: trackOf.c.arrivedAt, departedAt: trackOf.c.departedAt + STEP_MS });
    expect(await ids()).toEqual(recorded);
    const [entry, ...more] = await corrections();
    expect(more).toEqual([]);
    expect(entry!.summary).toBe('System corrected a place visit from its positions');
    expect(entry!.changedFields).toEqual(['departedAt']);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/activity-logs/${entry!.id}`, headers: admin })).json() as {
      before: { departedAt: string };
      after: { departedAt: string };
    };
    expect([detail.before.departedAt, detail.after.departedAt]).toEqual([
      new Date(trackOf.c.departedAt).toISOString(),
      new Date(trackOf.c.departedAt + STEP_MS).toISOString(),
    ]);
  });

  it('shows a vehicle at a place in places/current until it departs, across a restart mid-stay', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-current', unitNumber: 'PV5' });
    // Up to the middle of C's stay: arrived, not departed.
    const until = trackOf.fixes.findIndex((f) => Date.parse(f.fixTime) === trackOf.c.arrivedAt + 14 * STEP_MS);
    await ingest(v, trackOf.fixes.slice(0, until));
    expect(await visitsOf(v.assetId)).toEqual([{ placeId: C.id, driverId: v.driverId, arrivedAt: trackOf.c.arrivedAt, departedAt: null }]);
    const current = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/places/current`, headers: admin })).json() as {
      content: Array<{ assetId: string; placeId: string; placeName: string }>;
    };
    expect(current.content.filter((c) => c.assetId === v.assetId)).toEqual([
      { assetId: v.assetId, placeId: C.id, placeName: 'Acme Foods', category: 'CUSTOMER', arrivedAt: new Date(trackOf.c.arrivedAt).toISOString() },
    ]);
    // A restart mid-stay: the state is gone; the open visit is found and the stay goes on.
    t.app.placeVisits.forget();
    await ingest(v, trackOf.fixes.slice(until));
    expect(await visitsOf(v.assetId)).toEqual(expected.map((e) => ({ ...e, driverId: v.driverId })));
  });

  it("finds the visits of a failed round's fixes, and of fixes a killed process stored past its mark, with the next fixes (decision 0328)", async () => {
    const rowsOfFixes = (v: TestVehicle, fixes: readonly Fix[]): PositionRow[] =>
      fixes.map((f) => ({
        organizationId: orgId,
        gatewayId: v.gatewayId,
        assetId: v.assetId,
        driverId: v.driverId,
        fixTime: new Date(f.fixTime),
        latitude: f.latitude,
        longitude: f.longitude,
        speed: f.speed,
        course: 90,
        altitude: null,
        accuracy: null,
        odometer: null,
        odometerSource: null,
        engineHours: null,
        ignition: true,
        protocol: 'osmand',
        attributes: {},
      }));
    const send = async (to: PlaceVisits | null, v: TestVehicle, fixes: readonly Fix[]) => {
      const rows = rowsOfFixes(v, fixes);
      const { stored } = await writePositions(t.app.db, rows);
      to?.enqueue(rows, stored);
      await to?.idle();
    };
    // Before C, C's whole visit and a stretch after it (the last fix far outside: a blank point), the rest.
    const afterC = trackOf.fixes.findIndex((f) => Date.parse(f.fixTime) === trackOf.c.end - STEP_MS);
    const parts = [trackOf.fixes.slice(0, 3), trackOf.fixes.slice(3, afterC + 1), trackOf.fixes.slice(afterC + 1)] as const;
    const mine = (driverId: string | null) => expected.map((e) => ({ ...e, driverId }));

    // The database goes away under the round that holds C's visit, then comes back.
    let down = false;
    const flaky = new Proxy(t.app.db, {
      get(target, p, receiver) {
        const value: unknown = Reflect.get(target, p, receiver);
        if (!down || typeof value !== 'function') return value;
        return () => {
          throw new Error('the database went away (test)');
        };
      },
    });
    const failing = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-failed-round', unitNumber: 'PV9' });
    const one = new PlaceVisits(flaky, { flushMs: 1 });
    await send(one, failing, parts[0]);
    down = true;
    await send(one, failing, parts[1]);
    expect(one.stats.failures).toBe(1);
    down = false;
    await send(one, failing, parts[2]);
    expect(await visitsOf(failing.assetId)).toEqual(mine(failing.driverId));
    await one.close();

    // A process worked the first fixes (its mark written), stored C's visit and was killed before working it.
    const killed = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-killed', unitNumber: 'PV10' });
    const before = new PlaceVisits(t.app.db, { flushMs: 1 });
    await send(before, killed, parts[0]);
    await send(null, killed, parts[1]);
    await before.close();
    // The next life: the vehicle's next fixes reach a process that never saw it.
    const after = new PlaceVisits(t.app.db, { flushMs: 1 });
    await send(after, killed, parts[2]);
    expect(await visitsOf(killed.assetId)).toEqual(mine(killed.driverId));
    await after.close();
  });

  it('tells detention on the clock for a vehicle that stopped reporting at a customer, once', async () => {
    const v = await createTestVehicle(t.app.db, orgId, { uniqueId: 'pv-silent', unitNumber: 'PV6' });
    // Arrived (two minutes inside), then silent: no fix past the free time.
    const until = trackOf.fixes.findIndex((f) => Date.parse(f.fixTime) === trackOf.c.arrivedAt + 12 * STEP_MS);
    await ingest(v, trackOf.fixes.slice(0, until + 1));
    expect(await visitsOf(v.assetId)).toEqual([{ placeId: C.id, driverId: v.driverId, arrivedAt: trackOf.c.arrivedAt, departedAt: null }]);
    expect(await bell('DETENTION_EXCEEDED', 'PV6')).toEqual([]);
    expect(await t.app.placeVisits.detentionNow()).toBe(1);
    expect(await t.app.placeVisits.detentionNow()).toBe(0);
    expect(await bell('DETENTION_EXCEEDED', 'PV6')).toEqual(['Vehicle PV6 has waited at Acme Foods beyond the free time']);
  });
});
