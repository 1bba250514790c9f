import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverPageSchema } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions, vehicleBody } from '../../test/registry.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const url = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/drivers${rest}`;

describe('drivers list', () => {
  it('pages the 25 demo drivers by last name with their vehicle and group', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(a.orgId), headers: a.dispatcher });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 0, size: 15, totalElements: 25, totalPages: 2 });
    expect(page.content[0]).toMatchObject({ lastName: 'Anderson', vehicle: { type: 'VEHICLE' }, ruleset: 'US_PROPERTY_70_8' });
    const names = page.content.map((d: { lastName: string }) => d.lastName);
    expect([...names].sort((x: string, y: string) => x.localeCompare(y))).toEqual(names);
  });

  it('shows each driver in the list exactly as their detail does, in the contract shape', async () => {
    const page = driverPageSchema.parse((await t.app.inject({ method: 'GET', url: url(a.orgId, '?size=50'), headers: a.admin })).json());
    expect(page.content).toHaveLength(25);
    expect(page.content.some((d) => d.licenseExpiry !== null)).toBe(true);
    for (const item of page.content) {
      const detail = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${item.id}`), headers: a.admin })).json();
      expect(detail).toMatchObject(item);
    }
    const deep = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?page=4&search=a'), headers: a.admin })).json();
    expect(deep.content).toEqual([]);
    expect(deep.totalElements).toBeGreaterThan(0);
  });

  it('searches name, licence and employee id, and filters by group and status', async () => {
    const byName = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=lopez'), headers: a.admin })).json();
    expect(byName.content.map((d: { firstName: string }) => d.firstName)).toEqual(['Maria']);
    const lic = byName.content[0].licenseNumber;
    const byLicence = (await t.app.inject({ method: 'GET', url: url(a.orgId, `?search=${lic.toLowerCase()}`), headers: a.admin })).json();
    expect(byLicence.totalElements).toBe(1);
    const byEmployee = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=DF-1025'), headers: a.admin })).json();
    expect(byEmployee.content[0].lastName).toBe('Hall');
    const groups = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/groups`, headers: a.admin })).json();
    const east = groups.content.find((g: { name: string }) => g.name === 'East region');
    const inEast = (await t.app.inject({ method: 'GET', url: url(a.orgId, `?group=${east.id}&size=50`), headers: a.admin })).json();
    expect(inEast.totalElements).toBe(12);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, '?status=INACTIVE'), headers: a.admin })).json().totalElements).toBe(0);
  });

  it('answers 401, 403 without DRIVER_LIST, and 404 for another organization', async () => {
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId) })).statusCode).toBe(401);
    const limited = await userWithPermissions(t, a.orgId, ['ASSET_LIST']);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId), headers: limited })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId), headers: a.other })).statusCode).toBe(404);
  });
});

describe('adding and editing drivers', () => {
  it('creates a driver with HoS settings and exemptions, and logs it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: url(a.orgId),
      headers: a.admin,
      payload: driverBody({
        email: 'New.Driver@Example.com',
        phone: '+1 (214) 555-0100',
        licenseNumber: 'tx-12345678',
        licenseState: 'tx',
        licenseClass: 'A',
        licenseExpiry: '2029-03-31',
        homeTimeZone: 'America/Denver',
        ruleset: 'US_PROPERTY_60_7',
        shortHaul150: true,
        personalConveyanceAllowed: true,
        eldExempt: true,
        eldExemptReason: 'Drives a pre-2000 engine',
      }),
    });
    expect(res.statusCode).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({
      email: 'new.driver@example.com',
      licenseNumber: 'TX-12345678',
      licenseState: 'TX',
      licenseExpiry: '2029-03-31',
      homeTimeZone: 'America/Denver',
      ruleset: 'US_PROPERTY_60_7',
      shortHaul150: true,
      eldExempt: true,
      vehicle: null,
      vehicleHistory: [],
    });
    expect((await activityRows(t.database.db as never, d.id)).map((r) => r.action)).toEqual(['CREATE']);
  });

  it('answers 400 per field and saves nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ firstName: '' }, 'firstName: First name is a required field'],
      [{ licenseNumber: '' }, 'licenseNumber: Licence number is a required field'],
      [{ licenseState: 'ZZ' }, 'licenseState: Licence state is not a US state or Canadian province code'],
      [{ email: 'nope' }, 'email: Email must be a valid email address'],
      [{ homeTimeZone: 'Mars/Base' }, 'homeTimeZone: Home time zone is not valid.'],
      [{ ruleset: 'EU_561' }, 'ruleset: Ruleset must be one of'],
      [{ licenseExpiry: '31/12/2027' }, 'licenseExpiry: Licence expiry must be a date like 2027-06-30'],
      [{ licenseClass: 'Z' }, 'licenseClass: Licence class must be A, B, C or NON_CDL'],
      [{ eldExempt: true }, 'eldExemptReason: Give the reason'],
      [{ userId: 'me' }, 'userId: Sign-in account must be a user id'],
    ];
    const before = (await t.app.inject({ method: 'GET', url: url(a.orgId), headers: a.admin })).json().totalElements;
    for (const [over, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: driverBody(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(expectErrorBody(res.json(), 400).technicalMessage).toContain(message);
    }
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId), headers: a.admin })).json().totalElements).toBe(before);
    expect((await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.dispatcher, payload: driverBody() })).statusCode).toBe(403);
  });

  it('answers 409 naming the licence for a duplicate licence number and state, and for a linked account', async () => {
    const body = driverBody();
    expect((await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body })).statusCode).toBe(201);
    const dup = await t.app.inject({
      method: 'POST',
      url: url(a.orgId),
      headers: a.admin,
      payload: driverBody({ licenseNumber: body.licenseNumber.toLowerCase() }),
    });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, {
      licenseNumber: `Licence ${body.licenseNumber.toUpperCase()} (${body.licenseState}) is already used by another driver`,
    });
    // Same number in another state is another licence.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: url(a.orgId),
          headers: a.admin,
          payload: driverBody({ licenseNumber: body.licenseNumber, licenseState: 'WI' }),
        })
      ).statusCode,
    ).toBe(201);
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: a.dispatcher })).json();
    expect((await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: driverBody({ userId: me.id }) })).statusCode).toBe(201);
    const twice = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: driverBody({ userId: me.id }) });
    expect(twice.statusCode).toBe(409);
    expectFieldErrors(twice.json(), 409, { userId: 'This sign-in account is already linked to another driver' });
    const foreignUser = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: a.other })).json();
    const foreign = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: driverBody({ userId: foreignUser.id }) });
    expect(foreign.statusCode).toBe(400);
    expectFieldErrors(foreign.json(), 400, { userId: 'Sign-in account is not a user of this organization' });
  });

  it('edits a driver; deactivating releases their vehicle; other organizations get 404', async () => {
    const d = (await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: driverBody() })).json();
    const v = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/assets`, headers: a.admin, payload: vehicleBody() })).json();
    await t.app.inject({ method: 'PUT', url: `/api/v1/organizations/${a.orgId}/assets/${v.id}/driver/${d.id}`, headers: a.admin });
    const res = await t.app.inject({
      method: 'PUT',
      url: url(a.orgId, `/${d.id}`),
      headers: a.admin,
      payload: driverBody({ firstName: 'Edited', licenseNumber: d.licenseNumber, status: 'INACTIVE' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Edited', status: 'INACTIVE', vehicle: null });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/assets/${v.id}`, headers: a.admin })).json().currentDriver).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: url(a.otherOrgId, `/${d.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: url(a.orgId, `/${d.id}`), headers: a.dispatcher, payload: driverBody() })).statusCode).toBe(403);
  });

  it('deletes a driver who never drove and deactivates one with history', async () => {
    const fresh = (await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: driverBody() })).json();
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${fresh.id}`), headers: a.dispatcher })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${fresh.id}`), headers: a.admin })).json().result).toBe('DELETED');
    const carter = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=carter'), headers: a.admin })).json().content[0];
    const res = (await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${carter.id}`), headers: a.admin })).json();
    expect(res.result).toBe('DEACTIVATED');
    const after = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${carter.id}`), headers: a.admin })).json();
    expect(after).toMatchObject({ status: 'INACTIVE', vehicle: null });
  });
});
