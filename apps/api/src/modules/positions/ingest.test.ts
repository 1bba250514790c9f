import http from 'node:http';
import type { IngestDiagnostics } from '@fleet/api-contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle, testPositionRow, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

interface Stored {
  fix_time: Date;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  accuracy: number | null;
  odometer: number | null;
  ignition: boolean | null;
  attributes: Record<string, unknown>;
  asset_id: string | null;
  driver_id: string | null;
  organization_id: string;
  protocol: string;
  server_time: Date;
}

let t: TestContext;
let orgId: string;
const devices = new Map<string, TestVehicle>();
const IDS = ['123456', '902064', '353861053849681', '861001000719969', '123456789012345', '48241179', '658765', '8737767034'];

const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));
/** Raw SQL answers timestamps as text on PGlite (Drizzle's parsers) and as Dates on node-postgres. */
const asDate = (v: unknown) =>
  v instanceof Date
    ? v
    : new Date(
        String(v)
          .replace(' ', 'T')
          .replace(/([+-]\d\d)$/, '$1:00'),
      );
const stored = async (uniqueId: string) =>
  (
    await sql<Stored>(
      `select p.* from positions p join gateways g on g.organization_id = p.organization_id and g.id = p.gateway_id where g.unique_id = '${uniqueId}' order by p.fix_time`,
    )
  ).map((r) => ({
    ...r,
    fix_time: asDate(r.fix_time),
    server_time: asDate(r.server_time),
  }));
/** The device's refused fixes as its page lists them (the recorder flushed first): reason and field. */
const refusals = async (uniqueId: string) => {
  await t.app.ingest.refusedFixes?.flush();
  return sql<{ reason: string; field: string | null; message: string }>(
    `select r.reason, r.field, r.message from refused_fixes r join gateways g on g.organization_id = r.organization_id and g.id = r.gateway_id where g.unique_id = '${uniqueId}' order by r.received_at`,
  );
};
const osmand = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/ingest/osmand${url.slice(1)}` });
const json = (body: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/ingest/osmand', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

beforeAll(async () => {
  t = await createTestApp();
  orgId = (await login(t.app, DEMO.admin)).user.organization!.id;
  for (const id of IDS) devices.set(id, await createTestVehicle(t.app.db, orgId, { uniqueId: id }));
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql(`delete from positions`);
  await sql(`delete from latest_positions`);
});

const secs = (s: number) => new Date(s * 1000);
// Traccar's recorded requests, with their times moved to the last hours: fixes more than a year old are refused.
const TS = Math.floor(Date.now() / 1000) - 3600;
const TS2 = TS - 600;
const TS_MS = TS * 1000 + 579;
const ISO_Q = new Date(TS * 1000).toISOString().replace('.000', '').replace(/:/g, '%3A');
const LOCAL = new Date((TS - 1200) * 1000);
const pad = (n: number) => String(n).padStart(2, '0');
const LOCAL_Q = `${LOCAL.getFullYear()}-${pad(LOCAL.getMonth() + 1)}-${pad(LOCAL.getDate())}+${pad(LOCAL.getHours())}%3A${pad(LOCAL.getMinutes())}%3A${pad(LOCAL.getSeconds())}`;
const ISO_A = new Date(TS * 1000 + 862).toISOString();
const ISO_B = new Date((TS - 1800) * 1000 + 579).toISOString();
const ISO_C = new Date((TS - 2400) * 1000 + 444).toISOString();

describe('OsmAnd recorded requests (Traccar OsmAndProtocolDecoderTest)', () => {
  it('stores the full query form with speed in knots converted to km/h and hdop kept', async () => {
    const res = await osmand(`/?id=123456&timestamp=${TS}&lat=60.0&lon=30.0&speed=0.0&bearing=0.0&altitude=0&hdop=0.0`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    const [p] = await stored('123456');
    expect(p).toMatchObject({ latitude: 60, longitude: 30, speed: 0, course: 0, altitude: 0, protocol: 'osmand' });
    expect(p!.fix_time).toEqual(secs(TS));
    expect(p!.attributes).toEqual({ hdop: 0 });
    const d = devices.get('123456')!;
    expect(p!.asset_id).toBe(d.assetId);
    expect(p!.driver_id).toBe(d.driverId);
    expect(p!.organization_id).toBe(orgId);
  });

  it('stores the minimal form, and the same fix sent again is stored once', async () => {
    expect((await osmand(`/?id=123456&timestamp=${TS}&lat=60.0&lon=30.0`)).statusCode).toBe(200);
    expect((await osmand(`/?id=123456&timestamp=${TS}&lat=60.0&lon=30.0`)).statusCode).toBe(200);
    const rows = await stored('123456');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ latitude: 60, longitude: 30, speed: null, course: null });
  });

  it('reads an ISO-8601 timestamp', async () => {
    const res = await osmand(`/?id=902064&lat=42.06288&lon=-88.23412&timestamp=${ISO_Q}&hdop=6.0&altitude=224.0&speed=0.0`);
    expect(res.statusCode).toBe(200);
    const [p] = await stored('902064');
    expect(p).toMatchObject({ latitude: 42.06288, longitude: -88.23412, altitude: 224, speed: 0 });
    expect(p!.fix_time).toEqual(secs(TS));
    expect(p!.attributes).toEqual({ hdop: 6 });
  });

  it('reads a millisecond epoch timestamp', async () => {
    expect((await osmand(`/?id=902064&lat=42.06288&lon=-88.23412&timestamp=${TS_MS}&hdop=6.0&altitude=224.0&speed=0.0`)).statusCode).toBe(200);
    const [p] = await stored('902064');
    expect(p!.fix_time).toEqual(new Date(TS_MS));
  });

  it('reads the local "yyyy-MM-dd HH:mm:ss" form in the server zone', async () => {
    expect((await osmand(`/?lat=49.60688&lon=6.15788&timestamp=${LOCAL_Q}&altitude=384.7&speed=0.0&id=353861053849681`)).statusCode).toBe(200);
    const [p] = await stored('353861053849681');
    expect(p!.fix_time).toEqual(new Date(LOCAL.getFullYear(), LOCAL.getMonth(), LOCAL.getDate(), LOCAL.getHours(), LOCAL.getMinutes(), LOCAL.getSeconds()));
    expect(p!.altitude).toBeCloseTo(384.7, 3);
  });

  it('accepts deviceid and heading aliases and uses the receive time when no timestamp is sent', async () => {
    const before = Date.now();
    expect((await osmand('/?lat=60.0&lon=30.0&speed=0.0&heading=0.0&vacc=0&hacc=0&altitude=0&deviceid=123456')).statusCode).toBe(200);
    const [p] = await stored('123456');
    expect(p!.fix_time.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(p!.fix_time.getTime()).toBeLessThanOrEqual(Date.now());
    expect(p).toMatchObject({ course: 0, altitude: 0 });
    expect(p!.attributes).toEqual({ vacc: 0, hacc: 0 });
  });

  it('stores the battery level', async () => {
    expect((await osmand('/?id=861001000719969&lat=41.666667&lon=-0.883333&altitude=350.059479&speed=0.000000&batt=87')).statusCode).toBe(200);
    const [p] = await stored('861001000719969');
    expect(p).toMatchObject({ latitude: 41.666667, longitude: -0.883333, speed: 0 });
    expect(p!.attributes).toEqual({ batteryLevel: 87 });
  });

  it('reads location=lat,lon', async () => {
    expect((await osmand(`/?id=123456&timestamp=${TS}&location=60.0,30.0`)).statusCode).toBe(200);
    const [p] = await stored('123456');
    expect(p).toMatchObject({ latitude: 60, longitude: 30 });
  });

  it('keeps ignition as a column and extra parameters as typed attributes', async () => {
    const res = await osmand(
      `/?id=123456789012345&timestamp=${TS2}&lat=40.7232948571&lon=-74.0061408571&bearing=7.19889788244&speed=40&ignition=true&rpm=933&fuel=24`,
    );
    expect(res.statusCode).toBe(200);
    const [p] = await stored('123456789012345');
    expect(p!.fix_time).toEqual(secs(TS2));
    expect(p!.ignition).toBe(true);
    expect(p!.speed).toBeCloseTo(40 * 1.852, 3);
    expect(p!.course).toBeCloseTo(7.19889788244, 4);
    expect(p!.attributes).toEqual({ ignition: true, rpm: 933, fuel: 24 });
  });

  it('accepts cell and Wi-Fi without a fix at the last known location', async () => {
    await osmand(`/?id=123456&timestamp=${TS - 67}&lat=60.0&lon=30.0`);
    const res = await osmand(`/?id=123456&timestamp=${TS}&cell=257,02,16,2224&cell=257,02,16,2223,-90&wifi=00-14-22-01-23-45,-80&wifi=00-1C-B3-09-85-15,-70`);
    expect(res.statusCode).toBe(200);
    const rows = await stored('123456');
    expect(rows).toHaveLength(2);
    const p = rows[1]!;
    expect(p).toMatchObject({ latitude: 60, longitude: 30 });
    expect(p.attributes).toEqual({
      approximate: true,
      network: {
        cellTowers: [
          { mobileCountryCode: 257, mobileNetworkCode: 2, locationAreaCode: 16, cellId: 2224 },
          { mobileCountryCode: 257, mobileNetworkCode: 2, locationAreaCode: 16, cellId: 2223, signalStrength: -90 },
        ],
        wifiAccessPoints: [
          { macAddress: '00:14:22:01:23:45', signalStrength: -80 },
          { macAddress: '00:1C:B3:09:85:15', signalStrength: -70 },
        ],
      },
    });
  });

  it('answers 400 without an id and stores nothing', async () => {
    const res = await osmand(`/?timestamp=${TS}&lat=60.0&lon=30.0`);
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res.json(), 400).technicalMessage).toContain('id');
    expect(await sql(`select 1 from positions`)).toHaveLength(0);
  });

  it('answers 400 for an unknown id on the query form and 404 on JSON', async () => {
    expect((await osmand(`/?id=999999&timestamp=${TS}&lat=60.0&lon=30.0`)).statusCode).toBe(400);
    expect((await json({ location: { timestamp: ISO_A, coords: { latitude: 1, longitude: 2 } }, device_id: '999999' })).statusCode).toBe(404);
    expect(await sql(`select 1 from positions`)).toHaveLength(0);
  });

  it('accepts POST with the parameters in the query and an empty body (client 8.x)', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/ingest/osmand?id=123456&timestamp=${TS}&lat=60.0&lon=30.0&speed=10` });
    expect(res.statusCode).toBe(200);
    expect((await stored('123456'))[0]!.speed).toBeCloseTo(18.52, 3);
  });

  it('reads the client 10 form body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/osmand',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=48241179&lat=37.4219983&lon=-122.084&timestamp=${TS}&accuracy=5.0&altitude=5.0&speed=0.0&bearing=0.0&batt=100&charge=false`,
    });
    expect(res.statusCode).toBe(200);
    const [p] = await stored('48241179');
    expect(p).toMatchObject({ latitude: 37.4219983, longitude: -122.084, accuracy: 5, altitude: 5, speed: 0, course: 0 });
    expect(p!.fix_time).toEqual(secs(TS));
    expect(p!.attributes).toEqual({ batteryLevel: 100, charge: false });
  });

  it('acknowledges a client 10 push-token upload without storing a position', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/osmand',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=48241179&notificationToken=abc',
    });
    expect(res.statusCode).toBe(200);
    expect(await stored('48241179')).toHaveLength(0);
  });
});

describe('OsmAnd JSON (Traccar Client 9.x)', () => {
  const body = {
    location: {
      timestamp: ISO_A,
      coords: { latitude: 37.4219983, longitude: -122.084, accuracy: 5, speed: 0, heading: -1, altitude: 5 },
      is_moving: false,
      odometer: 0,
      event: 'motionchange',
      battery: { level: 1, is_charging: false },
      activity: { type: 'still' },
      extras: {},
      _: `&id=48241179&lat=37.4219983&lon=-122.084&timestamp=${ISO_A}&`,
    },
    device_id: '48241179',
  };

  it('stores the reference body', async () => {
    const res = await json(body);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    const [p] = await stored('48241179');
    expect(p!.fix_time).toEqual(new Date(ISO_A));
    expect(p).toMatchObject({ latitude: 37.4219983, longitude: -122.084, accuracy: 5, speed: 0, course: null, altitude: 5, odometer: 0 });
    expect(p!.attributes).toEqual({ motion: false, odometer: 0, event: 'motionchange', activity: 'still', batteryLevel: 100 });
  });

  it('keeps extras with their types', async () => {
    const res = await json({
      ...body,
      location: {
        ...body.location,
        extras: { device_string_test: 'long_device_id', device_bool_test: true, device_integer_twelve_test: 12, device_double_test: 1.345 },
      },
    });
    expect(res.statusCode).toBe(200);
    const [p] = await stored('48241179');
    expect(p!.attributes).toMatchObject({
      device_string_test: 'long_device_id',
      device_bool_test: true,
      device_integer_twelve_test: 12,
      device_double_test: 1.345,
    });
    expect(Number.isInteger(p!.attributes.device_integer_twelve_test)).toBe(true);
  });

  it('ignores unknown speed, heading and battery (-1) from the iOS simulator and keeps mock', async () => {
    const res = await json({
      location: {
        mock: true,
        uuid: '2FB04C65-9C1C-4E4A-8F45-5C9E2B1F0F77',
        age: 188,
        timestamp: ISO_B,
        coords: { latitude: 37.785834, longitude: -122.406417, accuracy: 5, speed: -1, heading: -1, altitude: 0, speed_accuracy: -1 },
        battery: { level: -1, is_charging: false },
        is_moving: false,
        extras: {},
      },
      device_id: '658765',
    });
    expect(res.statusCode).toBe(200);
    const [p] = await stored('658765');
    expect(p!.fix_time).toEqual(new Date(ISO_B));
    expect(p).toMatchObject({ speed: null, course: null, latitude: 37.785834 });
    expect(p!.attributes).toEqual({ mock: true, motion: false });
  });

  it('converts m/s to km/h and the battery fraction to percent', async () => {
    const res = await json({
      location: {
        event: 'motionchange',
        is_moving: false,
        uuid: '0e9a2473-a7e5-4a3a-8a8e-5f2c3c1f1d2b',
        timestamp: ISO_C,
        odometer: 0,
        coords: {
          latitude: -6.1148096,
          longitude: 106.6837015,
          accuracy: 3.8,
          speed: 18.67,
          speed_accuracy: 0.26,
          heading: 63,
          heading_accuracy: 0.28,
          altitude: 35.7,
          altitude_accuracy: 3.8,
        },
        activity: { type: 'still', confidence: 100 },
        battery: { is_charging: false, level: 0.79 },
        extras: {},
      },
      device_id: '8737767034',
    });
    expect(res.statusCode).toBe(200);
    const [p] = await stored('8737767034');
    // 18.67 m/s = 36.29 kn = 67.21 km/h.
    expect(p!.speed).toBeCloseTo(67.212, 2);
    expect(p).toMatchObject({ course: 63, altitude: 35.7, latitude: -6.1148096 });
    expect(p!.accuracy).toBeCloseTo(3.8, 5);
    expect(p!.attributes).toEqual({ motion: false, odometer: 0, event: 'motionchange', activity: 'still', batteryLevel: 79 });
  });

  it('answers 400 without device_id', async () => {
    const res = await json({ location: body.location });
    expect(res.statusCode).toBe(400);
    expect(expectErrorBody(res.json(), 400).technicalMessage).toContain('device_id');
  });
});

describe('invalid fixes', () => {
  it.each([
    [`/?id=123456&timestamp=${TS}&lat=91&lon=30`, 'lat'],
    [`/?id=123456&timestamp=${TS}&lat=-90.5&lon=30`, 'lat'],
    [`/?id=123456&timestamp=${TS}&lat=60&lon=180.01`, 'lon'],
    [`/?id=123456&timestamp=${TS}&lat=abc&lon=30`, 'lat'],
    ['/?id=123456&timestamp=yesterday&lat=60&lon=30', 'timestamp'],
  ])('answers %s as received (so the phone moves on), stores nothing and lists it on the device as refused for %s', async (url, field) => {
    const res = await osmand(url);
    expect(res.statusCode).toBe(200);
    expect(await stored('123456')).toHaveLength(0);
    expect((await refusals('123456')).at(-1)).toMatchObject({ field });
  });

  it('refuses a fix more than 10 minutes in the future but takes one 5 minutes ahead', async () => {
    const now = Math.floor(Date.now() / 1000);
    const far = await osmand(`/?id=123456&timestamp=${now + 11 * 60}&lat=60&lon=30`);
    expect(far.statusCode).toBe(200);
    expect((await refusals('123456')).at(-1)).toMatchObject({ reason: 'inFuture', message: expect.stringContaining('future') });
    expect((await osmand(`/?id=123456&timestamp=${now + 5 * 60}&lat=60&lon=30`)).statusCode).toBe(200);
    expect(await stored('123456')).toHaveLength(1);
  });
});

describe('fixes that cannot be true are refused and counted', () => {
  const refused = async () => {
    const su = await login(t.app, DEMO.superAdmin);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/admin/diagnostics/ingest', headers: bearer(su.accessToken) });
    expect(res.statusCode).toBe(200);
    return (res.json() as IngestDiagnostics).refusedFixes;
  };

  it.each([
    ['a fix more than a year old', (now: number) => `timestamp=${now - 366 * 86_400}&lat=60&lon=30`, 'timestamp', '1 year old', 'tooOld'],
    ['a negative speed', (now: number) => `timestamp=${now - 60}&lat=60&lon=30&speed=-3`, 'speed', 'speed', 'speed'],
    ['a speed that is not a number', (now: number) => `timestamp=${now - 60}&lat=60&lon=30&speed=NaN`, 'speed', 'speed', 'speed'],
    ['an infinite speed', (now: number) => `timestamp=${now - 60}&lat=60&lon=30&speed=Infinity`, 'speed', 'speed', 'speed'],
    ['a negative course', (now: number) => `timestamp=${now - 60}&lat=60&lon=30&bearing=-10`, 'course', 'course', 'course'],
    ['an altitude that is not a number', (now: number) => `timestamp=${now - 60}&lat=60&lon=30&altitude=high`, 'altitude', 'altitude', 'altitude'],
  ])('OsmAnd answers %s as received, stores nothing, counts it and lists the reason on the device', async (_what, query, field, words, reason) => {
    const before = await refused();
    const res = await osmand(`/?id=123456&${query(Math.floor(Date.now() / 1000))}`);
    expect(res.statusCode).toBe(200);
    expect((await refusals('123456')).at(-1)).toMatchObject({ reason, field, message: expect.stringContaining(words) });
    expect(await stored('123456')).toHaveLength(0);
    const after = await refused();
    expect(after[reason as keyof typeof after]).toBe(before[reason as keyof typeof before] + 1);
    expect(after.total).toBe(before.total + 1);
  });

  it('OsmAnd JSON keeps -1 as unknown but refuses another negative speed', async () => {
    const loc = (coords: Record<string, number>) => ({
      device_id: '658765',
      location: { timestamp: new Date(Date.now() - 60_000).toISOString(), coords: { latitude: 37.7, longitude: -122.4, ...coords } },
    });
    expect((await json(loc({ speed: -1, heading: -1 }))).statusCode).toBe(200);
    const bad = await json(loc({ speed: -4 }));
    expect(bad.statusCode).toBe(200);
    expect((await refusals('658765')).at(-1)).toMatchObject({ reason: 'speed', field: 'speed' });
    expect(await stored('658765')).toHaveLength(1);
  });

  it('the batch lists each refused fix and why, stores the rest, and counts them', async () => {
    const d = devices.get('902064')!;
    const before = await refused();
    const now = Date.now();
    const ok = { fixTime: new Date(now - 60_000).toISOString(), latitude: 32.7, longitude: -96.8, speed: 50, course: 90, altitude: -60 };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/positions',
      headers: { authorization: `Bearer ${d.token}` },
      payload: {
        positions: [
          ok,
          { ...ok, fixTime: new Date(now - 400 * 86_400_000).toISOString() },
          { ...ok, fixTime: new Date(now + 11 * 60_000).toISOString() },
          { ...ok, fixTime: new Date(now - 50_000).toISOString(), speed: -1 },
          { ...ok, fixTime: new Date(now - 40_000).toISOString(), course: -5 },
          { ...ok, fixTime: new Date(now - 30_000).toISOString(), altitude: -5000 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accepted).toBe(1);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4, 5]);
    expect(body.rejected[0].message).toMatch(/^fixTime: .*more than 1 year old/);
    expect(body.rejected[1].message).toMatch(/^fixTime: .*future/);
    expect(body.rejected[2].message).toBe('speed: speed must be 0 or more');
    expect(body.rejected[3].message).toBe('course: course must be between 0 and 360');
    expect(body.rejected[4].message).toBe('altitude: altitude must be between -1000 and 20000 m');
    const after = await refused();
    expect(after.total - before.total).toBe(5);
    expect([
      after.tooOld - before.tooOld,
      after.inFuture - before.inFuture,
      after.speed - before.speed,
      after.course - before.course,
      after.altitude - before.altitude,
    ]).toEqual([1, 1, 1, 1, 1]);
  });

  it('the ingest counters are for the super administrator only', async () => {
    const admin = await login(t.app, DEMO.admin);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/diagnostics/ingest', headers: bearer(admin.accessToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/diagnostics/ingest' })).statusCode).toBe(401);
  });
});

describe('batch ingest', () => {
  const post = (token: string | null, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/ingest/positions', headers: token ? { authorization: `Bearer ${token}` } : {}, payload: payload as object });

  it('stores the good positions of a batch and reports the bad one by index', async () => {
    const d = devices.get('902064')!;
    const base = Date.now() - 60_000;
    const res = await post(d.token, {
      positions: [
        { fixTime: new Date(base).toISOString(), latitude: 32.7767, longitude: -96.797, speed: 88, course: 90, ignition: true, odometer: 1_000_000 },
        { fixTime: new Date(base + 1000).toISOString(), latitude: 95, longitude: -96.797 },
        { fixTime: new Date(base + 2000).toISOString(), latitude: 32.7768, longitude: -96.796, speed: 87.5, attributes: { fuel: 51 } },
        { fixTime: new Date(base + 2000).toISOString(), latitude: 32.7768, longitude: -96.796, speed: 87.5 },
        { fixTime: new Date(base + 3600_000).toISOString(), latitude: 32.7768, longitude: -96.796 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accepted).toBe(2);
    expect(body.duplicates).toBe(1);
    expect(body.rejected).toHaveLength(2);
    expect(body.rejected[0]).toMatchObject({ index: 1 });
    expect(body.rejected[0].message).toMatch(/^latitude/);
    expect(body.rejected[1]).toMatchObject({ index: 4 });
    expect(body.rejected[1].message).toMatch(/^fixTime.*future/);
    const rows = await stored('902064');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      speed: 88,
      course: 90,
      ignition: true,
      odometer: 1_000_000,
      protocol: 'batch',
      asset_id: d.assetId,
      driver_id: d.driverId,
    });
    expect(rows[1]!.attributes).toEqual({ fuel: 51 });

    // Sending the same batch again stores nothing new.
    const again = await post(d.token, { positions: [{ fixTime: new Date(base).toISOString(), latitude: 32.7767, longitude: -96.797 }] });
    expect(again.json()).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
  });

  it('keeps the latest position and the device last-seen time current', async () => {
    const d = devices.get('902064')!;
    await t.app.ingest.lastSeen.flush();
    await sql(`update gateways set last_seen_at = null where id = '${d.gatewayId}'`);
    const base = Date.now() - 30_000;
    // Whole milliseconds: the column keeps microseconds, the clock here milliseconds.
    const sent = Date.now() - 1;
    await post(d.token, { positions: [{ fixTime: new Date(base).toISOString(), latitude: 33, longitude: -97, speed: 0, ignition: true }] });
    await post(d.token, { positions: [{ fixTime: new Date(base + 10_000).toISOString(), latitude: 33.1, longitude: -97, speed: 70, ignition: true }] });
    // An older buffered fix is stored but does not move the map.
    await post(d.token, { positions: [{ fixTime: new Date(base - 3600_000).toISOString(), latitude: 30, longitude: -90, speed: 0 }] });
    const [raw] = await sql<{ latitude: number; speed: number; fix_time: Date; last_moving_at: Date; stationary_since: Date | null; driver_id: string }>(
      `select * from latest_positions where asset_id = '${d.assetId}'`,
    );
    const latest = { ...raw!, fix_time: asDate(raw!.fix_time), last_moving_at: asDate(raw!.last_moving_at) };
    expect(latest).toMatchObject({ latitude: 33.1, speed: 70, stationary_since: null, driver_id: d.driverId });
    expect(latest.fix_time).toEqual(new Date(base + 10_000));
    expect(latest.last_moving_at).toEqual(new Date(base + 10_000));
    // The last-seen time follows the commit about a second later (last-seen.ts), without being
    // asked: the time of these posts, not one from before them (it was cleared above).
    await vi.waitFor(
      async () => {
        const [gw] = await sql<{ last_seen_at: Date | null }>(`select last_seen_at from gateways where id = '${d.gatewayId}'`);
        expect(gw!.last_seen_at).not.toBeNull();
        expect(asDate(gw!.last_seen_at).getTime()).toBeGreaterThanOrEqual(sent);
        expect(asDate(gw!.last_seen_at).getTime()).toBeLessThanOrEqual(Date.now());
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(await stored('902064')).toHaveLength(3);
  });

  it('derives the last moving time and the start of the stationary run from the fixes of one batch and the stored state', async () => {
    const d = devices.get('902064')!;
    const base = Date.now() - 600_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const latest = async () => {
      const [r] = await sql<{ last_moving_at: unknown; stationary_since: unknown; speed: number | null }>(
        `select last_moving_at, stationary_since, speed from latest_positions where asset_id = '${d.assetId}'`,
      );
      return {
        lastMovingAt: r!.last_moving_at ? asDate(r!.last_moving_at).toISOString() : null,
        stationarySince: r!.stationary_since ? asDate(r!.stationary_since).toISOString() : null,
        speed: r!.speed,
      };
    };
    // Out of order within the batch: moving at 0 and 10, stopped from 20 (speed 0, then unknown).
    await post(d.token, {
      positions: [
        { fixTime: at(20), latitude: 33, longitude: -97, speed: 0 },
        { fixTime: at(0), latitude: 33, longitude: -97.01, speed: 80 },
        { fixTime: at(30), latitude: 33, longitude: -97 },
        { fixTime: at(10), latitude: 33, longitude: -97.005, speed: 60 },
      ],
    });
    expect(await latest()).toEqual({ lastMovingAt: at(10), stationarySince: at(20), speed: null });
    // Still stopped in the next batch: the run keeps its start.
    await post(d.token, { positions: [{ fixTime: at(40), latitude: 33, longitude: -97, speed: 1 }] });
    expect(await latest()).toEqual({ lastMovingAt: at(10), stationarySince: at(20), speed: 1 });
    // Moves, then stops again within one batch: a new run starts after the last moving fix.
    await post(d.token, {
      positions: [
        { fixTime: at(50), latitude: 33, longitude: -96.99, speed: 50 },
        { fixTime: at(60), latitude: 33, longitude: -96.98, speed: 2 },
        { fixTime: at(70), latitude: 33, longitude: -96.98, speed: 0 },
      ],
    });
    expect(await latest()).toEqual({ lastMovingAt: at(50), stationarySince: at(60), speed: 0 });
    // A fix older than the shown one is stored but changes none of it, even when moving.
    await post(d.token, { positions: [{ fixTime: at(65), latitude: 34, longitude: -96, speed: 90 }] });
    expect(await latest()).toEqual({ lastMovingAt: at(50), stationarySince: at(60), speed: 0 });
    // Moving again clears the stationary run.
    await post(d.token, { positions: [{ fixTime: at(80), latitude: 33, longitude: -96.97, speed: 40 }] });
    expect(await latest()).toEqual({ lastMovingAt: at(80), stationarySince: null, speed: 40 });
    expect(await stored('902064')).toHaveLength(10);
  });

  it('stores attributes with quotes, backslashes and nesting exactly as sent', async () => {
    const d = devices.get('902064')!;
    const attributes = { note: 'say "hi" \\ bye', nested: { a: [1, 'x,y', null], b: '{}' }, unicode: 'Montréal ✓' };
    const res = await post(d.token, { positions: [{ fixTime: new Date(Date.now() - 5000).toISOString(), latitude: 45.5, longitude: -73.6, attributes }] });
    expect(res.json()).toMatchObject({ accepted: 1 });
    expect((await stored('902064'))[0]!.attributes).toEqual(attributes);
  });

  it('answers 401 without a token or with a wrong one, before looking at the body', async () => {
    expect((await post(null, { positions: [] })).statusCode).toBe(401);
    const res = await post('not-a-token', { nonsense: true });
    expect(res.statusCode).toBe(401);
    expectErrorBody(res.json(), 401);
  });

  it('answers 400 for an empty batch or one over 1,000 positions', async () => {
    const d = devices.get('902064')!;
    const empty = await post(d.token, { positions: [] });
    expect(empty.statusCode).toBe(400);
    expectFieldErrors(empty.json(), 400, { positions: 'positions must hold at least one position' });
    const p = { fixTime: new Date().toISOString(), latitude: 1, longitude: 1 };
    const over = await post(d.token, { positions: Array.from({ length: 1001 }, () => p) });
    expect(over.statusCode).toBe(400);
    expectFieldErrors(over.json(), 400, { positions: 'positions can hold at most 1000 positions' });
    expect(await stored('902064')).toHaveLength(0);
  });
});

describe('group commit', () => {
  it('writes concurrent requests in fewer transactions and answers each only once committed', async () => {
    const before = t.app.ingest.committer.transactions;
    const base = Math.floor(Date.now() / 1000) - 3600;
    const replies = await Promise.all(
      IDS.flatMap((id) => Array.from({ length: 10 }, (_, i) => osmand(`/?id=${id}&timestamp=${base + i}&lat=40&lon=-100&speed=${i}`))),
    );
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
    const [count] = await sql<{ n: number }>(`select count(*)::int as n from positions`);
    expect(count!.n).toBe(80);
    expect(t.app.ingest.committer.transactions - before).toBeLessThan(80);
  });
});

describe('group commit of one large write', () => {
  it('splits a write larger than a group into several groups and stores every row', async () => {
    const { GroupCommitter } = await import('./pipeline/group-committer.ts');
    const committer = new GroupCommitter(t.app.db, { maxRows: 3 });
    const d = devices.get('123456')!;
    const base = Math.floor(Date.now() / 1000) - 7200;
    const rows = Array.from({ length: 7 }, (_, i) => ({
      organizationId: orgId,
      gatewayId: d.gatewayId,
      assetId: d.assetId,
      driverId: d.driverId,
      fixTime: secs(base + i),
      latitude: 40,
      longitude: -100,
      speed: i,
      course: null,
      altitude: null,
      accuracy: null,
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: null,
      protocol: 'batch' as const,
      attributes: {},
    }));
    const result = await committer.write(rows);
    expect(result.stored).toEqual(Array(7).fill(true));
    expect(committer.transactions).toBe(3);
    expect(await stored('123456')).toHaveLength(7);
    await committer.close();
  });
});

describe('group commit of devices that send again once answered', () => {
  it('writes the crowd back in one group as soon as it is back, not at the end of the window', async () => {
    const { GroupCommitter } = await import('./pipeline/group-committer.ts');
    // A window far longer than a commit: a group that waited for it shows in the elapsed time.
    const committer = new GroupCommitter(t.app.db, { windowMs: 1000 });
    const base = Math.floor(Date.now() / 1000) - 9000;
    const row = (uniqueId: string, s: number) =>
      testPositionRow(devices.get(uniqueId)!, orgId, secs(base + s), {
        latitude: 42.4321,
        longitude: -101,
        speed: 50,
        course: null,
        ignition: null,
        protocol: 'batch',
      });
    const rounds = 5;
    let secondRoundAt = 0;
    await Promise.all(
      IDS.map(async (id) => {
        for (let r = 0; r < rounds; r++) {
          expect((await committer.write([row(id, r)])).stored).toEqual([true]);
          if (r === 0 && !secondRoundAt) secondRoundAt = Date.now();
          // As a device over the network: its next fix comes a moment after its answer.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    // The first group waits out its window (nobody is expected yet); every later one goes once all
    // the devices just answered are back.
    expect(committer.transactions).toBe(rounds);
    expect(Date.now() - secondRoundAt).toBeLessThan(1000);
    for (const id of IDS) expect((await stored(id)).filter((x) => x.latitude === 42.4321)).toHaveLength(rounds);
    await committer.close();
  });
});

describe('several writers (PostgreSQL server)', () => {
  it('routes each device to its own writer and answers a mixed write in input order, duplicates included', async () => {
    const { ShardedCommitter } = await import('./pipeline/group-committer.ts');
    const committer = new ShardedCommitter(t.app.db, 3);
    const base = Math.floor(Date.now() / 1000) - 5400;
    const row = (uniqueId: string, s: number) =>
      testPositionRow(devices.get(uniqueId)!, orgId, secs(base + s), {
        latitude: 41.4321,
        longitude: -101,
        speed: 50,
        course: null,
        ignition: null,
        protocol: 'batch',
      });
    const mixed = IDS.slice(0, 6).flatMap((id, k) => [row(id, k), row(id, k + 100)]);
    // The fourth device's first fix again, at the end: stored once, reported as a duplicate.
    const result = await committer.write([...mixed, row(IDS[3]!, 3)]);
    expect(result.stored).toEqual([...Array(12).fill(true), false]);
    // Concurrent single-fix writes of different devices all land, each answered once committed.
    const singles = await Promise.all(IDS.map((id, k) => committer.write([row(id, 200 + k)])));
    expect(singles.map((r) => r.stored)).toEqual(IDS.map(() => [true]));
    const lanes = new Set(IDS.map((id) => devices.get(id)!.gatewayId).map((g) => parseInt(g.slice(-4), 16) % 3));
    expect(committer.transactions).toBeGreaterThanOrEqual(lanes.size);
    for (const id of IDS.slice(0, 6)) expect((await stored(id)).filter((r) => r.latitude === 41.4321)).toHaveLength(3);
    await committer.close();
  });
});

describe('the OsmAnd port', () => {
  it('accepts any path over real HTTP, as Traccar Client sends it', async () => {
    const { buildOsmandServer } = await import('./osmand-server.ts');
    const server = await buildOsmandServer(t.app.ingest);
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (server.server.address() as { port: number }).port;
      const get = await fetch(`http://127.0.0.1:${port}/?id=123456&timestamp=${TS}&lat=60.0&lon=30.0`);
      expect(get.status).toBe(200);
      expect(await get.text()).toBe('');
      const form = await fetch(`http://127.0.0.1:${port}/any/path`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `id=48241179&lat=37.4219983&lon=-122.084&timestamp=${TS}&speed=10`,
      });
      expect(form.status).toBe(200);
      const unknown = await fetch(`http://127.0.0.1:${port}/?id=nobody&lat=1&lon=1`);
      expect(unknown.status).toBe(400);
      expect(await stored('123456')).toHaveLength(1);
      expect((await stored('48241179'))[0]!.speed).toBeCloseTo(18.52, 3);
    } finally {
      await server.close();
    }
  });

  it('closes at once when a keep-alive device is mid-request: the fix is answered with Connection: close', async () => {
    const { buildOsmandServer } = await import('./osmand-server.ts');
    const server = await buildOsmandServer(t.app.ingest);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const port = (server.server.address() as { port: number }).port;
    const agent = new http.Agent({ keepAlive: true });
    let closed: Promise<void> | undefined;
    try {
      const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(
          { port, host: '127.0.0.1', method: 'POST', path: '/', agent, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res));
          },
        );
        req.on('error', reject);
        // Half the body now, the rest once the server has the request and close() has begun.
        server.server.once('request', () => {
          closed = server.close();
          req.end(`lon=-87.5&timestamp=${TS}`);
        });
        req.write('id=658765&lat=41.5&');
      });
      const res = await answered;
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
      const started = Date.now();
      await closed;
      // Without it the connection stays open until keepAliveTimeout (30 s); the bound is far from
      // both, for a loaded test machine.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await stored('658765')).toHaveLength(1);
    } finally {
      agent.destroy();
      if (server.server.listening) await server.close();
    }
  });
});
