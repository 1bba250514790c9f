import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestPositions, maintenanceSchedules, maintenanceServices } from '../../db/schema/index.ts';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, registryActors, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';
import { createTestVehicle } from '../../test/vehicles.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const schedules = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/maintenance-schedules${rest}`;
const dueUrl = (orgId: string, query = '') => `/api/v1/organizations/${orgId}/maintenance/due${query}`;
const DAY = 86_400_000;
const MILE = 1609.344;
let serial = 0;

async function newUnit(
  headers: Record<string, string>,
  orgId: string,
  body: Record<string, unknown> = vehicleBody(),
): Promise<{ id: string; unitNumber: string }> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/assets`, headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A vehicle with a paired device, whose latest fix reads `odometerM` and `engineHours`. */
async function trackedVehicle(odometerM: number, engineHours: number | null): Promise<string> {
  const v = await createTestVehicle(t.database.db, a.orgId, { uniqueId: `pm-${Date.now()}-${++serial}`, driver: false });
  await setMeters(v.assetId, odometerM, engineHours, v.gatewayId);
  return v.assetId;
}

async function setMeters(assetId: string, odometerM: number, engineHours: number | null, gatewayId?: string): Promise<void> {
  const attributes = engineHours === null ? {} : { engineHours };
  if (gatewayId) {
    const now = new Date();
    await t.database.db.insert(latestPositions).values({
      assetId,
      organizationId: a.orgId,
      gatewayId,
      fixTime: now,
      serverTime: now,
      latitude: 41.88,
      longitude: -87.63,
      odometer: odometerM,
      attributes,
    });
  } else {
    await t.database.db.update(latestPositions).set({ odometer: odometerM, attributes }).where(eq(latestPositions.assetId, assetId));
  }
}

async function serviceRows(scheduleId: string) {
  return t.database.db.select().from(maintenanceServices).where(eq(maintenanceServices.scheduleId, scheduleId));
}

async function due(query: string) {
  const res = await t.app.inject({ method: 'GET', url: dueUrl(a.orgId, query), headers: a.admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function scheduleCount(): Promise<number> {
  return (await t.database.db.select({ id: maintenanceSchedules.id }).from(maintenanceSchedules)).length;
}

describe('maintenance schedules', () => {
  it('creates a vehicle schedule (miles stored as metres, the vehicle counting from today), reads, lists, replaces and deletes it, logging each', async () => {
    const v = await newUnit(a.admin, a.orgId);
    const res = await t.app.inject({
      method: 'POST',
      url: schedules(a.orgId),
      headers: a.admin,
      payload: { assetId: v.id, name: 'PM A service', everyMiles: 25_000, everyDays: 90 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ assetId: v.id, groupId: null, name: 'PM A service', everyMiles: 25_000, everyEngineHours: null, everyDays: 90 });
    const [row] = await t.database.db.select().from(maintenanceSchedules).where(eq(maintenanceSchedules.id, s.id));
    expect(row!.everyM).toBeCloseTo(25_000 * MILE, 6);
    const [baseline] = await serviceRows(s.id);
    // The vehicle's odometer as entered (120,000 km): it has no fix yet.
    expect(baseline).toMatchObject({ assetId: v.id, odometerM: 120_000_000, engineHours: null, workOrderId: null });
    expect(Math.abs(baseline!.doneAt.getTime() - Date.now())).toBeLessThan(60_000);

    expect((await t.app.inject({ method: 'GET', url: schedules(a.orgId, `/${s.id}`), headers: a.admin })).json()).toEqual(s);
    const listed = (await t.app.inject({ method: 'GET', url: schedules(a.orgId, `?assetId=${v.id}`), headers: a.admin })).json();
    expect(listed.content.map((x: { id: string }) => x.id)).toEqual([s.id]);

    // Replaced: the interval changes, the vehicle's last service stays.
    await t.database.db
      .update(maintenanceServices)
      .set({ doneAt: new Date(Date.now() - 50 * DAY) })
      .where(eq(maintenanceServices.scheduleId, s.id));
    const put = await t.app.inject({
      method: 'PUT',
      url: schedules(a.orgId, `/${s.id}`),
      headers: a.admin,
      payload: { assetId: v.id, name: 'PM B service', everyDays: 45 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'PM B service', everyMiles: null, everyDays: 45 });
    expect((await due(`?assetId=${v.id}`)).content).toEqual([
      expect.objectContaining({ scheduleId: s.id, name: 'PM B service', status: 'OVERDUE', dueOdometer: null }),
    ]);

    expect((await t.app.inject({ method: 'DELETE', url: schedules(a.orgId, `/${s.id}`), headers: a.admin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: schedules(a.orgId, `/${s.id}`), headers: a.admin })).statusCode).toBe(404);
    expect(await serviceRows(s.id)).toEqual([]);
    expect((await due(`?assetId=${v.id}`)).content).toEqual([]);
    expect((await activityRows(t.database.db as never, s.id)).map((r) => `${r.action} ${r.entity_type}`)).toEqual([
      'CREATE MAINTENANCE_SCHEDULE',
      'UPDATE MAINTENANCE_SCHEDULE',
      'DELETE MAINTENANCE_SCHEDULE',
    ]);
  });

  it("covers a group's vehicles (not its trailers), and a vehicle that joins the group later starts counting when the due list is read", async () => {
    const v1 = await newUnit(a.admin, a.orgId);
    const v2 = await newUnit(a.admin, a.orgId);
    const trailer = await newUnit(a.admin, a.orgId, trailerBody());
    const g = (
      await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/groups`, headers: a.admin, payload: { name: `PM group ${++serial}` } })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/groups/${g.id}/assets`,
      headers: a.admin,
      payload: { assetIds: [v1.id, trailer.id] },
    });
    const s = (
      await t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: a.admin, payload: { groupId: g.id, name: 'Annual inspection', everyDays: 365 } })
    ).json();
    expect(s).toMatchObject({ assetId: null, groupId: g.id });
    expect((await serviceRows(s.id)).map((r) => r.assetId)).toEqual([v1.id]);
    expect(
      (await t.app.inject({ method: 'GET', url: schedules(a.orgId, `?assetId=${v1.id}`), headers: a.admin })).json().content.map((x: { id: string }) => x.id),
    ).toContain(s.id);

    await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/groups/${g.id}/assets`, headers: a.admin, payload: { assetIds: [v2.id] } });
    // v1 was last serviced 360 days ago: DUE; v2 just joined: counts from now, not listed.
    await t.database.db
      .update(maintenanceServices)
      .set({ doneAt: new Date(Date.now() - 360 * DAY) })
      .where(and(eq(maintenanceServices.scheduleId, s.id), eq(maintenanceServices.assetId, v1.id)));
    const page = await due('?size=100');
    const mine = page.content.filter((x: { scheduleId: string }) => x.scheduleId === s.id);
    expect(mine).toEqual([expect.objectContaining({ assetId: v1.id, unitNumber: v1.unitNumber, status: 'DUE' })]);
    expect(new Set((await serviceRows(s.id)).map((r) => r.assetId))).toEqual(new Set([v1.id, v2.id]));
  });

  it("refuses no interval, both or neither vehicle and group, a trailer, and another organization's vehicle or group: 400 naming the field, nothing created", async () => {
    const v = await newUnit(a.admin, a.orgId);
    const trailer = await newUnit(a.admin, a.orgId, trailerBody());
    const theirs = await newUnit(a.other, a.otherOrgId);
    const theirGroup = (
      await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/groups`, headers: a.other, payload: { name: 'Their group' } })
    ).json();
    const ourGroup = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/groups`, headers: a.admin })).json().content[0];
    const n = await scheduleCount();
    const post = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: a.admin, payload });

    const noInterval = await post({ assetId: v.id, name: 'Nothing' });
    expect(noInterval.statusCode).toBe(400);
    expectFieldErrors(noInterval.json(), 400, { everyMiles: 'Give at least one interval: distance, engine hours or days' });
    const both = await post({ assetId: v.id, groupId: ourGroup.id, name: 'Both', everyDays: 30 });
    expect(both.statusCode).toBe(400);
    expectFieldErrors(both.json(), 400, { assetId: 'Vehicle or group: give exactly one' });
    expectFieldErrors((await post({ name: 'Neither', everyDays: 30 })).json(), 400, { assetId: 'Vehicle or group: give exactly one' });
    expectFieldErrors((await post({ assetId: v.id, name: 'Zero', everyEngineHours: 0 })).json(), 400, {
      everyEngineHours: 'Every (engine hours) must be more than 0',
    });
    expectFieldErrors((await post({ assetId: trailer.id, name: 'Trailer', everyDays: 30 })).json(), 400, {
      assetId: 'Vehicle is not a vehicle of this organization',
    });
    expectFieldErrors((await post({ assetId: theirs.id, name: 'Theirs', everyDays: 30 })).json(), 400, {
      assetId: 'Vehicle is not a vehicle of this organization',
    });
    expectFieldErrors((await post({ groupId: theirGroup.id, name: 'Their group', everyDays: 30 })).json(), 400, {
      groupId: 'Group is not a group of this organization',
    });
    expect(await scheduleCount()).toBe(n);

    // A PUT that fails changes nothing either.
    const s = (await post({ assetId: v.id, name: 'Kept', everyDays: 30 })).json();
    const bad = await t.app.inject({
      method: 'PUT',
      url: schedules(a.orgId, `/${s.id}`),
      headers: a.admin,
      payload: { assetId: theirs.id, name: 'Moved', everyDays: 30 },
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: schedules(a.orgId, `/${s.id}`), headers: a.admin })).json()).toMatchObject({
      assetId: v.id,
      name: 'Kept',
    });
    expect((await serviceRows(s.id)).map((r) => r.assetId)).toEqual([v.id]);
  });

  it('keeps schedules and the due list to their organization, and checks permissions', async () => {
    const v = await newUnit(a.admin, a.orgId);
    const s = (
      await t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: a.admin, payload: { assetId: v.id, name: 'Ours', everyDays: 10 } })
    ).json();
    await t.database.db
      .update(maintenanceServices)
      .set({ doneAt: new Date(Date.now() - 20 * DAY) })
      .where(eq(maintenanceServices.scheduleId, s.id));
    expect((await due(`?assetId=${v.id}`)).content).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: schedules(a.otherOrgId, `/${s.id}`), headers: a.other })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'PUT', url: schedules(a.otherOrgId, `/${s.id}`), headers: a.other, payload: { assetId: v.id, name: 'x', everyDays: 1 } }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: schedules(a.otherOrgId, `/${s.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: schedules(a.orgId, `/${s.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: schedules(a.otherOrgId), headers: a.other })).json().content).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: dueUrl(a.otherOrgId), headers: a.other })).json().content).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: schedules(a.orgId, `/${s.id}`), headers: a.admin })).json().name).toBe('Ours');

    const reader = await userWithPermissions(t, a.orgId, ['MAINTENANCE_LIST']);
    expect((await t.app.inject({ method: 'GET', url: dueUrl(a.orgId), headers: reader })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: reader, payload: { assetId: v.id, name: 'No', everyDays: 1 } })).statusCode,
    ).toBe(403);
    const orders = await userWithPermissions(t, a.orgId, ['WORK_ORDER_LIST']);
    expect((await t.app.inject({ method: 'GET', url: dueUrl(a.orgId), headers: orders })).statusCode).toBe(403);
  });
});

describe('the service due list', () => {
  it('lists DUE and OVERDUE by days, distance (the latest fix odometer) and engine hours, overdue first, and leaves the rest out', async () => {
    const byDays = await newUnit(a.admin, a.orgId);
    const byMiles = await trackedVehicle(500_000_000, null);
    const byHours = await trackedVehicle(300_000_000, 12_000);
    const post = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: a.admin, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    const days = await post({ assetId: byDays.id, name: 'Days', everyDays: 100 });
    const miles = await post({ assetId: byMiles, name: 'Miles', everyMiles: 10_000 });
    const hours = await post({ assetId: byHours, name: 'Hours', everyEngineHours: 500 });
    // The baselines are today's readings from the latest fix.
    expect((await serviceRows(miles.id))[0]).toMatchObject({ odometerM: 500_000_000, engineHours: null });
    expect((await serviceRows(hours.id))[0]).toMatchObject({ odometerM: 300_000_000, engineHours: 12_000 });
    const mine = async (status = '') =>
      (await due(`?size=100${status}`)).content.filter((x: { scheduleId: string }) => [days.id, miles.id, hours.id].includes(x.scheduleId)) as Array<
        Record<string, unknown>
      >;
    expect(await mine()).toEqual([]);

    // Days: 95 of 100 gone is DUE.
    const doneAt = new Date(Date.now() - 95 * DAY);
    await t.database.db.update(maintenanceServices).set({ doneAt }).where(eq(maintenanceServices.scheduleId, days.id));
    // Distance: 9,400 of 10,000 mi driven is DUE (the latest fix's odometer).
    await setMeters(byMiles, 500_000_000 + 9_400 * MILE, null);
    // Hours: 460 of 500 h is DUE.
    await setMeters(byHours, 300_000_000, 12_460);
    const dueNow = await mine();
    expect(dueNow.map((x) => [x.name, x.status])).toEqual([
      ['Days', 'DUE'],
      ['Miles', 'DUE'],
      ['Hours', 'DUE'],
    ]);
    expect(dueNow[0]).toMatchObject({
      assetId: byDays.id,
      unitNumber: byDays.unitNumber,
      dueAt: new Date(doneAt.getTime() + 100 * DAY).toISOString(),
      dueOdometer: null,
      dueEngineHours: null,
    });
    expect(dueNow[1]).toMatchObject({ assetId: byMiles, dueAt: null, dueOdometer: Math.round(500_000_000 + 10_000 * MILE) / 1000, dueEngineHours: null });
    expect(dueNow[2]).toMatchObject({ assetId: byHours, dueEngineHours: 12_500, dueOdometer: null });

    // Past each interval: OVERDUE, the most overdue first, ahead of anything DUE.
    await setMeters(byMiles, 500_000_000 + 10_100 * MILE, null);
    await setMeters(byHours, 300_000_000, 12_600);
    const over = await mine();
    expect(over.map((x) => [x.name, x.status])).toEqual([
      ['Hours', 'OVERDUE'],
      ['Miles', 'OVERDUE'],
      ['Days', 'DUE'],
    ]);
    expect((await mine('&status=OVERDUE')).map((x) => x.name)).toEqual(['Hours', 'Miles']);
    expect((await due(`?assetId=${byDays.id}`)).content.map((x: { name: string }) => x.name)).toEqual(['Days']);
    await t.database.db
      .update(maintenanceServices)
      .set({ doneAt: new Date(Date.now() - 101 * DAY) })
      .where(eq(maintenanceServices.scheduleId, days.id));
    expect((await due(`?assetId=${byDays.id}`)).content[0].status).toBe('OVERDUE');
  });
});
