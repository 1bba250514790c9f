import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetPageSchema } from '@fleet/api-contract';
import { createTestApp, expectErrorBody, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, freshVin, registryActors, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const url = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/assets${rest}`;

describe('assets list', () => {
  it('answers 401 without a token and 403 without ASSET_LIST', async () => {
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId) })).statusCode).toBe(401);
    const noList = await userWithPermissions(t, a.orgId, ['DRIVER_LIST']);
    const denied = await t.app.inject({ method: 'GET', url: url(a.orgId), headers: noList });
    expect(denied.statusCode).toBe(403);
    expectErrorBody(denied.json(), 403);
  });

  it("answers 404 for another organization's list", async () => {
    const res = await t.app.inject({ method: 'GET', url: url(a.otherOrgId), headers: a.admin });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });

  it('pages the demo fleet 15 at a time, sorted by unit number, with driver, device, trailers and groups', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(a.orgId, '?type=VEHICLE'), headers: a.dispatcher });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 0, size: 15, totalElements: 25, totalPages: 2 });
    expect(page.content).toHaveLength(15);
    expect(page.content.map((v: { unitNumber: string }) => v.unitNumber).slice(0, 3)).toEqual(['101', '102', '103']);
    const first = page.content[0];
    expect(first.currentDriver).toMatchObject({ firstName: 'James', lastName: 'Carter' });
    expect(first.device).toMatchObject({ uniqueId: 'demo-truck-01' });
    expect(first.trailers).toEqual([expect.objectContaining({ unitNumber: 'T-501', type: 'TRAILER' })]);
    expect(first.groups).toEqual([expect.objectContaining({ name: 'East region' })]);
    const second = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?type=VEHICLE&page=1&sort=unitNumber,desc&size=5'), headers: a.admin })).json();
    expect(second.content.map((v: { unitNumber: string }) => v.unitNumber)).toEqual(['120', '119', '118', '117', '116']);
  });

  it('shows each vehicle and trailer in the list exactly as its detail does, in the contract shape', async () => {
    for (const type of ['VEHICLE', 'TRAILER']) {
      const res = await t.app.inject({ method: 'GET', url: url(a.orgId, `?type=${type}&size=50`), headers: a.admin });
      const page = assetPageSchema.parse(res.json());
      expect(page.content.length).toBeGreaterThan(5);
      for (const item of page.content) {
        const detail = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${item.id}`), headers: a.admin })).json();
        expect(detail).toMatchObject(item);
      }
    }
  });

  it('counts the matches on a searched page and past the last page', async () => {
    const deep = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?type=VEHICLE&page=9'), headers: a.admin })).json();
    expect(deep).toMatchObject({ content: [], page: 9, totalElements: 25, totalPages: 2 });
    const searched = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=t-50&size=2&page=1'), headers: a.admin })).json();
    expect(searched).toMatchObject({ page: 1, size: 2, totalElements: 9, totalPages: 5 });
    expect(searched.content).toHaveLength(2);
    const none = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=no-such-unit'), headers: a.admin })).json();
    expect(none).toMatchObject({ content: [], totalElements: 0, totalPages: 0 });
  });

  it('searches unit, VIN, plate and make, and filters by type, status and group', async () => {
    const trailers = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?type=TRAILER&size=50'), headers: a.admin })).json();
    expect(trailers.totalElements).toBe(12);
    const attached = trailers.content.find((x: { unitNumber: string }) => x.unitNumber === 'T-503');
    expect(attached.attachedTo).toMatchObject({ unitNumber: '103', type: 'VEHICLE' });
    const byUnit = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=t-50'), headers: a.admin })).json();
    expect(byUnit.totalElements).toBe(9);
    const truck = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=112'), headers: a.admin })).json();
    expect(truck.content[0].unitNumber).toBe('112');
    const byVin = (
      await t.app.inject({ method: 'GET', url: url(a.orgId, `?search=${truck.content[0].vin.slice(-8).toLowerCase()}`), headers: a.admin })
    ).json();
    expect(byVin.content.map((x: { unitNumber: string }) => x.unitNumber)).toEqual(['112']);
    const byMake = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=KENWORTH&type=VEHICLE'), headers: a.admin })).json();
    expect(byMake.totalElements).toBeGreaterThan(2);
    expect(byMake.content.every((x: { make: string }) => x.make === 'Kenworth')).toBe(true);
    const groups = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/groups`, headers: a.admin })).json();
    const west = groups.content.find((g: { name: string }) => g.name === 'West region');
    const inWest = (await t.app.inject({ method: 'GET', url: url(a.orgId, `?group=${west.id}&type=VEHICLE&size=50`), headers: a.admin })).json();
    expect(inWest.totalElements).toBe(13);
    expect(inWest.content[0].unitNumber).toBe('113');
    const wildcard = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=%25'), headers: a.admin })).json();
    expect(wildcard.totalElements).toBe(0);
  });

  it('rejects an unknown sort field, a bad type, group, size and page with 400s naming them in words', async () => {
    const cases = [
      ['?sort=password,asc', 'sort', 'sort must be one of'],
      ['?type=BOAT', 'querystring.type', 'type must be VEHICLE or TRAILER'],
      ['?group=nope', 'querystring.group', 'group must be a group id'],
      ['?size=0', 'querystring.size', 'size must be a whole number from 1 to 500'],
      ['?page=-1', 'querystring.page', 'page must be a whole number of 0 or more'],
      ['?page=first', 'querystring.page', 'page must be a whole number of 0 or more'],
    ] as const;
    for (const [q, path, words] of cases) {
      const res = await t.app.inject({ method: 'GET', url: url(a.orgId, q), headers: a.admin });
      expect(res.statusCode, q).toBe(400);
      const body = expectErrorBody(res.json(), 400);
      expect(body.message, q).toContain(words);
      expect(body.technicalMessage, q).toContain(`${path}: ${words}`);
    }
  });

  it('names a bad path parameter in words', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(a.orgId, '/not-an-id'), headers: a.admin });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, { 'params.assetId': 'assetId must be an id' });
  });
});

describe('adding and editing vehicles and trailers', () => {
  it('creates a vehicle, normalizing plate and state, and records it in the activity log', async () => {
    const body = vehicleBody();
    const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body });
    expect(res.statusCode).toBe(201);
    const v = res.json();
    expect(v).toMatchObject({
      unitNumber: body.unitNumber,
      vin: body.vin,
      plate: 'P-123',
      plateState: 'IL',
      fuelType: 'DIESEL',
      odometerKm: 120000,
      status: 'ACTIVE',
      currentDriver: null,
      device: null,
    });
    expect((await activityRows(t.database.db as never, v.id)).map((r) => r.action)).toEqual(['CREATE']);
    const got = await t.app.inject({ method: 'GET', url: url(a.orgId, `/${v.id}`), headers: a.dispatcher });
    expect(got.json()).toMatchObject({ id: v.id, recentActivity: [expect.objectContaining({ action: 'CREATE' })], driverHistory: [], deviceHistory: [] });
  });

  it('creates a trailer with type and length', async () => {
    const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: trailerBody() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'TRAILER', trailerType: 'REEFER', lengthM: 16.15, vin: null, fuelType: null });
  });

  it('answers 403 to a dispatcher without ASSET_CREATE, whatever the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.dispatcher, payload: {} });
    expect(res.statusCode).toBe(403);
    expectErrorBody(res.json(), 403);
  });

  it('answers 400 per field and saves nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ unitNumber: '' }, 'unitNumber: Unit number is a required field'],
      [{ vin: '1HGCM82633A004353' }, 'vin: VIN check digit does not match'],
      [{ vin: '1HGCM8263' }, 'vin: VIN must be exactly 17 characters'],
      [{ year: 1900 }, 'year: Year must be 1950 or later'],
      [{ plateState: 'XX' }, 'plateState: Plate state is not a US state or Canadian province code'],
      [{ fuelType: 'KEROSENE' }, 'fuelType: Fuel type is not an IFTA fuel type'],
      [{ odometerKm: -5 }, 'odometerKm: Odometer cannot be negative'],
      [{ type: 'BOAT' }, 'type: Type must be VEHICLE or TRAILER'],
    ];
    for (const [over, message] of cases) {
      const body = vehicleBody(over);
      const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(expectErrorBody(res.json(), 400).technicalMessage).toContain(message);
      const search = (
        await t.app.inject({ method: 'GET', url: url(a.orgId, `?search=${encodeURIComponent(String(body.unitNumber || 'zzzz-none'))}`), headers: a.admin })
      ).json();
      expect(search.totalElements).toBe(0);
    }
    const trailer = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: trailerBody({ trailerType: 'HOPPER', lengthM: 90 }) });
    expect(trailer.statusCode).toBe(400);
    expectFieldErrors(trailer.json(), 400, {
      trailerType: 'Trailer type must be one of DRY_VAN, REEFER, FLATBED, TANKER, OTHER',
      lengthM: 'Length is too large',
    });
  });

  it('answers one 400 naming every bad field in words, and saves nothing', async () => {
    const count = async (table: string) =>
      ((await t.database.db.execute(`select count(*)::int as n from ${table}` as never)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;
    const [assetsBefore, activityBefore] = [await count('assets'), await count('activity_log')];
    const body = { type: 'VEHICLE', unitNumber: `U${'9'.repeat(40)}`, make: 'M'.repeat(61), year: 'soon', plateState: 'ZZ', iftaQualified: 'yes' };
    const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body });
    expect(res.statusCode).toBe(400);
    const { message } = expectFieldErrors(res.json(), 400, {
      vin: 'VIN is a required field',
      unitNumber: 'Unit number must be at most 32 characters',
      make: 'Make must be at most 60 characters',
      year: 'Year must be a number',
      plateState: 'Plate state is not a US state or Canadian province code',
      iftaQualified: 'IFTA qualified must be true or false',
    });
    expect(message.split('; ')).toHaveLength(6);
    expect([await count('assets'), await count('activity_log')]).toEqual([assetsBefore, activityBefore]);
  });

  it('answers 409 saying what clashed for a duplicate unit number or VIN, case-insensitively, without constraint names', async () => {
    const body = vehicleBody();
    expect((await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: body })).statusCode).toBe(201);
    const unit = await t.app.inject({
      method: 'POST',
      url: url(a.orgId),
      headers: a.admin,
      payload: vehicleBody({ unitNumber: body.unitNumber.toLowerCase() }),
    });
    expect(unit.statusCode).toBe(409);
    const unitError = expectFieldErrors(unit.json(), 409, {
      unitNumber: `Unit number ${body.unitNumber.toLowerCase()} is already used by another vehicle or trailer`,
    });
    expect(unitError.message).toBe(`Unit number ${body.unitNumber.toLowerCase()} is already used by another vehicle or trailer`);
    expect(unit.body).not.toMatch(/assets_org_unit_uq|_uq\b|constraint/);
    const vin = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: vehicleBody({ vin: body.vin.toLowerCase() }) });
    expect(vin.statusCode).toBe(409);
    expectFieldErrors(vin.json(), 409, { vin: `A vehicle or trailer with VIN ${body.vin} already exists in this organization` });
    expect(vin.body).not.toMatch(/assets_org_vin_uq|_uq\b|constraint/);
    // Another organization may register the same unit number and VIN.
    expect((await t.app.inject({ method: 'POST', url: url(a.otherOrgId), headers: a.other, payload: body })).statusCode).toBe(201);
  });

  it('edits a vehicle, refuses to turn it into a trailer, and hides it from other organizations', async () => {
    const v = (await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: vehicleBody() })).json();
    const edit = await t.app.inject({
      method: 'PUT',
      url: url(a.orgId, `/${v.id}`),
      headers: a.admin,
      payload: vehicleBody({ unitNumber: v.unitNumber, vin: v.vin, make: 'Kenworth', notes: 'New tyres' }),
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ make: 'Kenworth', notes: 'New tyres' });
    const morph = await t.app.inject({ method: 'PUT', url: url(a.orgId, `/${v.id}`), headers: a.admin, payload: trailerBody({ unitNumber: v.unitNumber }) });
    expect(morph.statusCode).toBe(400);
    expect(expectErrorBody(morph.json(), 400).technicalMessage).toContain('type: ');
    expect((await t.app.inject({ method: 'GET', url: url(a.otherOrgId, `/${v.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: url(a.otherOrgId, `/${v.id}`), headers: a.other, payload: vehicleBody() })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: url(a.otherOrgId, `/${v.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: url(a.orgId, `/${v.id}`), headers: a.dispatcher, payload: vehicleBody() })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, `/${v.id}`), headers: a.admin })).json().make).toBe('Kenworth');
  });
});

describe('deleting', () => {
  it('hard-deletes an asset nothing references', async () => {
    const v = (await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: vehicleBody() })).json();
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${v.id}`), headers: a.dispatcher })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${v.id}`), headers: a.admin });
    expect(res.json()).toMatchObject({ result: 'DELETED' });
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, `/${v.id}`), headers: a.admin })).statusCode).toBe(404);
    expect((await activityRows(t.database.db as never, v.id)).map((r) => r.action)).toEqual(['CREATE', 'DELETE']);
  });

  it('deactivates a vehicle with history, releasing its driver, trailer and device', async () => {
    const list = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?search=125'), headers: a.admin })).json();
    const truck = list.content[0];
    expect(truck.currentDriver).not.toBeNull();
    const res = await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${truck.id}`), headers: a.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: 'DEACTIVATED' });
    const after = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${truck.id}`), headers: a.admin })).json();
    expect(after).toMatchObject({ status: 'INACTIVE', currentDriver: null, device: null, trailers: [] });
    expect(after.driverHistory[0].to).not.toBeNull();
    expect(after.deviceHistory[0].to).not.toBeNull();
    const actions = after.recentActivity.map((r: { action: string }) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['DEACTIVATE', 'UNASSIGN_DRIVER', 'UNPAIR_DEVICE']));
    const inactive = (await t.app.inject({ method: 'GET', url: url(a.orgId, '?status=INACTIVE&type=VEHICLE'), headers: a.admin })).json();
    expect(inactive.content.map((x: { unitNumber: string }) => x.unitNumber)).toContain('125');
  });
});

describe('vin in the contract', () => {
  it('stores the VIN upper-case', async () => {
    const vin = freshVin().toLowerCase();
    const res = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: vehicleBody({ vin }) });
    expect(res.json().vin).toBe(vin.toUpperCase());
  });
});
