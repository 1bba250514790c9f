import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Traccar's JSON forwarding with the organization's ingest token (decision 0154).

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let token: string;
let otherToken: string;
const url = '/api/v1/ingest/traccar';
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'trc-860000000000001' });
  await createTestVehicle(t.app.db, a.otherOrgId, { uniqueId: 'trc-other-1' });
  token = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/ingest-token`, headers: a.admin })).json().token;
  otherToken = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/ingest-token`, headers: a.other })).json().token;
});
afterAll(() => t?.close());

const fixTime = new Date(Date.now() - 600_000);
/** As Traccar 6's PositionForwarderJson writes it (model/Position.java, model/Device.java). */
const forwarded = (over: { uniqueId?: string; at?: Date; speed?: number; attributes?: Record<string, unknown> } = {}) => ({
  position: {
    id: 0,
    attributes: over.attributes ?? {
      priority: 0,
      sat: 12,
      event: 0,
      ignition: true,
      motion: true,
      odometer: 1_234_500,
      obdOdometer: 987_654_321,
      hours: 5_400_000_000,
      vin: '1fujgldr0nlbd1234',
      power: 27.9,
      rpm: 1450,
      obdSpeed: 40,
      fuel: 61,
    },
    deviceId: 17,
    protocol: 'teltonika',
    serverTime: new Date().toISOString().replace('Z', '+00:00'),
    deviceTime: (over.at ?? fixTime).toISOString().replace('Z', '+00:00'),
    fixTime: (over.at ?? fixTime).toISOString().replace('Z', '+00:00'),
    outdated: false,
    valid: true,
    latitude: 41.8781,
    longitude: -87.6298,
    altitude: 181,
    speed: over.speed ?? 35,
    course: 270,
    address: null,
    accuracy: 0,
    network: null,
    geofenceIds: null,
  },
  device: {
    id: 17,
    attributes: {},
    groupId: 0,
    calendarId: 0,
    name: 'Truck 17',
    uniqueId: over.uniqueId ?? 'trc-860000000000001',
    status: 'online',
    lastUpdate: new Date().toISOString(),
    positionId: 0,
    phone: null,
    model: 'FMC650',
    contact: null,
    category: 'truck',
    disabled: false,
    expirationTime: null,
  },
});
const post = (body: unknown, authorization = token) =>
  t.app.inject({ method: 'POST', url, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
interface Row {
  speed: number;
  odometer: number;
  odometer_source: string;
  engine_hours: number;
  ignition: boolean;
  protocol: string;
  attributes: Record<string, unknown>;
}
const stored = (uniqueId: string) =>
  sql<Row>(
    `select p.* from positions p join gateways g on g.organization_id = p.organization_id and g.id = p.gateway_id where g.unique_id = '${uniqueId}' order by p.fix_time`,
  );

describe('POST /ingest/traccar', () => {
  it("stores the engine columns from Traccar's attributes, speed converted from knots, after the commit", async () => {
    const res = await post(forwarded());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stored: true });
    const [row] = await stored('trc-860000000000001');
    expect(row).toBeDefined();
    expect(row!.speed).toBeCloseTo(35 * 1.852, 3);
    expect(row).toMatchObject({ odometer: 987_654_321, odometer_source: 'ECM', ignition: true, protocol: 'traccar' });
    expect(row!.engine_hours).toBeCloseTo(1500, 6);
    expect(row!.attributes).toMatchObject({
      ignition: true,
      motion: true,
      gpsOdometer: 1_234_500,
      vehicleOdometer: 987_654_321,
      engineHours: 1500,
      vin: '1FUJGLDR0NLBD1234',
      power: 27.9,
      rpm: 1450,
      // Traccar's fuel (litres) is the fuel in the tank (issue 68).
      fuelLevelLitres: 61,
      sat: 12,
      traccarProtocol: 'teltonika',
    });
    expect(row!.attributes.vehicleSpeed as number).toBeCloseTo(40 * 1.852, 6);
    // Traccar's own names of what was renamed are not kept twice.
    expect(row!.attributes).not.toHaveProperty('hours');
    expect(row!.attributes).not.toHaveProperty('obdOdometer');
    expect(row!.attributes).not.toHaveProperty('fuel');
    const status = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/ingest-token`, headers: a.admin })).json();
    expect(status.lastUsedAt).not.toBeNull();
  });

  it('does not store a resend twice', async () => {
    const at = new Date(Date.now() - 300_000);
    expect((await post(forwarded({ at, attributes: { odometer: 5000 } }))).json()).toEqual({ stored: true });
    const again = await post(forwarded({ at, attributes: { odometer: 5000 } }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ stored: false });
    const rows = (await stored('trc-860000000000001')).filter((r) => r.odometer === 5000);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ odometer_source: 'GPS', engine_hours: null, ignition: null });
  });

  it('accepts the token raw or as Bearer, and answers 401 to any other', async () => {
    expect((await post(forwarded({ at: new Date(Date.now() - 200_000) }), `Bearer ${token}`)).statusCode).toBe(200);
    for (const auth of ['', 'Bearer nope', 'nope']) {
      const res = await post(forwarded(), auth);
      expect(res.statusCode).toBe(401);
      expectErrorBody(res.json(), 401);
    }
  });

  it("refuses another organization's device and an unknown one with 404, stores nothing and notes the id for the token's organization", async () => {
    const before = (await stored('trc-other-1')).length;
    const res = await post(forwarded({ uniqueId: 'trc-other-1', at: new Date(Date.now() - 100_000) }));
    expect(res.statusCode).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe('Unknown device trc-other-1');
    expect((await stored('trc-other-1')).length).toBe(before);
    expect((await post(forwarded({ uniqueId: 'trc-nobody' }))).statusCode).toBe(404);
    const noted = t.app.ingest.unknownDevices.recent({ organizationId: a.orgId }).map((d) => d.uniqueId);
    expect(noted).toEqual(expect.arrayContaining(['trc-other-1', 'trc-nobody']));
    // The device's own organization, with its own token, is stored.
    expect((await post(forwarded({ uniqueId: 'trc-other-1' }), otherToken)).statusCode).toBe(200);
  });

  it('stores at once for an id registered right after it was refused', async () => {
    expect((await post(forwarded({ uniqueId: 'trc-late-1' }))).statusCode).toBe(404);
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/gateways`,
      headers: a.admin,
      payload: { uniqueId: 'trc-late-1', name: 'Late' },
    });
    expect(added.statusCode).toBe(201);
    expect((await post(forwarded({ uniqueId: 'trc-late-1' }))).statusCode).toBe(200);
  });

  it("gives the engine records of an ELD: power-up and shut-down from the ignition, with the engine's miles and hours", async () => {
    const v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'trc-engine-1' });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const engine = (ignition: boolean, metres: number, hoursMs: number) => ({ ignition, motion: ignition, obdOdometer: metres, hours: hoursMs });
    for (const [ago, attributes] of [
      [30, engine(false, 500_000_000, 3_600_000_000)],
      [25, engine(true, 500_000_000, 3_600_000_000)],
      [10, engine(true, 500_020_000, 3_601_080_000)],
      [5, engine(false, 500_024_000, 3_601_260_000)],
    ] as const) {
      expect((await post(forwarded({ uniqueId: 'trc-engine-1', at: at(ago), speed: ago === 10 ? 30 : 0, attributes }))).statusCode).toBe(200);
    }
    await t.app.engineEvents.idle();
    const events = await sql<{ event_code: number; driver_id: string | null; odometer_m: number; engine_hours: number }>(
      `select event_code, driver_id, odometer_m, engine_hours from hos_events where vehicle_id = '${v.assetId}' and event_type = 6 order by event_time`,
    );
    expect(events.map((e) => e.event_code)).toEqual([1, 3]);
    expect(events[0]).toMatchObject({ driver_id: v.driverId, odometer_m: 500_000_000 });
    expect(events[0]!.engine_hours).toBeCloseTo(1000, 6);
    expect(events[1]).toMatchObject({ driver_id: v.driverId, odometer_m: 500_024_000 });
    expect(events[1]!.engine_hours).toBeCloseTo(1000.35, 6);
  });

  it('answers 400 naming the field for a body that names no device, and stores nothing', async () => {
    const count = async () => (await sql<{ n: number }>(`select count(*)::int as n from positions where protocol = 'traccar'`))[0]!.n;
    const n = await count();
    const cases: Array<[unknown, string]> = [
      [{ device: { uniqueId: 'trc-860000000000001' } }, 'position'],
      [{ position: forwarded().position }, 'device'],
      [{ ...forwarded(), device: { uniqueId: '' } }, 'device.uniqueId'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.statusCode, field).toBe(400);
      expect(expectErrorBody(res.json(), 400).technicalMessage).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: `));
    }
    expect(await count()).toBe(n);
  });

  it('answers a position refused for its content 200 with the reason (Traccar would resend it for ever), stores nothing and lists it on the device', async () => {
    const count = async () => (await sql<{ n: number }>(`select count(*)::int as n from positions where protocol = 'traccar'`))[0]!.n;
    const n = await count();
    const cases: Array<[unknown, string]> = [
      [{ ...forwarded(), position: { ...forwarded().position, latitude: 'x' } }, 'position.latitude'],
      [{ ...forwarded(), position: { ...forwarded().position, latitude: 123 } }, 'position.latitude'],
      [{ ...forwarded(), position: { ...forwarded().position, fixTime: 'yesterday' } }, 'position.fixTime'],
      [{ ...forwarded(), position: { ...forwarded().position, fixTime: '2014-03-01T10:00:00.000+0000' } }, 'position.fixTime'],
      [{ ...forwarded(), position: { ...forwarded().position, speed: -3 } }, 'position.speed'],
      [{ ...forwarded(), position: { ...forwarded().position, accuracy: 1e308 } }, 'position.accuracy'],
      [forwarded({ attributes: { hours: 'lots' } }), 'position.attributes.hours'],
      [forwarded({ attributes: { ignition: 'on' } }), 'position.attributes.ignition'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.statusCode, field).toBe(200);
      expect(res.json(), field).toMatchObject({ stored: false, refused: expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}`)) });
    }
    expect(await count()).toBe(n);
    await t.app.ingest.refusedFixes?.flush();
    const listed = await sql<{ n: number }>(`select coalesce(sum(count), 0)::int as n from refused_fixes where protocol = 'traccar'`);
    expect(listed[0]!.n).toBeGreaterThanOrEqual(cases.length);
  });
});

describe("the organization's ingest token", () => {
  it('is created and rotated under the organization account permissions, shown once, stored hashed', async () => {
    const base = `/api/v1/organizations/${a.orgId}/ingest-token`;
    expect((await t.app.inject({ method: 'GET', url: base, headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: base, headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: base, headers: a.other })).statusCode).toBe(404);
    const status = (await t.app.inject({ method: 'GET', url: base, headers: a.admin })).json();
    expect(status).toMatchObject({ exists: true, ingestUrl: expect.stringMatching(/\/api\/v1\/ingest\/traccar$/) });
    expect(status).not.toHaveProperty('token');
    const [org] = await sql<{ ingest_token_hash: string }>(`select ingest_token_hash from organizations where id = '${a.orgId}'`);
    expect(org!.ingest_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(org!.ingest_token_hash).not.toContain(token);
    const rotated = (await t.app.inject({ method: 'POST', url: base, headers: a.admin })).json();
    expect(rotated.token).not.toBe(token);
    expect(rotated).toMatchObject({ exists: true, lastUsedAt: null });
    // The directory remembers tokens for a few seconds; a fresh app instance sees the rotation at once.
    const t2 = await createTestApp();
    try {
      expect((await t2.app.inject({ method: 'POST', url, headers: { authorization: token }, payload: forwarded() })).statusCode).toBe(401);
    } finally {
      await t2.close();
    }
    token = rotated.token;
    expect((await post(forwarded({ at: new Date(Date.now() - 50_000) }))).statusCode).toBe(200);
  });
});
