import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/settings/device-models';

describe('device models (global catalogue)', () => {
  it('is readable by any signed-in user (for the device form) and not without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const page = (await t.app.inject({ method: 'GET', url, headers: a.dispatcher })).json();
    expect(page).toMatchObject({ size: 100 });
    // The demo seed's models (their device counts follow the demo fleet).
    expect(page.content).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Traccar Client (OsmAnd)', protocol: 'osmand' })]));
  });

  it('lets only the super administrator create, edit and delete models', async () => {
    for (const headers of [a.admin, a.dispatcher]) {
      const res = await t.app.inject({ method: 'POST', url, headers, payload: { name: 'Queclink GV300', protocol: 'gl200' } });
      expect(res.statusCode).toBe(403);
      expectErrorBody(res.json(), 403);
    }
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: a.superAdmin,
      payload: { name: 'Queclink GV300', manufacturer: 'Queclink', protocol: 'GL200' },
    });
    expect(created.statusCode).toBe(201);
    const m = created.json();
    expect(m).toMatchObject({ protocol: 'gl200', deviceCount: 0 });
    const dup = await t.app.inject({ method: 'POST', url, headers: a.superAdmin, payload: { name: 'queclink gv300', protocol: 'gl200' } });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, { name: 'A device model named queclink gv300 already exists' });
    const bad = await t.app.inject({ method: 'POST', url, headers: a.superAdmin, payload: { name: '', protocol: 'no spaces allowed' } });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, { name: 'Name is a required field', protocol: 'Protocol may use letters, digits, _ and -' });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `${url}/${m.id}`,
      headers: a.superAdmin,
      payload: { name: 'Queclink GV300W', protocol: 'gl200', notes: '3G' },
    });
    expect(edited.json()).toMatchObject({ name: 'Queclink GV300W', notes: '3G' });
    expect((await t.app.inject({ method: 'PUT', url: `${url}/${m.id}`, headers: a.admin, payload: { name: 'x', protocol: 'y' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${m.id}`, headers: a.superAdmin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${m.id}`, headers: a.superAdmin })).statusCode).toBe(404);
  });

  it('refuses to delete a model devices use', async () => {
    const m = (await t.app.inject({ method: 'GET', url, headers: a.admin })).json().content.find((x: { deviceCount: number }) => x.deviceCount > 0);
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/${m.id}`, headers: a.superAdmin });
    expect(res.statusCode).toBe(409);
    expect(expectErrorBody(res.json(), 409).message).toContain(`${m.deviceCount} device`);
  });
});

describe('reference lists', () => {
  it('lists states and provinces, US time zones and unit systems to signed-in users', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings/states' })).statusCode).toBe(401);
    const states = (await t.app.inject({ method: 'GET', url: '/api/v1/settings/states', headers: a.dispatcher })).json();
    expect(states).toEqual(
      expect.arrayContaining([
        { code: 'TX', name: 'Texas', country: 'US' },
        { code: 'ON', name: 'Ontario', country: 'CA' },
      ]),
    );
    expect(states.length).toBe(65);
    const zones = (await t.app.inject({ method: 'GET', url: '/api/v1/settings/time-zone/us', headers: a.dispatcher })).json();
    expect(zones.map((z: { id: string }) => z.id)).toEqual(
      expect.arrayContaining([
        'America/New_York',
        'America/Chicago',
        'America/Denver',
        'America/Phoenix',
        'America/Los_Angeles',
        'America/Anchorage',
        'Pacific/Honolulu',
      ]),
    );
    for (const z of zones) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: z.id })).not.toThrow();
    const units = (await t.app.inject({ method: 'GET', url: '/api/v1/settings/units', headers: a.dispatcher })).json();
    expect(units.map((u: { id: string }) => u.id)).toEqual(['IMPERIAL', 'METRIC']);
  });
});

describe('device models: protocol and IO map (issue 30)', () => {
  it('stores, reads and edits the IO map; an edit without it keeps it; a bad map is a 400 naming the field', async () => {
    const ioMap = {
      '239': { attribute: 'ignition' },
      '87': { attribute: 'vehicleOdometer' },
      '102': { attribute: 'engineHours', multiplier: 1 / 60 },
      '10800': { attribute: 'fuelTemp', multiplier: 0.1 },
    };
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: a.superAdmin,
      payload: { name: 'Teltonika FMC650', manufacturer: 'Teltonika', protocol: 'teltonika', ioMap },
    });
    expect(created.statusCode).toBe(201);
    const m = created.json();
    expect(m).toMatchObject({ protocol: 'teltonika', ioMap });
    const listed = (await t.app.inject({ method: 'GET', url: `${url}?search=FMC650`, headers: a.admin })).json().content[0];
    expect(listed.ioMap).toEqual(ioMap);
    const kept = await t.app.inject({
      method: 'PUT',
      url: `${url}/${m.id}`,
      headers: a.superAdmin,
      payload: { name: 'Teltonika FMC650 CAN', protocol: 'teltonika' },
    });
    expect(kept.json()).toMatchObject({ name: 'Teltonika FMC650 CAN', ioMap });
    const emptied = await t.app.inject({
      method: 'PUT',
      url: `${url}/${m.id}`,
      headers: a.superAdmin,
      payload: { name: 'Teltonika FMC650 CAN', protocol: 'teltonika', ioMap: {} },
    });
    expect(emptied.json().ioMap).toEqual({});
    for (const [bad, path] of [
      [{ abc: { attribute: 'ignition' } }, 'ioMap.abc'],
      [{ '239': { attribute: 'not a name' } }, 'ioMap.239.attribute'],
      [{ '239': { attribute: 'ignition', multiplier: 0 } }, 'ioMap.239.multiplier'],
    ] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `${url}/${m.id}`,
        headers: a.superAdmin,
        payload: { name: 'Teltonika FMC650 CAN', protocol: 'teltonika', ioMap: bad },
      });
      expect(res.statusCode, path).toBe(400);
      expect(expectErrorBody(res.json(), 400).technicalMessage).toContain(path);
    }
    expect((await t.app.inject({ method: 'GET', url: `${url}?search=FMC650`, headers: a.admin })).json().content[0].ioMap).toEqual({});
  });
});
