import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEldFile, utcOffsetHours } from '@fleet/eld';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions } from '../../test/registry.ts';
import { DEMO_TERMINAL_ROWS } from '../../seed/demo-terminals.ts';

// Issue 46: the organization's home terminals in settings; a driver belongs to one, takes its zone,
// and the log's header (office and roadside) and the ELD file's carrier line are the terminal's.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const url = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/terminals${rest}`;
const body = (over: Record<string, unknown> = {}) => ({
  name: `Reno yard ${Date.now()}`,
  addressLine1: '1200 E Commercial Row',
  city: 'Reno',
  state: 'nv',
  postalCode: '89512',
  timeZone: 'America/Los_Angeles',
  ...over,
});
type TerminalBody = { id: string; name: string; address: string; timeZone: string; driverCount: number; state: string };

describe('home terminals', () => {
  it('the demo has its five hub terminals (and the Mountain yards), each demo driver at the terminal of their zone', async () => {
    const page = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?size=50'), headers: a.admin })).json() as { content: TerminalBody[] };
    const names = page.content.map((x) => x.name);
    for (const hub of ['Chicago terminal', 'Dallas terminal', 'Indianapolis terminal', 'Atlanta terminal', 'Los Angeles terminal'])
      expect(names).toContain(hub);
    expect(page.content.length).toBe(DEMO_TERMINAL_ROWS.length);
    const rows = (await t.database.db.execute(
      `select d.license_state as state, d.home_time_zone as zone, t.time_zone as terminal_zone, t.name from drivers d left join terminals t on t.organization_id = d.organization_id and t.id = d.home_terminal_id where d.email like '%@demofreight.test'` as never,
    )) as unknown as { rows: Array<{ state: string; zone: string; terminal_zone: string | null; name: string | null }> };
    expect(rows.rows).toHaveLength(25);
    for (const r of rows.rows) expect(r.terminal_zone, JSON.stringify(r)).toBe(r.zone);
    expect(new Set(rows.rows.filter((r) => r.state === 'CA').map((r) => r.name))).toEqual(new Set(['Los Angeles terminal']));
    expect(new Set(rows.rows.filter((r) => r.state === 'TX').map((r) => r.name))).toEqual(new Set(['Dallas terminal']));
  });

  it('creates, edits and deletes a terminal, logging each; a taken name is a 409 and bad input a 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body({ name: 'Reno yard' }) });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json() as TerminalBody;
    expect(made).toMatchObject({
      name: 'Reno yard',
      state: 'NV',
      address: '1200 E Commercial Row, Reno, NV 89512',
      timeZone: 'America/Los_Angeles',
      driverCount: 0,
    });
    const dup = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body({ name: 'reno YARD' }) });
    expectFieldErrors(dup.json(), 409, { name: 'A terminal named reno YARD already exists' });
    const bad = await t.app.inject({
      method: 'POST',
      url: url(a.orgId),
      headers: a.admin,
      payload: { name: '', addressLine1: 'x', city: 'Reno', state: 'ZZ', timeZone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    const text = JSON.stringify(bad.json());
    for (const field of ['name', 'state', 'timeZone']) expect(text).toContain(field);
    const fixed = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body({ timeZone: 'UTC' }) });
    expectFieldErrors(fixed.json(), 400, { timeZone: 'Time zone is not valid.' });

    const edited = await t.app.inject({
      method: 'PUT',
      url: url(a.orgId, `/${made.id}`),
      headers: a.admin,
      payload: body({ name: 'Reno terminal', postalCode: '' }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Reno terminal', address: '1200 E Commercial Row, Reno, NV' });
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${made.id}`), headers: a.admin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, `/${made.id}`), headers: a.admin })).statusCode).toBe(404);
    expect((await activityRows(t.database.db as never, made.id)).map((r) => [r.action, r.entity_type])).toEqual([
      ['CREATE', 'TERMINAL'],
      ['UPDATE', 'TERMINAL'],
      ['DELETE', 'TERMINAL'],
    ]);
  });

  it('reading takes ORG_READ or DRIVER_LIST (the driver form picks one), changing takes ORG_UPDATE; no token is a 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId) })).statusCode).toBe(401);
    const driverLister = await userWithPermissions(t, a.orgId, ['DRIVER_LIST']);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId), headers: driverLister })).statusCode).toBe(200);
    const reader = await userWithPermissions(t, a.orgId, ['ORG_READ']);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId), headers: reader })).statusCode).toBe(200);
    expectErrorBody((await t.app.inject({ method: 'POST', url: url(a.orgId), headers: reader, payload: body() })).json(), 403);
    const nobody = await userWithPermissions(t, a.orgId, ['ASSET_LIST']);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId), headers: nobody })).statusCode).toBe(403);
  });

  it("another organization's terminal is never seen nor changed, nor given to a driver", async () => {
    const theirs = (await t.app.inject({ method: 'POST', url: url(a.otherOrgId), headers: a.other, payload: body() })).json() as TerminalBody;
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: url(a.orgId, `/${theirs.id}`), headers: a.admin, ...(method === 'PUT' ? { payload: body() } : {}) });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: url(a.otherOrgId), headers: a.admin })).statusCode).toBe(404);
    const mine = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?size=100'), headers: a.admin })).json() as { content: TerminalBody[] };
    expect(mine.content.map((x) => x.id)).not.toContain(theirs.id);
    const driver = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers`,
      headers: a.admin,
      payload: driverBody({ homeTerminalId: theirs.id }),
    });
    expectFieldErrors(driver.json(), 400, { homeTerminalId: 'Home terminal must be a terminal of the organization' });
  });

  it("a driver takes the terminal's zone; the log header shows its address and the ELD file its zone's offset; the zone follows the terminal; in use it cannot be deleted", async () => {
    const reno = (
      await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body({ name: `Sparks terminal ${Date.now()}` }) })
    ).json() as TerminalBody;
    // The form's zone is the terminal's once a terminal is chosen.
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers`,
      headers: a.admin,
      payload: driverBody({ homeTerminalId: reno.id, homeTimeZone: 'America/New_York' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const driver = created.json() as { id: string; homeTerminalId: string; homeTimeZone: string } & Record<string, unknown>;
    expect(driver).toMatchObject({ homeTerminalId: reno.id, homeTimeZone: 'America/Los_Angeles' });
    const listed = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/organizations/${a.orgId}/drivers?search=${encodeURIComponent(String(driver.lastName))}`,
        headers: a.admin,
      })
    ).json() as { content: Array<{ id: string; homeTerminalId: string | null }> };
    expect(listed.content.find((d) => d.id === driver.id)?.homeTerminalId).toBe(reno.id);

    const day = (
      await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/drivers/${driver.id}/hos_log/current-day`, headers: a.admin })
    ).json() as { header: { homeTerminal: string; timeZone: string; carrier: { mainOffice: string | null } } };
    expect(day.header.homeTerminal).toBe(`${reno.name}, 1200 E Commercial Row, Reno, NV 89512`);
    expect(day.header.homeTerminal).not.toBe(day.header.carrier.mainOffice);
    expect(day.header.timeZone).toBe('America/Los_Angeles');

    const file = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/drivers/${driver.id}/hos_log/eld-output`, headers: a.admin });
    expect(file.statusCode, file.body).toBe(200);
    const parsed = parseEldFile(file.body);
    expect(parsed.header.timeZoneOffsetHours).toBe(utcOffsetHours(Date.now(), 'America/Los_Angeles'));

    // The terminal moves to Mountain time: so does its driver (the log days follow the terminal).
    const moved = await t.app.inject({
      method: 'PUT',
      url: url(a.orgId, `/${reno.id}`),
      headers: a.admin,
      payload: body({ name: reno.name, timeZone: 'America/Denver' }),
    });
    expect(moved.json()).toMatchObject({ timeZone: 'America/Denver', driverCount: 1 });
    const after = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/drivers/${driver.id}`, headers: a.admin })).json() as {
      homeTimeZone: string;
    };
    expect(after.homeTimeZone).toBe('America/Denver');

    const refused = await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${reno.id}`), headers: a.admin });
    expect(expectErrorBody(refused.json(), 409).message).toBe(
      `${reno.name} is the home terminal of 1 driver: give that driver another home terminal before deleting it`,
    );

    // An edit that leaves the terminal out keeps it; null clears it, and the form's zone then stands.
    const rest = driverBody({ firstName: 'Kept' });
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.orgId}/drivers/${driver.id}`,
      headers: a.admin,
      payload: { ...rest, lastName: driver.lastName, licenseNumber: driver.licenseNumber, homeTimeZone: 'America/Chicago' },
    });
    expect(kept.json()).toMatchObject({ homeTerminalId: reno.id, homeTimeZone: 'America/Denver' });
    const cleared = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.orgId}/drivers/${driver.id}`,
      headers: a.admin,
      payload: { ...rest, lastName: driver.lastName, licenseNumber: driver.licenseNumber, homeTimeZone: 'America/Chicago', homeTerminalId: null },
    });
    expect(cleared.json()).toMatchObject({ homeTerminalId: null, homeTimeZone: 'America/Chicago' });
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${reno.id}`), headers: a.admin })).statusCode).toBe(204);
  });
});
