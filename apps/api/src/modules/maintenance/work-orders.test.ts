import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dvirs, maintenanceServices, vehicleDefects, workOrders } from '../../db/schema/index.ts';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
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

const orders = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/work-orders${rest}`;
const schedules = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/maintenance-schedules${rest}`;
const DAY = 86_400_000;

async function newUnit(
  headers: Record<string, string>,
  orgId: string,
  body: Record<string, unknown> = vehicleBody(),
): Promise<{ id: string; unitNumber: string }> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/assets`, headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A defect reported on the unit, written straight to the tables (reports have their own tests). */
async function defectOn(unit: { id: string; unitNumber: string }, orgId = a.orgId, label = 'Tires'): Promise<string> {
  const db = t.database.db;
  const [report] = await db
    .insert(dvirs)
    .values({
      organizationId: orgId,
      assetId: unit.id,
      unitNumber: unit.unitNumber,
      driverName: 'Test Driver',
      kind: 'POST_TRIP',
      inspectedAt: new Date(),
      items: [],
      hasDefects: true,
      signatureName: 'Test Driver',
    })
    .returning({ id: dvirs.id });
  const [d] = await db
    .insert(vehicleDefects)
    .values({
      organizationId: orgId,
      dvirId: report!.id,
      assetId: unit.id,
      unitNumber: unit.unitNumber,
      item: 'TIRES',
      label,
      note: 'Tread worn',
      safety: true,
    })
    .returning({ id: vehicleDefects.id });
  return d!.id;
}

async function linkOf(defectId: string): Promise<string | null> {
  const [d] = await t.database.db.select({ w: vehicleDefects.workOrderId }).from(vehicleDefects).where(eq(vehicleDefects.id, defectId));
  return d?.w ?? null;
}

async function orderCount(): Promise<number> {
  return (await t.database.db.select({ id: workOrders.id }).from(workOrders)).length;
}

const body = (assetId: string, over: Record<string, unknown> = {}) => ({
  assetId,
  title: 'Replace steer tires',
  description: 'Both steer tires below 4/32"',
  ...over,
});

describe('work orders', () => {
  it('creates an order with defects, starts it, completes it (restarting its schedule), reopens and deletes it, logging each', async () => {
    const v = await newUnit(a.admin, a.orgId);
    const d1 = await defectOn(v);
    const d2 = await defectOn(v, a.orgId, 'Lighting devices and reflectors');
    const schedule = (
      await t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: a.admin, payload: { assetId: v.id, name: 'PM A', everyDays: 30 } })
    ).json();
    // The vehicle entered the schedule 40 days ago: overdue.
    const longAgo = new Date(Date.now() - 40 * DAY);
    await t.database.db.update(maintenanceServices).set({ doneAt: longAgo, odometerM: 1 }).where(eq(maintenanceServices.scheduleId, schedule.id));
    const due = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/maintenance/due?assetId=${v.id}`, headers: a.admin })).json().content;
    expect(await due()).toEqual([expect.objectContaining({ scheduleId: schedule.id, status: 'OVERDUE' })]);

    const created = await t.app.inject({
      method: 'POST',
      url: orders(a.orgId),
      headers: a.admin,
      payload: body(v.id, { defectIds: [d1], assignee: 'Shop 3', parts: '2 x 295/75R22.5', laborHours: 1.3, cost: 123.456, scheduleId: schedule.id }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const o = created.json();
    expect(o).toMatchObject({
      asset: { id: v.id, unitNumber: v.unitNumber },
      status: 'OPEN',
      defectIds: [d1],
      assignee: 'Shop 3',
      laborHours: 1.3,
      cost: 123.46,
      scheduleId: schedule.id,
      completedAt: null,
    });
    expect(await linkOf(d1)).toBe(o.id);
    expect(await linkOf(d2)).toBeNull();

    const started = await t.app.inject({
      method: 'PUT',
      url: orders(a.orgId, `/${o.id}`),
      headers: a.admin,
      payload: body(v.id, { status: 'IN_PROGRESS', defectIds: [d1, d2], scheduleId: schedule.id }),
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'IN_PROGRESS', completedAt: null });
    expect(new Set(started.json().defectIds)).toEqual(new Set([d1, d2]));
    // Not done yet: the schedule still counts from 40 days ago.
    expect(await due()).toHaveLength(1);

    const before = Date.now();
    const done = await t.app.inject({
      method: 'PUT',
      url: orders(a.orgId, `/${o.id}`),
      headers: a.admin,
      payload: body(v.id, { status: 'DONE', defectIds: [d1, d2], cost: 410, scheduleId: schedule.id }),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'DONE', cost: 410 });
    expect(Date.parse(done.json().completedAt)).toBeGreaterThanOrEqual(before - 1000);
    const [service] = await t.database.db
      .select()
      .from(maintenanceServices)
      .where(and(eq(maintenanceServices.scheduleId, schedule.id), eq(maintenanceServices.assetId, v.id)));
    expect(service).toMatchObject({ workOrderId: o.id, odometerM: 120_000_000 });
    expect(service!.doneAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await due()).toEqual([]);

    // Saved again while DONE: the completion time stays.
    const again = await t.app.inject({
      method: 'PUT',
      url: orders(a.orgId, `/${o.id}`),
      headers: a.admin,
      payload: body(v.id, { status: 'DONE', defectIds: [d1, d2], scheduleId: schedule.id }),
    });
    expect(again.json().completedAt).toBe(done.json().completedAt);

    const reopened = await t.app.inject({
      method: 'PUT',
      url: orders(a.orgId, `/${o.id}`),
      headers: a.admin,
      payload: body(v.id, { status: 'IN_PROGRESS', defectIds: [d2] }),
    });
    expect(reopened.json()).toMatchObject({ status: 'IN_PROGRESS', completedAt: null, defectIds: [d2], scheduleId: null });
    expect(await linkOf(d1)).toBeNull();

    const listed = (await t.app.inject({ method: 'GET', url: orders(a.orgId, `?assetId=${v.id}&status=IN_PROGRESS`), headers: a.admin })).json();
    expect(listed.content.map((x: { id: string }) => x.id)).toEqual([o.id]);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `?assetId=${v.id}&status=DONE`), headers: a.admin })).json().totalElements).toBe(0);

    expect((await t.app.inject({ method: 'DELETE', url: orders(a.orgId, `/${o.id}`), headers: a.admin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `/${o.id}`), headers: a.admin })).statusCode).toBe(404);
    expect(await linkOf(d2)).toBeNull();
    const [kept] = await t.database.db.select().from(maintenanceServices).where(eq(maintenanceServices.scheduleId, schedule.id));
    expect(kept?.workOrderId).toBeNull();
    expect((await activityRows(t.database.db as never, o.id)).map((r) => `${r.action} ${r.entity_type}`)).toEqual([
      'CREATE WORK_ORDER',
      'UPDATE WORK_ORDER',
      'UPDATE WORK_ORDER',
      'UPDATE WORK_ORDER',
      'UPDATE WORK_ORDER',
      'DELETE WORK_ORDER',
    ]);
    const log = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/activity-logs?entityType=WORK_ORDER`, headers: a.admin })).json();
    expect(log.content.map((e: { summary: string }) => e.summary)).toContain('Dana Whitfield created work order Replace steer tires');
  });

  it('lists newest first, orders on trailers, and a created-DONE order is completed at once', async () => {
    const trailer = await newUnit(a.admin, a.orgId, trailerBody());
    const first = (await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(trailer.id, { title: 'Older' }) })).json();
    const second = await t.app.inject({
      method: 'POST',
      url: orders(a.orgId),
      headers: a.admin,
      payload: body(trailer.id, { title: 'Newer', status: 'DONE' }),
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().completedAt).not.toBeNull();
    const page = (await t.app.inject({ method: 'GET', url: orders(a.orgId, `?assetId=${trailer.id}`), headers: a.admin })).json();
    expect(page.content.map((x: { title: string }) => x.title)).toEqual(['Newer', 'Older']);
    expect(page.content[1].id).toBe(first.id);
  });

  it('refuses a defect of another vehicle, a unit or defect of another organization, bad fields: 400 naming the field, nothing changed', async () => {
    const v = await newUnit(a.admin, a.orgId);
    const w = await newUnit(a.admin, a.orgId);
    const onW = await defectOn(w);
    const theirs = await newUnit(a.other, a.otherOrgId);
    const theirDefect = await defectOn(theirs, a.otherOrgId);
    const n = await orderCount();

    const wrongVehicle = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { defectIds: [onW] }) });
    expect(wrongVehicle.statusCode).toBe(400);
    expectFieldErrors(wrongVehicle.json(), 400, { defectIds: `Defects not reported on ${v.unitNumber} in this organization: ${onW}` });
    const foreignDefect = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { defectIds: [theirDefect] }) });
    expect(foreignDefect.statusCode).toBe(400);
    expectFieldErrors(foreignDefect.json(), 400, { defectIds: 'Defects not reported on' });
    const foreignUnit = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(theirs.id) });
    expect(foreignUnit.statusCode).toBe(400);
    expectFieldErrors(foreignUnit.json(), 400, { assetId: 'Vehicle is not a vehicle or trailer of this organization' });
    const noTitle = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { title: ' ' }) });
    expect(noTitle.statusCode).toBe(400);
    expectFieldErrors(noTitle.json(), 400, { title: 'Title is a required field' });
    const negative = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { cost: -5 }) });
    expect(negative.statusCode).toBe(400);
    expectFieldErrors(negative.json(), 400, { cost: 'Cost must be 0 or more' });
    const badStatus = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { status: 'CLOSED' }) });
    expectFieldErrors(badStatus.json(), 400, { status: 'Status must be OPEN, IN_PROGRESS or DONE' });
    const otherSchedule = (
      await t.app.inject({ method: 'POST', url: schedules(a.orgId), headers: a.admin, payload: { assetId: w.id, name: 'W only', everyDays: 90 } })
    ).json();
    const notCovered = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { scheduleId: otherSchedule.id }) });
    expect(notCovered.statusCode).toBe(400);
    expectFieldErrors(notCovered.json(), 400, { scheduleId: `Maintenance schedule is not a schedule of this organization covering ${v.unitNumber}` });
    expect(await orderCount()).toBe(n);
    expect(await linkOf(onW)).toBeNull();
    expect(await linkOf(theirDefect)).toBeNull();

    // An order of W keeps its defect: a PUT with a wrong defect changes nothing either.
    const o = (await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(w.id, { defectIds: [onW] }) })).json();
    const badPut = await t.app.inject({
      method: 'PUT',
      url: orders(a.orgId, `/${o.id}`),
      headers: a.admin,
      payload: body(w.id, { title: 'Renamed', defectIds: [theirDefect] }),
    });
    expect(badPut.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `/${o.id}`), headers: a.admin })).json()).toMatchObject({
      title: 'Replace steer tires',
      defectIds: [onW],
    });
  });

  it('answers 409 for a defect already on another open order, and lets a done order give it up', async () => {
    const v = await newUnit(a.admin, a.orgId);
    const d = await defectOn(v, a.orgId, 'Horn');
    const first = (
      await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { title: 'First', defectIds: [d] }) })
    ).json();
    const n = await orderCount();
    const taken = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { title: 'Second', defectIds: [d] }) });
    expect(taken.statusCode).toBe(409);
    expectFieldErrors(taken.json(), 409, { defectIds: 'Defect "Horn" is already on open work order "First"' });
    expect(await orderCount()).toBe(n);
    expect(await linkOf(d)).toBe(first.id);
    await t.app.inject({
      method: 'PUT',
      url: orders(a.orgId, `/${first.id}`),
      headers: a.admin,
      payload: body(v.id, { title: 'First', status: 'DONE', defectIds: [d] }),
    });
    const second = await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id, { title: 'Second', defectIds: [d] }) });
    expect(second.statusCode, second.body).toBe(201);
    expect(await linkOf(d)).toBe(second.json().id);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `/${first.id}`), headers: a.admin })).json().defectIds).toEqual([]);
  });

  it('keeps orders to their organization: another admin gets 404 and an empty list; permissions are checked', async () => {
    const v = await newUnit(a.admin, a.orgId);
    const o = (await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: a.admin, payload: body(v.id) })).json();
    expect((await t.app.inject({ method: 'GET', url: orders(a.otherOrgId, `/${o.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: orders(a.otherOrgId, `/${o.id}`), headers: a.other, payload: body(v.id) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: orders(a.otherOrgId, `/${o.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `/${o.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: orders(a.otherOrgId), headers: a.other })).json().content).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `/${o.id}`), headers: a.admin })).json().title).toBe('Replace steer tires');

    const reader = await userWithPermissions(t, a.orgId, ['WORK_ORDER_LIST']);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId, `/${o.id}`), headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: orders(a.orgId), headers: reader, payload: body(v.id) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: orders(a.orgId, `/${o.id}`), headers: reader })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: orders(a.orgId) })).statusCode).toBe(401);
  });
});
