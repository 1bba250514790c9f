import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogDetailSchema, activityLogFiltersSchema, activityLogEntrySchema, pageSchema } from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { driverBody, vehicleBody } from '../../test/registry.ts';
import { diff } from './activity-log.diff.ts';
import { COUNT_CAP } from './activity-log.query.ts';

let t: TestContext;
let admin: Awaited<ReturnType<typeof login>>;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin);
  base = `/api/v1/organizations/${admin.user.organization?.id}/activity-logs`;
  // A few mutations to read back: two role edits by the admin, one profile edit by the dispatcher.
  const roles = `/api/v1/organizations/${admin.user.organization?.id}/roles`;
  const r = await t.app.inject({
    method: 'POST',
    url: roles,
    headers: bearer(admin.accessToken),
    payload: { name: 'Auditor', permissions: ['ACTIVITY_LOG_LIST'] },
  });
  await t.app.inject({
    method: 'PUT',
    url: `${roles}/${r.json().id}`,
    headers: bearer(admin.accessToken),
    payload: { name: 'Auditor', description: 'Reads the log', permissions: ['ACTIVITY_LOG_LIST', 'USER_LIST'] },
  });
  const d = await login(t.app, DEMO.dispatcher);
  await t.app.inject({
    method: 'PUT',
    url: `/api/v1/organizations/${d.user.organization?.id}/users/${d.user.id}`,
    headers: bearer(d.accessToken),
    payload: { firstName: 'Marco', lastName: 'Reyes', email: DEMO.dispatcher.email, position: 'Senior dispatcher', timeZone: 'America/Chicago' },
  });
});
afterAll(async () => {
  await t?.close();
});

const activityLogPageSchema = pageSchema(activityLogEntrySchema);
const get = (url: string, token = admin.accessToken) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

describe('activity log', () => {
  it('lists the newest first in the shared page object, with actor names', async () => {
    const res = await get(`${base}?size=3`);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 0, size: 3 });
    expect(page.totalElements).toBeGreaterThan(5);
    expect(page.content).toHaveLength(3);
    const times = page.content.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(page.content[0]).toMatchObject({
      action: 'UPDATE',
      entityType: 'USER',
      actor: { email: DEMO.dispatcher.email, name: 'Marco Reyes' },
      changedFields: ['position'],
    });
    const next = await get(`${base}?size=3&page=1`);
    expect(next.json().content[0].id).toBeLessThan(page.content[2].id);
  });

  it('filters by user, action, entity type and date range', async () => {
    const byUser = await get(`${base}?userId=${admin.user.id}&entityType=role`);
    expect(
      byUser
        .json()
        .content.map((e: { action: string }) => e.action)
        .slice(0, 2),
    ).toEqual(['UPDATE', 'CREATE']);
    expect(byUser.json().content.every((e: { actor: { userId: string } }) => e.actor.userId === admin.user.id)).toBe(true);
    const byAction = await get(`${base}?action=CREATE&entityType=ROLE`);
    expect(byAction.json().content.every((e: { action: string; entityType: string }) => e.action === 'CREATE' && e.entityType === 'ROLE')).toBe(true);
    const future = await get(`${base}?from=2199-01-01`);
    expect(future.json().totalElements).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const bareDay = await get(`${base}?from=${today}&to=${today}`);
    expect(bareDay.json().totalElements).toBeGreaterThan(0);
    const bad = await get(`${base}?from=yesterday`);
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, { 'querystring.from': 'from is not valid.' });
    const reversed = await get(`${base}?from=2026-02-01&to=2026-01-01`);
    expect(reversed.statusCode).toBe(400);
    expectFieldErrors(reversed.json(), 400, { from: 'from must be before to' });
    const filters = await get(`${base}/filters`);
    expect(filters.json().entityTypes).toEqual(expect.arrayContaining(['ORGANIZATION', 'ROLE', 'USER']));
  });

  it("shows one user's actions on the per-user view", async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const res = await get(`${base}/users/${d.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().content.length).toBeGreaterThan(0);
    expect(res.json().content.every((e: { actor: { userId: string } }) => e.actor.userId === d.user.id)).toBe(true);
  });

  it('shows the detail with before, after and the field-by-field difference, never secrets', async () => {
    const list = await get(`${base}?action=UPDATE&entityType=ROLE`);
    const detail = await get(`${base}/${list.json().content[0].id}`);
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.changes).toEqual(
      expect.arrayContaining([
        { field: 'description', before: null, after: 'Reads the log' },
        { field: 'permissions', before: ['ACTIVITY_LOG_LIST'], after: ['USER_LIST', 'ACTIVITY_LOG_LIST'] },
      ]),
    );
    expect(body.changes.map((c: { field: string }) => c.field)).not.toContain('updatedAt');
    const userRows = await get(`${base}?entityType=USER&size=50`);
    for (const e of userRows.json().content.slice(0, 5)) {
      expect((await get(`${base}/${e.id}`)).body).not.toContain('passwordHash');
    }
  });

  it('is read-only: no route changes or deletes an entry', async () => {
    const list = await get(`${base}?size=1`);
    const id = list.json().content[0].id;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${base}/${id}`, headers: bearer(admin.accessToken), payload: {} });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await get(`${base}/${id}`)).statusCode).toBe(200);
  });

  it("needs ACTIVITY_LOG_LIST, and never shows another organization's entries", async () => {
    const d = await login(t.app, DEMO.dispatcher);
    expect((await get(base, d.accessToken)).statusCode).toBe(403);
    const other = await registerOrganization(t.app, 'Rival Log');
    const otherBase = `/api/v1/organizations/${other.user.organization?.id}/activity-logs`;
    expect((await get(otherBase)).statusCode).toBe(404);
    const theirs = await get(otherBase, other.accessToken);
    const theirId = theirs.json().content[0].id;
    expect((await get(`${base}/${theirId}`)).statusCode).toBe(404);
    const mine = await get(`${base}?size=500`);
    expect(mine.json().content.some((e: { id: number }) => e.id === theirId)).toBe(false);
  });
});

describe('entries read as sentences with labelled changes and a link to the record', () => {
  const orgUrl = () => `/api/v1/organizations/${admin.user.organization?.id}`;
  const send = async (method: 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `${orgUrl()}${url}`, headers: bearer(admin.accessToken), ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  /** The newest entry about the record with the action (list row, then its detail). */
  const latest = async (action: string, entityId: string) => {
    const page = (await get(`${base}?action=${action}&entityId=${entityId}&size=1`)).json();
    activityLogPageSchema.parse(page);
    const entry = page.content[0];
    expect(entry, `${action} of ${entityId}`).toBeDefined();
    const detail = (await get(`${base}/${entry.id}`)).json();
    return { entry, detail: activityLogDetailSchema.parse(detail) };
  };

  it('says who assigned which driver to which vehicle, and links the vehicle', async () => {
    const vehicle = (await get(`${orgUrl()}/assets?type=VEHICLE&search=117`)).json().content.find((v: { unitNumber: string }) => v.unitNumber === '117');
    const other = (await get(`${orgUrl()}/assets?type=VEHICLE&search=120`)).json().content.find((v: { unitNumber: string }) => v.unitNumber === '120');
    const driver = other.currentDriver;
    await send('PUT', `/assets/${vehicle.id}/driver/${driver.id}`);
    const { entry, detail } = await latest('ASSIGN_DRIVER', vehicle.id);
    expect(entry.summary).toBe(`Dana Whitfield assigned driver ${driver.firstName} ${driver.lastName} to vehicle 117 (moved from vehicle 120)`);
    expect(entry.actor).toMatchObject({ userId: admin.user.id, name: 'Dana Whitfield', label: 'Dana Whitfield' });
    expect(entry.record).toEqual({
      type: 'VEHICLE',
      id: vehicle.id,
      label: 'vehicle 117',
      path: `/settings/organization-settings/vehicles?open=${vehicle.id}`,
    });
    expect(detail.labelledChanges).toEqual([
      {
        field: 'driverId',
        label: 'Driver',
        before: `${vehicle.currentDriver.firstName} ${vehicle.currentDriver.lastName}`,
        after: `${driver.firstName} ${driver.lastName}`,
      },
    ]);
    // The raw fields stay for integrators.
    expect(detail).toMatchObject({ action: 'ASSIGN_DRIVER', entityType: 'ASSET', entityId: vehicle.id, after: { driverId: driver.id, unitNumber: '117' } });
    // Taking the driver off vehicle 120 is its own entry.
    expect((await latest('UNASSIGN_DRIVER', other.id)).entry.summary).toBe(
      `Dana Whitfield removed driver ${driver.firstName} ${driver.lastName} from vehicle 120`,
    );
  });

  it('lists the labels of the changed fields of an update, and the values in words in the detail', async () => {
    const body = vehicleBody({ odometerKm: 120000 });
    const created = await send('POST', '/assets', body);
    await send('PUT', `/assets/${created.id}`, { ...body, odometerKm: 125000.5, notes: 'New tyres' });
    const { entry, detail } = await latest('UPDATE', created.id);
    expect(entry.summary).toBe(`Dana Whitfield changed vehicle ${body.unitNumber}: Odometer, Notes`);
    // The demo organization is Imperial: the stored km read in miles.
    expect(detail.labelledChanges).toEqual([
      { field: 'odometerM', label: 'Odometer', before: '74,564.5 mi', after: '77,671.7 mi' },
      { field: 'notes', label: 'Notes', before: null, after: 'New tyres' },
    ]);
    expect(detail.changes.map((c) => c.field)).toEqual(['odometerM', 'notes']);
  });

  it("writes odometers, lengths and the speeding threshold in the organization's units, whichever it uses when read", async () => {
    const settings = (await get(`${orgUrl()}/settings`)).json();
    const vehicle = vehicleBody({ odometerKm: 1000 });
    const v = await send('POST', '/assets', vehicle);
    await send('PUT', `/assets/${v.id}`, { ...vehicle, odometerKm: 1609.344 });
    await send('PUT', '/settings', { ...settings, telematics: { ...settings.telematics, speedLimitKmh: 113 } });
    const orgId = admin.user.organization?.id as string;
    const read = async () => ({
      odometer: (await latest('UPDATE', v.id)).detail.labelledChanges,
      speed: (await latest('UPDATE_SETTINGS', orgId)).detail.labelledChanges,
    });
    try {
      const imperial = await read();
      expect(imperial.odometer).toEqual([{ field: 'odometerM', label: 'Odometer', before: '621.4 mi', after: '1,000 mi' }]);
      expect(imperial.speed).toEqual([
        {
          field: 'telematics',
          label: expect.any(String),
          before: expect.stringContaining('Speeding above (mph): 65 mph'),
          after: expect.stringContaining('Speeding above (mph): 70 mph'),
        },
      ]);
      expect(JSON.stringify(imperial)).not.toMatch(/\bkm\b|km\/h/);
      await send('PUT', '/settings', { ...settings, units: 'METRIC', telematics: { ...settings.telematics, speedLimitKmh: 113 } });
      const metric = await read();
      expect(metric.odometer).toEqual([{ field: 'odometerM', label: 'Odometer', before: '1,000 km', after: '1,609.3 km' }]);
      expect(metric.speed).toEqual([{ field: 'units', label: 'Units', before: expect.stringMatching(/^US/), after: expect.stringMatching(/^Metric/) }]);
      const before = (await get(`${base}?action=UPDATE_SETTINGS&entityId=${orgId}&size=2`)).json().content[1];
      const detail = activityLogDetailSchema.parse((await get(`${base}/${before.id}`)).json());
      expect(detail.labelledChanges[0]).toMatchObject({
        before: expect.stringContaining('Speeding above (km/h): 105 km/h'),
        after: expect.stringContaining('Speeding above (km/h): 113 km/h'),
      });
      expect(JSON.stringify([metric.odometer, detail.labelledChanges])).not.toMatch(/\bmi\b|mph/);
    } finally {
      await send('PUT', '/settings', settings);
    }
  });

  it('says who created which driver, and links the driver', async () => {
    const created = await send('POST', '/drivers', driverBody({ firstName: 'Maria', lastName: 'Lopez' }));
    const { entry, detail } = await latest('CREATE', created.id);
    expect(entry.summary).toBe('Dana Whitfield created driver Maria Lopez');
    expect(entry.record).toMatchObject({ type: 'DRIVER', label: 'driver Maria Lopez', path: `/settings/organization-settings/all-drivers?open=${created.id}` });
    expect(detail.labelledChanges).toEqual(expect.arrayContaining([{ field: 'firstName', label: 'First name', before: null, after: 'Maria' }]));
    expect(detail.labelledChanges.map((c) => c.field)).not.toContain('organizationId');
  });

  it('says which device was paired with which vehicle, on the device and on the vehicle', async () => {
    const vehicle = await send('POST', '/assets', vehicleBody());
    const uniqueId = `35${Date.now()}`;
    const device = await send('POST', '/gateways', { uniqueId, name: 'Spare tracker' });
    await send('POST', `/gateways/${device.id}/pair/${vehicle.id}`);
    const onDevice = await latest('PAIR_DEVICE', device.id);
    expect(onDevice.entry.summary).toBe(`Dana Whitfield paired device ${uniqueId} with vehicle ${vehicle.unitNumber}`);
    expect(onDevice.entry.record).toEqual({
      type: 'DEVICE',
      id: device.id,
      label: `device ${uniqueId}`,
      path: `/settings/organization-settings/devices/${device.id}`,
    });
    // Pairing also says from when the vehicle owns the device's positions and how many it took over.
    expect(onDevice.detail.labelledChanges).toEqual([
      { field: 'from', label: 'From', before: null, after: expect.stringMatching(/UTC$/) },
      { field: 'assetId', label: 'Vehicle', before: null, after: vehicle.unitNumber },
      { field: 'positionsAttributed', label: 'Positions attributed', before: null, after: '0' },
    ]);
    const onVehicle = await latest('PAIR_DEVICE', vehicle.id);
    expect(onVehicle.entry.summary).toBe(onDevice.entry.summary);
    expect(onVehicle.entry.record.type).toBe('VEHICLE');
  });

  it('names the system for seeded and scheduled entries, and labels the filter options', async () => {
    const seeded = (await get(`${base}?action=CREATE&entityType=GROUP&size=50`))
      .json()
      .content.find((e: { summary: string }) => e.summary.endsWith('East region'));
    expect(seeded).toMatchObject({ summary: 'System created group East region', actor: { userId: null, label: 'System' } });
    const filters = activityLogFiltersSchema.parse((await get(`${base}/filters`)).json());
    expect(filters.actionOptions).toEqual(expect.arrayContaining([{ value: 'ASSIGN_DRIVER', label: 'Assign driver' }]));
    expect(filters.entityTypeOptions).toEqual(
      expect.arrayContaining([
        { value: 'GATEWAY', label: 'Device' },
        { value: 'ASSET', label: 'Vehicle or trailer' },
      ]),
    );
  });
});

describe('the per-user view', () => {
  it("answers 404 for another organization's user or an unknown id, also to a super administrator", async () => {
    const rival = await registerOrganization(t.app, 'Rival Users');
    const superAdmin = await login(t.app, DEMO.superAdmin);
    for (const [who, token] of [
      ['admin', admin.accessToken],
      ['super administrator', superAdmin.accessToken],
    ] as const) {
      for (const userId of [rival.user.id, superAdmin.user.id, '00000000-0000-4000-8000-000000000000']) {
        const res = await get(`${base}/users/${userId}`, token);
        expect(res.statusCode, `${who} asking for ${userId}`).toBe(404);
        expect(expectErrorBody(res.json(), 404).message).toBe('User not found');
      }
      // A user of the organization still answers, and so does one who has done nothing yet.
      expect((await get(`${base}/users/${admin.user.id}`, token)).statusCode).toBe(200);
    }
    const idle = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${admin.user.organization?.id}/users`,
      headers: bearer(admin.accessToken),
      payload: { email: `idle${Date.now()}@demofreight.test`, firstName: 'Idle', lastName: 'User', roleId: admin.user.roleId },
    });
    expect(idle.statusCode, idle.body).toBeLessThan(300);
    const page = await get(`${base}/users/${idle.json().id}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().totalElements).toBe(0);
  });
});

describe('OpenAPI document of the activity log', () => {
  it('gives every request and response body of the activity-log routes a real schema', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const empty: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (Object.keys(o).filter((k) => k !== 'description').length === 0) empty.push(where);
      if (o.type === 'object' && !o.properties && !o.additionalProperties) empty.push(`${where} (object without properties)`);
      if (o.type === 'array' && (!o.items || Object.keys(o.items).length === 0)) empty.push(`${where} (array with empty items)`);
      for (const k of ['properties', 'additionalProperties', 'items', 'anyOf', 'oneOf', 'allOf']) {
        const child = o[k];
        if (k === 'properties' && child && typeof child === 'object') for (const [name, c] of Object.entries(child)) walk(c, `${where}.${name}`);
        else if (child && typeof child === 'object') walk(child, `${where}.${k}`);
      }
    };
    const paths = Object.entries(
      doc.paths as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }>>,
    ).filter(([p]) => p.includes('activity-logs'));
    expect(paths.length).toBe(4);
    for (const [p, ops] of paths) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses ?? {})) walk(r.content?.['application/json']?.schema, `${method} ${p} ${status}`);
      }
    }
    expect(empty).toEqual([]);
  });
});

describe('a long history', () => {
  it('counts exactly up to the cap and reports cap + 1 beyond it, still paging newest first', async () => {
    const big = await registerOrganization(t.app, 'Long History');
    const orgId = big.user.organization?.id ?? '';
    await t.database.db.execute(sql`insert into activity_log (organization_id, action, entity_type, entity_id, created_at)
      select ${orgId}::uuid, 'UPDATE', 'VEHICLE', g::text, now() - g * interval '1 minute' from generate_series(1, ${COUNT_CAP + 50}) g`);
    const res = await get(`/api/v1/organizations/${orgId}/activity-logs?size=15`, big.accessToken);
    expect(res.json()).toMatchObject({ totalElements: COUNT_CAP + 1, totalPages: Math.ceil((COUNT_CAP + 1) / 15) });
    expect(res.json().content[0].entityType).toBe('USER');
    const exact = await get(`/api/v1/organizations/${orgId}/activity-logs?entityType=USER`, big.accessToken);
    expect(exact.json().totalElements).toBe(1);
  });
});

describe('difference of before and after', () => {
  it('lists changed top-level fields, all fields of a create, and ignores updatedAt', () => {
    expect(diff({ a: 1, b: [1], updatedAt: 'x' }, { a: 1, b: [1, 2], updatedAt: 'y' })).toEqual([{ field: 'b', before: [1], after: [1, 2] }]);
    expect(diff(undefined, { name: 'n' })).toEqual([{ field: 'name', before: null, after: 'n' }]);
    expect(diff({ name: 'n' }, null)).toEqual([{ field: 'name', before: 'n', after: null }]);
  });
});
