import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Defect, EngineFault, Page } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Issue 46 (decision 0191): engine faults from Traccar's `dtcs`, through ingest and the follower,
// read and acted on through the API (Teltonika's elements: positions/teltonika-faults.test.ts).

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let token: string;
let obdTruck: TestVehicle;
let groundTruck: TestVehicle;
let otherTruck: TestVehicle;
const sql = async <T>(q: string) => rowsOf<T>(await t.database.db.execute(q as never));

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  obdTruck = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'flt-obd-1' });
  groundTruck = await createTestVehicle(t.app.db, a.orgId, { uniqueId: 'flt-ground-1', unitNumber: 'G-1' });
  otherTruck = await createTestVehicle(t.app.db, a.otherOrgId, { uniqueId: 'flt-other-1' });
  token = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/ingest-token`, headers: a.admin })).json().token;
});
afterAll(() => t?.close());

const base = Date.now() - 3_600_000;
let seq = 0;
/** A position as Traccar's JSON forwarding posts it, a second after the last one. */
function forward(uniqueId: string, attributes: Record<string, unknown>) {
  const at = new Date(base + ++seq * 1000).toISOString();
  const body = {
    position: {
      id: 0,
      attributes,
      deviceId: 1,
      protocol: 'teltonika',
      fixTime: at,
      deviceTime: at,
      valid: true,
      latitude: 41.8781,
      longitude: -87.6298,
      altitude: 181,
      speed: 10,
      course: 90,
      accuracy: 0,
    },
    device: { id: 1, name: 'Truck', uniqueId, status: 'online' },
  };
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/traccar',
    headers: { authorization: token, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

const list = async (v: TestVehicle, query = '', headers = a.admin) => {
  await t.app.engineFaults.idle();
  return t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/assets/${v.assetId}/engine-faults${query}`, headers });
};
const faults = async (v: TestVehicle, status: 'ACTIVE' | 'CLEARED') => {
  const res = await list(v, `?status=${status}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as Page<EngineFault>).content;
};

describe("engine faults from Traccar's dtcs", () => {
  it('lists the codes a device reports as active, with their standard description, and clears the one it stops reporting', async () => {
    expect((await forward(obdTruck.uniqueId, { ignition: true, dtcs: 'P0301 P0420' })).statusCode).toBe(200);
    const active = await faults(obdTruck, 'ACTIVE');
    expect(active.map((f) => f.code).sort()).toEqual(['P0301', 'P0420']);
    const p0301 = active.find((f) => f.code === 'P0301')!;
    expect(p0301).toMatchObject({ source: 'OBD', description: 'Cylinder 1 misfire detected', grounding: false, defectId: null });
    expect(p0301).not.toHaveProperty('spn');
    expect(p0301).not.toHaveProperty('clearedAt');
    expect(p0301.firstSeenAt).toBe(p0301.lastSeenAt);

    expect((await forward(obdTruck.uniqueId, { ignition: true, dtcs: 'P0420' })).statusCode).toBe(200);
    expect((await faults(obdTruck, 'ACTIVE')).map((f) => f.code)).toEqual(['P0420']);
    const [cleared] = await faults(obdTruck, 'CLEARED');
    expect(cleared).toMatchObject({ id: p0301.id, code: 'P0301' });
    expect(Date.parse(cleared!.clearedAt!)).toBeGreaterThan(Date.parse(cleared!.lastSeenAt));

    // An empty list is the device saying there is none.
    await forward(obdTruck.uniqueId, { ignition: true, dtcs: '' });
    expect(await faults(obdTruck, 'ACTIVE')).toEqual([]);
    // Both states when no status is asked, the most recently seen first; paged like every list.
    const page = (await (await list(obdTruck, '?size=1')).json()) as Page<EngineFault>;
    expect(page).toMatchObject({ page: 0, size: 1, totalElements: 2, totalPages: 2 });
    expect(page.content[0]!.code).toBe('P0420');
  });

  it('reads J1939 codes in a dtcs list, and a code that returns is a new episode', async () => {
    await forward(obdTruck.uniqueId, { dtcs: 'P0420 SPN 110 FMI 0' });
    const active = await faults(obdTruck, 'ACTIVE');
    expect(active.map((f) => f.code).sort()).toEqual(['P0420', 'SPN 110 FMI 0']);
    expect(active.find((f) => f.code === 'SPN 110 FMI 0')).toMatchObject({
      source: 'J1939',
      spn: 110,
      fmi: 0,
      description: 'Engine coolant temperature: data valid but above normal operational range (most severe)',
    });
    expect((await faults(obdTruck, 'CLEARED')).filter((f) => f.code === 'P0420')).toHaveLength(1);
  });

  it('stores the position and leaves malformed fault data out, counting it', async () => {
    const before = t.app.engineFaults.stats.malformed;
    const res = await forward(obdTruck.uniqueId, { ignition: true, dtcs: 'P0420 not-a-code' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ stored: true });
    const active = await faults(obdTruck, 'ACTIVE');
    // Nothing cleared by a list read wrong.
    expect(active.map((f) => f.code).sort()).toEqual(['P0420', 'SPN 110 FMI 0']);
    expect(t.app.engineFaults.stats.malformed).toBe(before + 1);
    const [n] = await sql<{ n: number }>(
      `select count(*)::int as n from positions where gateway_id = '${obdTruck.gatewayId}' and attributes->>'dtcs' = 'P0420 not-a-code'`,
    );
    expect(n!.n).toBe(1);
    // A DM1 value of the wrong kind or size is left out the same way.
    expect((await forward(obdTruck.uniqueId, { dm1Dtc: 'hot', dm1: 'zz' })).statusCode).toBe(200);
    await t.app.engineFaults.idle();
    expect(t.app.engineFaults.stats.malformed).toBe(before + 3);
  });

  it("notifies a new active fault by the users' choices, once", async () => {
    await t.app.engineFaults.idle();
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/notifications?kind=ENGINE_FAULT&size=50`, headers: a.admin });
    expect(res.statusCode).toBe(200);
    const titles = (res.json().content as Array<{ title: string; expandedButton?: { url?: string } }>).map((n) => n.title);
    const unit = `U-${obdTruck.uniqueId}`;
    expect(titles.filter((x) => x === `Vehicle ${unit}: engine fault P0301`)).toHaveLength(1);
    // P0420 came back after clearing: a second episode, a second notice.
    expect(titles.filter((x) => x === `Vehicle ${unit}: engine fault P0420`)).toHaveLength(2);
  });
});

describe('faults to defects', () => {
  let faultId: string;
  it('makes a fault a defect of its vehicle in one call, and the defect goes on a work order', async () => {
    await forward(groundTruck.uniqueId, { dtcs: 'P0171' });
    const [f] = await faults(groundTruck, 'ACTIVE');
    faultId = f!.id;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/assets/${groundTruck.assetId}/engine-faults/${faultId}/defect`,
      headers: a.admin,
      payload: {},
    });
    expect(res.statusCode).toBe(201);
    const d = res.json() as Defect;
    expect(d).toMatchObject({
      dvirId: null,
      engineFaultId: faultId,
      asset: { id: groundTruck.assetId, unitNumber: 'G-1' },
      label: 'Engine fault P0171',
      safety: false,
      status: 'OPEN',
    });
    expect(d.note).toContain('System too lean (bank 1)');
    expect((await faults(groundTruck, 'ACTIVE'))[0]!.defectId).toBe(d.id);
    const defects = (
      await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/defects?assetId=${groundTruck.assetId}`, headers: a.admin })
    ).json();
    expect(defects.content.map((x: Defect) => x.id)).toEqual([d.id]);
    const wo = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/work-orders`,
      headers: a.admin,
      payload: { assetId: groundTruck.assetId, title: 'Lean mixture', defectIds: [d.id] },
    });
    expect(wo.statusCode).toBe(201);
    expect(wo.json().defectIds).toEqual([d.id]);
    // Once: a second click is a 409 with the spec's body.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/assets/${groundTruck.assetId}/engine-faults/${faultId}/defect`,
      headers: a.admin,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expectErrorBody(again.json(), 409);
  });

  it('takes grounding codes in any usual spelling, refuses what is no code, and a new grounding fault becomes a safety defect on its own', async () => {
    const url = `/api/v1/organizations/${a.orgId}/maintenance/grounding-codes`;
    const bad = await t.app.inject({ method: 'PUT', url, headers: a.admin, payload: { codes: ['P0217', 'coolant'] } });
    expect(bad.statusCode).toBe(400);
    expect(expectErrorBody(bad.json(), 400).technicalMessage).toContain('codes.1');
    const put = await t.app.inject({ method: 'PUT', url, headers: a.admin, payload: { codes: ['p0217', '100/1', 'SPN 111', ' 110-16 '] } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ codes: ['P0217', 'SPN 100 FMI 1', 'SPN 111', 'SPN 110 FMI 16'] });
    expect((await t.app.inject({ method: 'GET', url, headers: a.admin })).json()).toEqual(put.json());
    expect((await t.app.inject({ method: 'PUT', url, headers: a.dispatcher, payload: { codes: [] } })).statusCode).toBe(403);

    // SPN 111 with any FMI grounds the vehicle.
    await forward(groundTruck.uniqueId, { dtcs: 'P0171 111/1' });
    const f = (await faults(groundTruck, 'ACTIVE')).find((x) => x.code === 'SPN 111 FMI 1')!;
    expect(f).toMatchObject({ grounding: true, description: 'Engine coolant level: data valid but below normal operational range (most severe)' });
    expect(f.defectId).not.toBeNull();
    const defects = (
      await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/defects?assetId=${groundTruck.assetId}&safety=true`, headers: a.admin })
    ).json();
    expect(defects.content).toEqual([
      expect.objectContaining({ id: f.defectId, engineFaultId: f.id, safety: true, label: 'Engine fault SPN 111 FMI 1', dvirId: null }),
    ]);
    const notes = (
      await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/notifications?kind=ENGINE_FAULT&size=50`, headers: a.admin })
    ).json();
    const n = notes.content.find((x: { title: string }) => x.title === 'Vehicle G-1: engine fault SPN 111 FMI 1');
    expect(n.expandedContent).toContain('grounding');
  });
});

describe('GET /assets/{assetId}/engine-faults', () => {
  it("401 without a session, 400 naming a bad status, 404 for another organization's vehicle or a trailer id", async () => {
    const url = `/api/v1/organizations/${a.orgId}/assets/${obdTruck.assetId}/engine-faults`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'GET', url: `${url}?status=OPEN`, headers: a.admin });
    expect(bad.statusCode).toBe(400);
    expect(expectErrorBody(bad.json(), 400).message).toContain('status must be ACTIVE or CLEARED');
    // Another organization's vehicle, asked within ours, is not there; asking in theirs is refused.
    const foreign = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/assets/${otherTruck.assetId}/engine-faults`, headers: a.admin });
    expect(foreign.statusCode).toBe(404);
    expectErrorBody(foreign.json(), 404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.otherOrgId}/assets/${obdTruck.assetId}/engine-faults`, headers: a.other }))
        .statusCode,
    ).toBe(404);
    expect([403, 404]).toContain(
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.otherOrgId}/assets/${otherTruck.assetId}/engine-faults`, headers: a.admin }))
        .statusCode,
    );
    // Nor can a fault of ours be made a defect through another organization's vehicle.
    const [f] = await faults(obdTruck, 'ACTIVE');
    const cross = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.otherOrgId}/assets/${otherTruck.assetId}/engine-faults/${f!.id}/defect`,
      headers: a.other,
      payload: {},
    });
    expect(cross.statusCode).toBe(404);
    // The dispatcher reads a vehicle's maintenance data, so its faults; making defects stays with the shop.
    expect((await list(obdTruck, '', a.dispatcher)).statusCode).toBe(200);
    const denied = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/assets/${obdTruck.assetId}/engine-faults/${f!.id}/defect`,
      headers: a.dispatcher,
      payload: {},
    });
    expect(denied.statusCode).toBe(403);
    expectErrorBody(denied.json(), 403);
  });
});
