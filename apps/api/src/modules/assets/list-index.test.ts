import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withVinCheckDigit } from '@fleet/api-contract';
import { sql } from 'drizzle-orm';
import { enableListIndex, listIndexOf, type ListIndexStore } from '../../list-index/list-index.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors, vehicleBody } from '../../test/registry.ts';
import { listDrivers } from '../drivers/index.ts';
import { listAssetRows } from './assets.service.ts';

// The in-memory list index (decision 0083) must answer exactly as the SQL path does, and never
// from a stale index: every write that changes what a list filters, searches or sorts on bumps
// the list's version in the writing transaction. A list read inside a transaction takes the SQL
// path, so comparing the two is comparing the index with PostgreSQL.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
const N = 240;
const pad = (i: number) => String(i).padStart(4, '0');
const MAKES = ['Kenworth', 'Volvo', 'Mack', 'Peterbilt'];
const LAST = ['Garcia', 'Smith', 'Lopez', 'nguyen', 'Öztürk', null];

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  const drivers = ['First name,Last name,Email,Employee id,Licence number,Licence state,Licence class,Home time zone,Licence expiry'];
  const vehicles = ['Unit number,VIN,Make,Model,Year,Plate,Plate state,Fuel type,IFTA qualified,Odometer (mi)'];
  for (let i = 0; i < N; i++) {
    const expiry = i % 7 === 0 ? '' : `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`;
    drivers.push(`Ana${i % 5},${LAST[i % 5]}${i % 3 === 0 ? '' : pad(i)},ana${i}@idx.test,IX${i},IDX${pad(i)},TX,A,America/Chicago,${expiry}`);
    // Repeated years and makes: ties that only the id breaks.
    vehicles.push(
      `IX-${pad((i * 37) % N)},${withVinCheckDigit(`1XKYD49X0NH${String(i).padStart(6, '0')}`)},${MAKES[i % 4]},M${i % 3},${2016 + (i % 4)},IP${pad(i)},TX,DIESEL,yes,1000`,
    );
  }
  for (const [kind, csv] of [
    ['drivers', drivers],
    ['vehicles', vehicles],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/imports/${kind}`,
      headers: a.admin,
      payload: { csv: csv.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const get = async (path: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/${path}`, headers: a.admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: Array<Record<string, unknown>>; totalElements: number; totalPages: number; page: number };
};
const store = () => listIndexOf(t.app.db) as ListIndexStore;
const sqlAssets = (q: Parameters<typeof listAssetRows>[1]) => t.app.db.transaction((tx) => listAssetRows({ db: tx, orgId: a.orgId }, q));
const sqlDrivers = (q: Parameters<typeof listDrivers>[1]) => t.app.db.transaction((tx) => listDrivers({ db: tx, orgId: a.orgId }, q));
const query = (q: Record<string, string | number | undefined>) =>
  Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

describe('registry lists from the in-memory index', () => {
  it('answers every search, filter, sort and page exactly as the SQL path does', async () => {
    const served = store().stats.served;
    const searches = [undefined, 'ix-0', 'kenworth', 'volvo', 'ix-01', 'garcia', 'ana3', 'öztürk', '%', '_', 'idx0', 'zzz', 'O'];
    const vehicleSorts = [undefined, 'unitNumber,asc', 'unitNumber,desc', 'year,desc', 'year,asc', 'make,asc', 'vin,desc', 'createdAt,desc'];
    const driverSorts = [undefined, 'lastName,asc', 'lastName,desc', 'licenseExpiry,desc', 'licenseExpiry,asc', 'firstName,asc', 'email,desc'];
    let checked = 0;
    for (const [i, search] of searches.entries()) {
      for (const [k, sort] of vehicleSorts.entries()) {
        const q = { type: (i + k) % 3 === 0 ? undefined : 'VEHICLE', search, sort, page: (i * k) % 4, size: [15, 5, 50][k % 3] as number };
        const viaIndex = await get(`assets?${query(q)}`);
        const viaSql = JSON.parse(JSON.stringify(await sqlAssets(q as Parameters<typeof listAssetRows>[1])));
        expect(viaIndex, `assets ${query(q)}`).toEqual(viaSql);
        checked++;
      }
      for (const [k, sort] of driverSorts.entries()) {
        const q = { status: k % 4 === 1 ? 'ACTIVE' : undefined, search, sort, page: (i + k) % 3, size: [15, 7][k % 2] as number };
        const viaIndex = await get(`drivers?${query(q)}`);
        const viaSql = JSON.parse(JSON.stringify(await sqlDrivers(q as Parameters<typeof listDrivers>[1])));
        expect(viaIndex, `drivers ${query(q)}`).toEqual(viaSql);
        checked++;
      }
    }
    // Every one of those pages came from the index, not from a fallback to the SQL path.
    expect(store().stats.served - served).toBe(checked);
  }, 120_000);

  it('follows every kind of write at once: create, edit, deactivate, delete, groups, import', async () => {
    const find = async (search: string) => (await get(`assets?search=${search}`)).content.map((x) => x.unitNumber);
    expect(await find('fresh-unit')).toEqual([]);
    const v = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/organizations/${a.orgId}/assets`,
        headers: a.admin,
        payload: vehicleBody({ unitNumber: 'FRESH-UNIT-1' }),
      })
    ).json();
    expect(await find('fresh-unit')).toEqual(['FRESH-UNIT-1']);

    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.orgId}/assets/${v.id}`,
      headers: a.admin,
      payload: vehicleBody({ unitNumber: 'RENAMED-UNIT-1', vin: v.vin }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await find('fresh-unit')).toEqual([]);
    expect(await find('renamed-unit')).toEqual(['RENAMED-UNIT-1']);
    // The new name sorts where PostgreSQL sorts it.
    const bySort = await get('assets?type=VEHICLE&sort=unitNumber,desc&size=50');
    expect(bySort.content.map((x) => x.unitNumber)).toContain('RENAMED-UNIT-1');
    expect(bySort).toEqual(JSON.parse(JSON.stringify(await sqlAssets({ type: 'VEHICLE', sort: 'unitNumber,desc', page: 0, size: 50 }))));

    const deactivated = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.orgId}/assets/${v.id}`,
      headers: a.admin,
      payload: vehicleBody({ unitNumber: 'RENAMED-UNIT-1', vin: v.vin, status: 'INACTIVE' }),
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await get('assets?status=INACTIVE&search=renamed')).totalElements).toBe(1);
    expect((await get('assets?status=ACTIVE&search=renamed')).totalElements).toBe(0);

    const g = (
      await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/groups`, headers: a.admin, payload: { name: `Index group ${Date.now()}` } })
    ).json();
    expect((await get(`assets?group=${g.id}`)).totalElements).toBe(0);
    await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/groups/${g.id}/assets`, headers: a.admin, payload: { assetIds: [v.id] } });
    expect((await get(`assets?group=${g.id}`)).content.map((x) => x.id)).toEqual([v.id]);
    const d = (
      await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/drivers`, headers: a.admin, payload: driverBody({ lastName: 'Indexson' }) })
    ).json();
    expect((await get(`drivers?group=${g.id}`)).totalElements).toBe(0);
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/groups/${g.id}/members`,
      headers: a.admin,
      payload: { members: [{ type: 'DRIVER', id: d.id }] },
    });
    expect((await get(`drivers?group=${g.id}`)).content.map((x) => x.id)).toEqual([d.id]);
    // Deleting the group cascades to its memberships, and the lists follow.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/organizations/${a.orgId}/groups/${g.id}`, headers: a.admin })).statusCode).toBe(204);
    expect((await get(`assets?group=${g.id}`)).totalElements).toBe(0);
    expect((await get(`drivers?group=${g.id}`)).totalElements).toBe(0);

    // Hard delete (nothing references the new vehicle).
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/organizations/${a.orgId}/assets/${v.id}`, headers: a.admin })).statusCode).toBeLessThan(300);
    expect(await find('renamed-unit')).toEqual([]);

    const before = (await get('drivers?search=late-import')).totalElements;
    const csv = ['First name,Last name,Licence number,Licence state', 'Lena,Late-Import,LATE0001,TX', 'Lars,Late-Import,LATE0002,TX'].join('\n');
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/imports/drivers`, headers: a.admin, payload: { csv } })).json().imported,
    ).toBe(2);
    expect((await get('drivers?search=late-import')).totalElements).toBe(before + 2);
  }, 60_000);

  it('shows every linked record as it is now: driver, device, trailer, group and account changes', async () => {
    const org = `/api/v1/organizations/${a.orgId}`;
    const post = async (url: string, payload?: unknown) => {
      const res = await t.app.inject({ method: url.includes('/driver/') ? 'PUT' : 'POST', url: `${org}${url}`, headers: a.admin, payload: payload as object });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json();
    };
    const v = await post('/assets', vehicleBody({ unitNumber: 'LINKED-1' }));
    const tr = await post('/assets', { type: 'TRAILER', unitNumber: 'LINKED-T1', trailerType: 'REEFER', lengthM: 16.15, plateState: 'TX' });
    const d = await post('/drivers', driverBody({ firstName: 'Lina', lastName: 'Linked' }));
    const g = await post('/gateways', { uniqueId: `35${Date.now()}`, name: 'Linked tracker', phone: '+1 312 555 0199', firmware: '1.2.3' });
    const grp = await post('/groups', { name: `Linked group ${Date.now()}` });
    // Both lists, through the index and through the SQL path, must agree after each change.
    const same = async (what: string) => {
      for (const q of [
        { search: 'linked', sort: 'unitNumber,asc' },
        { type: 'VEHICLE', sort: 'updatedAt,desc' },
      ] as const) {
        const viaIndex = await get(`assets?${query({ ...q, size: 15 })}`);
        expect(viaIndex, `${what}: assets ${query(q)}`).toEqual(JSON.parse(JSON.stringify(await sqlAssets({ ...q, page: 0, size: 15 }))));
      }
      const drivers = await get('drivers?search=linked');
      expect(drivers, `${what}: drivers`).toEqual(JSON.parse(JSON.stringify(await sqlDrivers({ search: 'linked', page: 0, size: 15 }))));
      return { vehicle: (await get('assets?search=linked-1')).content[0] as Record<string, unknown>, driver: drivers.content[0] as Record<string, unknown> };
    };
    await same('created');

    await post(`/assets/${v.id}/driver/${d.id}`);
    let seen = await same('driver assigned');
    expect(seen.vehicle.currentDriver).toMatchObject({ id: d.id, lastName: 'Linked' });
    expect(seen.driver.vehicle).toMatchObject({ id: v.id, unitNumber: 'LINKED-1' });

    const renamed = await t.app.inject({
      method: 'PUT',
      url: `${org}/drivers/${d.id}`,
      headers: a.admin,
      payload: driverBody({ firstName: 'Lina', lastName: 'Linked-Renamed', licenseNumber: d.licenseNumber, licenseState: d.licenseState }),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    seen = await same('driver renamed');
    expect(seen.vehicle.currentDriver).toMatchObject({ lastName: 'Linked-Renamed' });

    await post(`/gateways/${g.id}/pair/${v.id}`);
    seen = await same('device paired');
    expect(seen.vehicle.device).toMatchObject({ id: g.id, name: 'Linked tracker', lastSeenAt: null });
    // Positions move a device's last-seen time without a version bump: read live on every page.
    await t.app.db.execute(sql`update gateways set last_seen_at = '2026-11-20T10:00:00Z' where id = ${g.id}`);
    seen = await same('device heard from');
    expect(seen.vehicle.device).toMatchObject({ lastSeenAt: '2026-11-20T10:00:00.000Z' });

    await post(`/assets/${v.id}/attach/${tr.id}`);
    seen = await same('trailer attached');
    expect(seen.vehicle.trailers).toEqual([expect.objectContaining({ id: tr.id, unitNumber: 'LINKED-T1' })]);

    await post(`/groups/${grp.id}/assets`, { assetIds: [v.id] });
    await post(`/groups/${grp.id}/members`, { members: [{ type: 'DRIVER', id: d.id }] });
    await t.app.inject({ method: 'PUT', url: `${org}/groups/${grp.id}`, headers: a.admin, payload: { name: 'Linked renamed group' } });
    seen = await same('group renamed');
    expect(seen.vehicle.groups).toEqual([{ id: grp.id, name: 'Linked renamed group' }]);
    expect(seen.driver.groups).toEqual([{ id: grp.id, name: 'Linked renamed group' }]);

    // The driver's sign-in account: linked, then its e-mail changed through the API (which moves
    // the drivers list's version itself since migration 0037 dropped the users trigger).
    const userId = (
      (await t.app.db.execute(sql`select id from users where organization_id = ${a.orgId} and email = 'dispatcher@demofreight.test'`)) as unknown as {
        rows: Array<{ id: string }>;
      }
    ).rows[0]!.id;
    await t.app.db.execute(sql`update drivers set user_id = ${userId} where organization_id = ${a.orgId} and id = ${d.id}`);
    expect((await same('account linked')).driver.user).toMatchObject({ id: userId, email: 'dispatcher@demofreight.test' });
    const account = (await t.app.inject({ method: 'GET', url: `${org}/users/${userId}`, headers: a.admin })).json() as Record<string, unknown>;
    const profile = (email: string) => ({
      firstName: account.firstName,
      lastName: account.lastName,
      email,
      position: account.position,
      phone: account.phone,
      timeZone: account.timeZone,
    });
    const edit = async (email: string) => {
      const res = await t.app.inject({ method: 'PUT', url: `${org}/users/${userId}`, headers: a.admin, payload: profile(email) });
      expect(res.statusCode, res.body).toBe(200);
    };
    await edit('dispatch.desk@demofreight.test');
    seen = await same('account e-mail changed');
    expect(seen.driver.user).toMatchObject({ id: userId, email: 'dispatch.desk@demofreight.test' });
    await edit('dispatcher@demofreight.test');
    seen = await same('account e-mail changed back');
    expect(seen.driver.user).toMatchObject({ id: userId, email: 'dispatcher@demofreight.test' });
    await t.app.db.execute(sql`update drivers set user_id = null where organization_id = ${a.orgId} and id = ${d.id}`);

    await t.app.inject({ method: 'DELETE', url: `${org}/assets/${v.id}/driver`, headers: a.admin });
    seen = await same('driver unassigned');
    expect(seen.driver.vehicle).toBeNull();
  }, 60_000);

  it('answers concurrent pages from shared version checks, and a page asked after a write sees it', async () => {
    const expected = JSON.parse(JSON.stringify(await sqlAssets({ search: 'kenworth', sort: 'year,desc', page: 1, size: 15 })));
    const background = Array.from({ length: 30 }, () => get('assets?search=kenworth&sort=year,desc&page=1&size=15'));
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/assets`,
      headers: a.admin,
      payload: vehicleBody({ unitNumber: 'BATCH-UNIT-1' }),
    });
    expect(created.statusCode).toBe(201);
    // Sent after the write's answer, while other pages' checks are under way.
    expect((await get('assets?search=batch-unit')).content.map((x) => x.unitNumber)).toEqual(['BATCH-UNIT-1']);
    const pages = await Promise.all(background);
    // Each background page is as of a moment after it was asked: before or after the new vehicle (not a Kenworth).
    for (const p of pages) expect(p).toEqual(expected);
  });

  it('keeps organizations apart: another organization never sees these rows', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.otherOrgId}/assets?search=ix-`, headers: a.other });
    expect(res.json()).toMatchObject({ totalElements: 0, content: [] });
    const mine = await get('assets?search=ix-');
    expect(mine.totalElements).toBe(N);
  });

  it('never trusts an index built inside a transaction that rolled back', async () => {
    // Version numbers come from a sequence: the rolled-back bump's number is never reused.
    const version = async () => {
      const res = (await t.app.db.execute(sql`select version::text from list_versions where organization_id = ${a.orgId} and list = 'assets'`)) as unknown as {
        rows: Array<{ version: string }>;
      };
      return res.rows[0]?.version ?? '0';
    };
    const v0 = await version();
    await t.app.db
      .transaction(async (tx) => {
        await tx.execute(sql`update assets set make = 'Ghost' where organization_id = ${a.orgId}`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await t.app.db.execute(sql`update assets set notes = 'touched' where organization_id = ${a.orgId} and unit_number = 'IX-0001'`);
    const v1 = await version();
    expect(BigInt(v1)).toBeGreaterThan(BigInt(v0) + 1n);
    expect((await get('assets?search=ghost')).totalElements).toBe(0);
  });

  it('hands a list larger than its budget to the SQL path, with the same answer', async () => {
    enableListIndex(t.app.db, 10);
    try {
      const page = await get('assets?search=kenworth&sort=year,desc&page=2&size=10');
      expect(page).toEqual(JSON.parse(JSON.stringify(await sqlAssets({ search: 'kenworth', sort: 'year,desc', page: 2, size: 10 }))));
      expect(page.totalElements).toBeGreaterThanOrEqual(N / 4);
      expect(store().stats).toEqual({ served: 0, built: 0, fellBack: 1 });
    } finally {
      enableListIndex(t.app.db, t.config.listIndexRows);
    }
  });
});
