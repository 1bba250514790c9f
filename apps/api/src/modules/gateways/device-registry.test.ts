import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../test/helpers.ts';
import { registryActors, userWithPermissions } from '../../test/registry.ts';

// Issue 30 on the devices screen (decision 0154): engine data seen per attribute, "GPS only", and
// the ids refused as unknown, each organization seeing only its own.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(() => t?.close());

const base = (orgId = a.orgId) => `/api/v1/organizations/${orgId}/gateways`;
const addDevice = async (uniqueId: string) =>
  (await t.app.inject({ method: 'POST', url: base(), headers: a.admin, payload: { uniqueId, name: `Device ${uniqueId}` } })).json();
const insertPosition = (orgId: string, gatewayId: string, secondsAgo: number, cols: string, values: string) =>
  t.database.db.execute(
    `insert into positions (organization_id, gateway_id, fix_time, latitude, longitude, protocol${cols ? `, ${cols}` : ''}) values ('${orgId}', '${gatewayId}', now() - interval '${secondsAgo} seconds', 41.9, -87.6, 'traccar'${values ? `, ${values}` : ''})` as never,
  );

describe('engine data seen', () => {
  it('says per attribute what the newest positions carried, and "GPS only" when the ELD\'s engine data is missing', async () => {
    const eld = await addDevice('eng-eld-1');
    const phone = await addDevice('eng-gps-1');
    const silent = await addDevice('eng-none-1');
    await insertPosition(
      a.orgId,
      eld.id,
      60,
      'ignition, odometer, odometer_source, engine_hours, attributes',
      `true, 1000, 'ECM', 12.5, '{"ignition":true,"vehicleOdometer":1000,"engineHours":12.5,"rpm":900,"vin":"1FUJGLDR0NLBD1234"}'`,
    );
    await insertPosition(a.orgId, phone.id, 60, 'odometer, odometer_source, attributes', `500, 'GPS', '{"gpsOdometer":500,"motion":true}'`);
    const list = (await t.app.inject({ method: 'GET', url: `${base()}?search=eng-&size=10&sort=uniqueId,asc`, headers: a.dispatcher })).json().content;
    const by = (id: string) => list.find((g: { uniqueId: string }) => g.uniqueId === id).engineData;
    expect(by('eng-eld-1')).toMatchObject({
      gpsOnly: false,
      attributes: { ignition: true, vehicleOdometer: true, engineHours: true, rpm: true, vin: true, gpsOdometer: false, power: false },
    });
    expect(by('eng-eld-1').lastPositionAt).not.toBeNull();
    expect(by('eng-gps-1')).toMatchObject({
      gpsOnly: true,
      attributes: { ignition: false, vehicleOdometer: false, engineHours: false, gpsOdometer: true, motion: true },
    });
    // Nothing received yet: not called GPS only, nothing is known.
    expect(by('eng-none-1')).toMatchObject({ gpsOnly: false, lastPositionAt: null });
    const detail = (await t.app.inject({ method: 'GET', url: `${base()}/${silent.id}`, headers: a.dispatcher })).json();
    expect(detail.engineData.lastPositionAt).toBeNull();
  });
});

describe('refused device ids', () => {
  it("lists to an organization only the ids refused through its own token, never the ones with no organization or another's", async () => {
    const known = t.app.ingest.unknownDevices;
    known.note('ref-mine-1', 'traccar', a.orgId, '203.0.113.5');
    known.note('ref-mine-1', 'traccar', a.orgId, '203.0.113.5');
    known.note('ref-theirs-1', 'traccar', a.otherOrgId, '198.51.100.7');
    known.note('ref-tcp-1', 'teltonika', null, '192.0.2.9');
    const mine = (await t.app.inject({ method: 'GET', url: `${base()}/refused`, headers: a.admin })).json();
    expect(mine.map((d: { uniqueId: string }) => d.uniqueId)).toEqual(['ref-mine-1']);
    expect(mine[0]).toMatchObject({ protocol: 'traccar', attempts: 2 });
    expect(mine[0]).not.toHaveProperty('remoteAddress');
    const theirs = (await t.app.inject({ method: 'GET', url: `${base(a.otherOrgId)}/refused`, headers: a.other })).json();
    expect(theirs.map((d: { uniqueId: string }) => d.uniqueId)).toEqual(['ref-theirs-1']);
    // Not another organization's list, and not for whom may not add devices.
    expect((await t.app.inject({ method: 'GET', url: `${base(a.otherOrgId)}/refused`, headers: a.admin })).statusCode).toBe(404);
    const viewer = await userWithPermissions(t, a.orgId, ['GAT_LIST']);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/refused`, headers: viewer })).statusCode).toBe(403);
  });

  it("answers an exact id typed in the add form: refused with no organization or through this one's token, never another's", async () => {
    const known = t.app.ingest.unknownDevices;
    known.note('ref-look-tcp', 'teltonika', null, '192.0.2.9');
    known.note('ref-look-other', 'traccar', a.otherOrgId, null);
    const look = async (id: string) => (await t.app.inject({ method: 'GET', url: `${base()}/refused/lookup?uniqueId=${id}`, headers: a.admin })).json();
    expect(await look('ref-look-tcp')).toMatchObject({ protocol: 'teltonika', attempts: 1, lastAt: expect.any(String) });
    expect(await look('ref-look-other')).toEqual({ lastAt: null, protocol: null, attempts: 0 });
    expect(await look('ref-look')).toEqual({ lastAt: null, protocol: null, attempts: 0 });
    const bad = await t.app.inject({ method: 'GET', url: `${base()}/refused/lookup?uniqueId=`, headers: a.admin });
    expect(bad.statusCode).toBe(400);
    expectErrorBody(bad.json(), 400);
  });

  it('forgets an id once it is added as a device', async () => {
    t.app.ingest.unknownDevices.note('ref-add-1', 'traccar', a.orgId, null);
    await addDevice('ref-add-1');
    const mine = (await t.app.inject({ method: 'GET', url: `${base()}/refused`, headers: a.admin })).json();
    expect(mine.map((d: { uniqueId: string }) => d.uniqueId)).not.toContain('ref-add-1');
  });

  it('shows the super administrator every refused id with whose token and the address', async () => {
    const url = '/api/v1/admin/diagnostics/refused-devices';
    expect((await t.app.inject({ method: 'GET', url, headers: a.admin })).statusCode).toBe(403);
    const all = (await t.app.inject({ method: 'GET', url, headers: a.superAdmin })).json();
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uniqueId: 'ref-tcp-1', organizationId: null, remoteAddress: '192.0.2.9' }),
        expect.objectContaining({ uniqueId: 'ref-theirs-1', organizationId: a.otherOrgId, organizationName: expect.stringMatching(/^Other Carrier/) }),
      ]),
    );
  });
});
