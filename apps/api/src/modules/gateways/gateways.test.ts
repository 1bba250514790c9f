import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../auth/index.ts';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, registryActors, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const base = (orgId = a.orgId) => `/api/v1/organizations/${orgId}`;
let n = 0;
const deviceBody = (over: Record<string, unknown> = {}) => ({
  uniqueId: `35${Date.now()}${++n}`,
  name: `Tracker ${n}`,
  phone: '+1 312 555 0199',
  firmware: '1.2.3',
  ...over,
});
const tokenHash = async (id: string) =>
  (
    (await t.database.db.execute(`select ingest_token_hash from gateways where id = '${id}'` as never)) as unknown as {
      rows: Array<{ ingest_token_hash: string }>;
    }
  ).rows[0]?.ingest_token_hash;

describe('devices', () => {
  it('lists the 25 demo devices paired with trucks 101-125, searchable by unique id', async () => {
    const all = (await t.app.inject({ method: 'GET', url: `${base()}/gateways?size=50&sort=uniqueId,asc`, headers: a.admin })).json();
    expect(all.totalElements).toBe(25);
    // Some demo trucks are Teltonika devices known by IMEI (decision 0156), the others phones.
    const phones = all.content.filter((g: { uniqueId: string }) => g.uniqueId.startsWith('demo-truck-0'));
    expect(phones.length).toBeGreaterThan(0);
    const page = (await t.app.inject({ method: 'GET', url: `${base()}/gateways?search=demo-truck-0&size=50`, headers: a.dispatcher })).json();
    expect(page.totalElements).toBe(phones.length);
    expect(phones[0]).toMatchObject({
      uniqueId: expect.stringMatching(/^demo-truck-0\d$/),
      asset: { unitNumber: expect.stringMatching(/^10\d$/) },
      deviceModel: { protocol: 'osmand' },
      hasIngestToken: true,
    });
    expect(JSON.stringify(all)).not.toContain('ingestTokenHash');
    const unpaired = (await t.app.inject({ method: 'GET', url: `${base()}/gateways?paired=false`, headers: a.admin })).json();
    expect(unpaired.totalElements).toBe(0);
  });

  it('creates a device with an ingest token shown once and stored as its SHA-256, and regenerates it', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${base()}/gateways`, headers: a.admin, payload: deviceBody() });
    expect(res.statusCode).toBe(201);
    const g = res.json();
    expect(g.ingestToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await tokenHash(g.id)).toBe(sha256(g.ingestToken));
    const detail = (await t.app.inject({ method: 'GET', url: `${base()}/gateways/${g.id}`, headers: a.dispatcher })).json();
    expect(detail.ingestToken).toBeUndefined();
    const regen = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g.id}/token`, headers: a.admin });
    expect(regen.statusCode).toBe(200);
    expect(regen.json().ingestToken).not.toBe(g.ingestToken);
    expect(await tokenHash(g.id)).toBe(sha256(regen.json().ingestToken));
    const log = JSON.stringify(await t.database.db.execute(`select changes from activity_log where entity_id = '${g.id}'` as never));
    expect(log).not.toContain(g.ingestToken);
    expect(log).not.toContain(sha256(g.ingestToken));
  });

  it('answers 409 for a unique id registered in any organization, without naming it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${base(a.otherOrgId)}/gateways`,
      headers: a.other,
      payload: deviceBody({ uniqueId: 'demo-truck-01' }),
    });
    expect(res.statusCode).toBe(409);
    const { message } = expectFieldErrors(res.json(), 409, { uniqueId: 'A device with unique id demo-truck-01 is already registered' });
    expect(message).not.toContain('Demo Freight');
  });

  it('answers 400 per field, 403 without GAT_CREATE, 401 without a token', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: `${base()}/gateways`,
      headers: a.admin,
      payload: { uniqueId: 'has space', name: '', deviceModelId: 'x', phone: 'call me' },
    });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, {
      uniqueId: 'Unique id may use letters, digits and . _ : -',
      name: 'Name is a required field',
      deviceModelId: 'Device model must be a device model id',
      phone: 'Phone is not valid.',
    });
    const unknownModel = await t.app.inject({
      method: 'POST',
      url: `${base()}/gateways`,
      headers: a.admin,
      payload: deviceBody({ deviceModelId: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(unknownModel.statusCode).toBe(400);
    expectFieldErrors(unknownModel.json(), 400, { deviceModelId: 'Device model does not exist' });
    expect((await t.app.inject({ method: 'POST', url: `${base()}/gateways`, headers: a.dispatcher, payload: deviceBody() })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/gateways`, payload: deviceBody() })).statusCode).toBe(401);
    const noRead = await userWithPermissions(t, a.orgId, ['GAT_LIST']);
    const g = (await t.app.inject({ method: 'GET', url: `${base()}/gateways`, headers: noRead })).json().content[0];
    expect((await t.app.inject({ method: 'GET', url: `${base()}/gateways/${g.id}`, headers: noRead })).statusCode).toBe(403);
  });

  it('pairs one device per vehicle, moves a device between vehicles, keeps pairing history, and unpairs', async () => {
    const v1 = (await t.app.inject({ method: 'POST', url: `${base()}/assets`, headers: a.admin, payload: vehicleBody() })).json();
    const v2 = (await t.app.inject({ method: 'POST', url: `${base()}/assets`, headers: a.admin, payload: vehicleBody() })).json();
    const g1 = (await t.app.inject({ method: 'POST', url: `${base()}/gateways`, headers: a.admin, payload: deviceBody() })).json();
    const g2 = (await t.app.inject({ method: 'POST', url: `${base()}/gateways`, headers: a.admin, payload: deviceBody() })).json();
    const pair = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g1.id}/pair/${v1.id}`, headers: a.admin });
    expect(pair.statusCode).toBe(200);
    expect(pair.json().asset).toMatchObject({ id: v1.id });
    const taken = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g2.id}/pair/${v1.id}`, headers: a.admin });
    expect(taken.statusCode).toBe(409);
    expect(expectErrorBody(taken.json(), 409).message).toContain('unpair it first');
    const moved = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g1.id}/pair/${v2.id}`, headers: a.admin });
    expect(moved.json().pairingHistory.map((p: { asset: { id: string }; to: string | null }) => [p.asset.id, p.to === null])).toEqual([
      [v2.id, true],
      [v1.id, false],
    ]);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/assets/${v2.id}`, headers: a.admin })).json().device).toMatchObject({ id: g1.id });
    expect((await t.app.inject({ method: 'GET', url: `${base()}/assets/${v1.id}`, headers: a.admin })).json().device).toBeNull();
    const unpair = await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g1.id}/unpair`, headers: a.admin });
    expect(unpair.json().asset).toBeNull();
    expect((await activityRows(t.database.db as never, g1.id)).map((r) => r.action)).toEqual([
      'CREATE',
      'PAIR_DEVICE',
      'UNPAIR_DEVICE',
      'PAIR_DEVICE',
      'UNPAIR_DEVICE',
    ]);
    const trailer = (await t.app.inject({ method: 'POST', url: `${base()}/assets`, headers: a.admin, payload: trailerBody() })).json();
    expect((await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g2.id}/pair/${trailer.id}`, headers: a.admin })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: `${base()}/gateways/${g2.id}/pair/${v1.id}`, headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${base(a.otherOrgId)}/gateways/${g2.id}/pair/${v1.id}`, headers: a.other })).statusCode).toBe(404);
  });

  it('deletes a never-paired device and deactivates one with history', async () => {
    const fresh = (await t.app.inject({ method: 'POST', url: `${base()}/gateways`, headers: a.admin, payload: deviceBody() })).json();
    expect((await t.app.inject({ method: 'DELETE', url: `${base()}/gateways/${fresh.id}`, headers: a.admin })).json().result).toBe('DELETED');
    const demo = (await t.app.inject({ method: 'GET', url: `${base()}/gateways?search=demo-truck-25`, headers: a.admin })).json().content[0];
    const res = await t.app.inject({ method: 'DELETE', url: `${base()}/gateways/${demo.id}`, headers: a.admin });
    expect(res.json().result).toBe('DEACTIVATED');
    expect((await t.app.inject({ method: 'GET', url: `${base()}/gateways/${demo.id}`, headers: a.admin })).json()).toMatchObject({
      status: 'INACTIVE',
      asset: null,
    });
  });

  it('edits a device and refuses a duplicate unique id', async () => {
    const g = (await t.app.inject({ method: 'POST', url: `${base()}/gateways`, headers: a.admin, payload: deviceBody() })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `${base()}/gateways/${g.id}`,
      headers: a.admin,
      payload: deviceBody({ uniqueId: g.uniqueId, name: 'Renamed', firmware: '2.0' }),
    });
    expect(res.json()).toMatchObject({ name: 'Renamed', firmware: '2.0' });
    const dup = await t.app.inject({ method: 'PUT', url: `${base()}/gateways/${g.id}`, headers: a.admin, payload: deviceBody({ uniqueId: 'demo-truck-02' }) });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, { uniqueId: 'A device with unique id demo-truck-02 is already registered' });
  });
});
