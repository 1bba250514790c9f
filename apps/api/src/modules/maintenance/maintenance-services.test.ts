import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  DVIR_ITEMS,
  dashboardSchema,
  distanceFromKm,
  inspectionDuePageSchema,
  maintenanceNextSchema,
  notificationPageSchema,
  type Dvir,
} from '@fleet/api-contract';
import { maintenanceServices } from '../../db/schema/index.ts';
import { runServiceDue } from '../../jobs/service-due.ts';
import { createTestApp, DEMO, expectErrorBody, expectFieldErrors, readOutbox, type TestContext } from '../../test/helpers.ts';
import { registryActors, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';
import { invitedDriver as invitedDriverOf } from '../../test/members.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { logDateOf } from '../hos/index.ts';

// Issue 31's services (decision 0159) through HTTP on the real database: a vehicle's next service,
// the inspections due on a day, the organization's own inspection items, the dashboard's counters
// and the three notifications (a new safety defect, driving with one open, service coming due).

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const DAY = 86_400_000;
const BRAKES = DVIR_ITEMS.find((i) => i.code === 'SERVICE_BRAKES')!.label;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const put = (url: string, headers: Headers, payload: unknown) => t.app.inject({ method: 'PUT', url, headers, payload: payload as object });
const bell = async (headers: Headers, kind: string, orgId = a.orgId) =>
  notificationPageSchema.parse((await get(org(`/notifications?size=100&kind=${kind}`, orgId), headers)).json()).content;

const invitedDriver = () => invitedDriverOf(t.app, t.dataDir, a.orgId, a.admin);

async function newAsset(body: Record<string, unknown>): Promise<{ id: string; unitNumber: string }> {
  const res = await post(org('/assets'), a.admin, body);
  expect(res.statusCode, res.body).toBe(201);
  const { id, unitNumber } = res.json() as { id: string; unitNumber: string };
  return { id, unitNumber };
}
async function assign(vehicleId: string, driverId: string) {
  const res = await put(org(`/assets/${vehicleId}/driver/${driverId}`), a.admin, undefined);
  expect(res.statusCode, res.body).toBe(200);
}

type ItemBody = { item: string; assetId?: string; ok: boolean; note?: string; safety?: boolean };
/** Every 396.11 item passed on the vehicle (and the trailer items on each trailer), plus `extra`. */
function passedItems(trailerIds: string[] = [], extra: ItemBody[] = []): ItemBody[] {
  return [
    ...DVIR_ITEMS.map((i) => ({ item: i.code, ok: true })),
    ...trailerIds.flatMap((assetId) => DVIR_ITEMS.filter((i) => i.trailer).map((i) => ({ item: i.code, assetId, ok: true }))),
    ...extra,
  ];
}
const report = (assetId: string, over: Record<string, unknown> = {}) => ({
  assetId,
  kind: 'PRE_TRIP',
  items: passedItems(),
  signature: { name: 'Signed Driver' },
  ...over,
});

/** Moving fixes over the last half hour: automatic duty status records Driving, the daily statistics count the drive today. */
async function drive(v: TestVehicle) {
  const now = Date.now();
  const positions = Array.from({ length: 16 }, (_, i) => ({
    fixTime: new Date(now - (30 - 2 * i) * 60_000).toISOString(),
    latitude: 41.8,
    longitude: -87.6 + i * 0.02,
    speed: 80,
    ignition: true,
  }));
  const res = await post('/api/v1/ingest/positions', { authorization: `Bearer ${v.token}` }, { positions });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.autoDuty.idle();
  await t.app.fleetStats.idle();
}

describe("the organization's own inspection items", () => {
  it('are read by drivers and the office, replaced with MAINTENANCE_UPDATE, and required on every report (trailer ones on each trailer)', async () => {
    const url = org('/maintenance/inspection-items');
    const luis = await invitedDriver();
    const truck = await newAsset(vehicleBody({ odometerKm: 120000 }));
    const trailer = await newAsset(trailerBody());
    await assign(truck.id, luis.driver.id);
    expect((await get(url, a.admin)).json()).toEqual({ items: [] });

    // Bad input: a name already on the 396.11 list, a name twice, an empty one; nothing changes.
    expectFieldErrors((await put(url, a.admin, { items: [{ name: 'Horn' }] })).json(), 400, { 'items.0.name': 'Item "Horn" is already on the 396.11 list' });
    expectFieldErrors((await put(url, a.admin, { items: [{ name: 'Liftgate' }, { name: 'liftgate ' }] })).json(), 400, {
      'items.1.name': 'Item "liftgate" is listed twice',
    });
    expectFieldErrors((await put(url, a.admin, { items: [{ name: '' }] })).json(), 400, { 'items.0.name': 'Item is a required field' });
    expect((await get(url, a.admin)).json()).toEqual({ items: [] });
    // Only MAINTENANCE_UPDATE replaces them; another organization's are its own.
    expectErrorBody((await put(url, luis.headers, { items: [{ name: 'Liftgate' }] })).json(), 403);
    expectErrorBody((await put(org('/maintenance/inspection-items', a.otherOrgId), a.admin, { items: [{ name: 'Liftgate' }] })).json(), 404);

    const saved = await put(url, a.admin, { items: [{ name: 'Liftgate', trailer: true }, { name: 'Fire extinguisher seal' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      items: [
        { name: 'Liftgate', trailer: true },
        { name: 'Fire extinguisher seal', trailer: false },
      ],
    });
    expect((await get(url, luis.headers)).json()).toEqual(saved.json());
    expect((await get(org('/maintenance/inspection-items', a.otherOrgId), a.other)).json()).toEqual({ items: [] });
    const log = (await t.database.db.execute(
      sql`select changes from activity_log where entity_type = 'ORGANIZATION' and entity_id = ${a.orgId} and action = 'UPDATE' order by id desc limit 1`,
    )) as unknown as { rows: Array<{ changes: { after: unknown } }> };
    expect(log.rows[0]?.changes.after).toEqual({ inspectionItems: 'Liftgate (trailers too); Fire extinguisher seal' });

    // A report without them names each missing one with its unit, and stores nothing.
    const missing = await post(org('/dvirs'), luis.headers, report(truck.id, { trailerIds: [trailer.id], items: passedItems([trailer.id]) }));
    expectFieldErrors(missing.json(), 400, {
      items: `Items missing from the inspection: Liftgate (vehicle ${truck.unitNumber}); Fire extinguisher seal (vehicle ${truck.unitNumber}); Liftgate (trailer ${trailer.unitNumber})`,
    });
    const own = [
      { item: 'liftgate', ok: true },
      { item: 'Fire extinguisher seal', ok: false, note: 'Seal broken', safety: false },
      { item: 'LIFTGATE', assetId: trailer.id, ok: true },
    ];
    const ok = await post(org('/dvirs'), luis.headers, report(truck.id, { trailerIds: [trailer.id], items: passedItems([trailer.id], own) }));
    expect(ok.statusCode, ok.body).toBe(201);
    const dvir = ok.json() as Dvir;
    // Stored as the organization spells them.
    expect(dvir.items.filter((i) => i.item === 'Liftgate').map((i) => i.assetId)).toEqual([truck.id, trailer.id]);
    expect(dvir.defects.map((d) => [d.item, d.safety])).toEqual([['Fire extinguisher seal', false]]);
    // Leave the list empty again for the other tests.
    expect((await put(url, a.admin, { items: [] })).json()).toEqual({ items: [] });
  });
});

describe("a vehicle's next service", () => {
  it('lists every schedule covering the vehicle as OK, DUE or OVERDUE; 404 for another organization’s vehicle', async () => {
    const v = await newAsset(vehicleBody({ odometerKm: 120000 }));
    const mk = async (body: Record<string, unknown>) => {
      const res = await post(org('/maintenance-schedules'), a.admin, { assetId: v.id, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    const oil = await mk({ name: 'Oil change', everyDays: 90 });
    const annual = await mk({ name: 'Annual inspection', everyDays: 365 });
    const pm = await mk({ name: 'PM A', everyMiles: 25000 });
    const next = async () => maintenanceNextSchema.parse((await get(org(`/maintenance/next?assetId=${v.id}`), a.admin)).json()).items;
    const first = await next();
    expect(first.map((i) => [i.name, i.status])).toEqual([
      ['Oil change', 'OK'],
      ['Annual inspection', 'OK'],
      ['PM A', 'OK'],
    ]);
    expect(first.find((i) => i.scheduleId === pm.id)).toMatchObject({
      unitNumber: v.unitNumber,
      dueAt: null,
      dueOdometer: 120000 + 25000 * 1.609344,
      dueEngineHours: null,
    });
    // 85 of 90 days gone: DUE; the annual one 400 days ago: OVERDUE (first).
    await t.database.db
      .update(maintenanceServices)
      .set({ doneAt: new Date(Date.now() - 85 * DAY) })
      .where(eq(maintenanceServices.scheduleId, oil.id));
    await t.database.db
      .update(maintenanceServices)
      .set({ doneAt: new Date(Date.now() - 400 * DAY) })
      .where(eq(maintenanceServices.scheduleId, annual.id));
    expect((await next()).map((i) => [i.name, i.status])).toEqual([
      ['Annual inspection', 'OVERDUE'],
      ['Oil change', 'DUE'],
      ['PM A', 'OK'],
    ]);
    // The due list stays DUE and OVERDUE only.
    const due = (await get(org(`/maintenance/due?assetId=${v.id}`), a.admin)).json().content as Array<{ name: string }>;
    expect(due.map((d) => d.name)).toEqual(['Annual inspection', 'Oil change']);

    expectErrorBody((await get(org(`/maintenance/next?assetId=${v.id}`, a.otherOrgId), a.other)).json(), 404);
    expectErrorBody((await get(org(`/maintenance/next?assetId=${v.id}`), await userWithPermissions(t, a.orgId, ['DVIR_LIST']))).json(), 403);
    expectFieldErrors((await get(org('/maintenance/next?assetId=nope'), a.admin)).json(), 400, { assetId: 'assetId must be a vehicle id' });
    expect((await get(org(`/maintenance/next?assetId=${crypto.randomUUID()}`), a.admin)).statusCode).toBe(404);
  });
});

describe('inspections due, a safety defect and driving with it', () => {
  let driver: Awaited<ReturnType<typeof invitedDriver>>;
  let v: TestVehicle;
  let unitNumber: string;
  let groupId: string;
  beforeAll(async () => {
    driver = await invitedDriver();
    v = await createTestVehicle(t.app.db, a.orgId, { uniqueId: `svc-${Date.now()}` });
    await assign(v.assetId, driver.driver.id);
    unitNumber = `U-${v.uniqueId}`;
  });
  const dueList = async (q = '', headers = a.admin) =>
    inspectionDuePageSchema.parse((await get(org(`/maintenance/inspections-due?size=100${q}`), headers)).json());

  it('lists a vehicle that moved today without a report, with its driver; counts it on the dashboard; pages; keeps organizations apart', async () => {
    await drive(v);
    const page = await dueList();
    expect(page.content.find((x) => x.assetId === v.assetId)).toEqual({
      assetId: v.assetId,
      unitNumber,
      driver: { id: driver.driver.id, name: driver.name },
      lastReportAt: null,
    });
    const dash = dashboardSchema.parse((await get(org('/dashboard/charts?days=7'), a.admin)).json());
    const counter = dash.counters.find((c) => c.key === 'inspectionsDue')!;
    expect(counter).toMatchObject({ value: page.totalElements, link: `/maintenance/inspections?view=due&date=${dash.today}`, tone: 'warn' });
    // The same day asked by date; another day has none of it.
    expect((await dueList(`&date=${dash.today}`)).totalElements).toBe(page.totalElements);
    expect((await dueList('&date=2020-01-01')).totalElements).toBe(0);
    const one = inspectionDuePageSchema.parse((await get(org('/maintenance/inspections-due?size=1&page=0'), a.admin)).json());
    expect(one).toMatchObject({ size: 1, totalElements: page.totalElements });
    expect(one.content).toHaveLength(1);
    // A group narrows the list and the counter alike.
    const g = (await post(org('/groups'), a.admin, { name: `Inspected ${Date.now()}` })).json() as { id: string };
    groupId = g.id;
    await post(org(`/groups/${g.id}/assets`), a.admin, { assetIds: [v.assetId] });
    expect((await dueList(`&groupId=${g.id}`)).content.map((x) => x.assetId)).toEqual([v.assetId]);
    const grouped = dashboardSchema.parse((await get(org(`/dashboard/charts?days=7&groupId=${g.id}`), a.admin)).json());
    expect(grouped.counters.find((c) => c.key === 'inspectionsDue')).toMatchObject({
      value: 1,
      link: `/maintenance/inspections?view=due&date=${dash.today}&group=${g.id}`,
    });
    // Bad input, permissions, tenancy.
    expectFieldErrors((await get(org('/maintenance/inspections-due?date=2026-13-40'), a.admin)).json(), 400, { date: 'date must be a day like 2026-06-01' });
    expectErrorBody((await get(org('/maintenance/inspections-due'), driver.headers)).json(), 403);
    expectErrorBody((await get(org('/maintenance/inspections-due', a.otherOrgId), a.admin)).json(), 404);
    expect((await get(org('/maintenance/inspections-due?size=100', a.otherOrgId), a.other)).json().content).toEqual([]);
  });

  it('a report with a safety defect takes the vehicle off the list and notifies the office in the app and by e-mail, once, with a link to its open defects', async () => {
    // Two office users who read reports, one a member of the vehicle's group, one of another group.
    const member = async (gid: string) => {
      const headers = await userWithPermissions(t, a.orgId, ['DVIR_LIST']);
      const me = (await get('/api/v1/auth/me', headers)).json() as { id: string };
      expect((await post(org(`/groups/${gid}/members`), a.admin, { members: [{ type: 'USER', id: me.id }] })).statusCode).toBe(200);
      return headers;
    };
    const inGroup = await member(groupId);
    const elsewhere = await member(((await post(org('/groups'), a.admin, { name: `Elsewhere ${Date.now()}` })).json() as { id: string }).id);
    const items = passedItems().map((i) => (i.item === 'SERVICE_BRAKES' ? { ...i, ok: false, note: 'Air leak at the rear axle', safety: true } : i));
    const res = await post(org('/dvirs'), driver.headers, report(v.assetId, { items, odometer: 160934.4, location: 'Joliet, IL' }));
    expect(res.statusCode, res.body).toBe(201);
    const dvir = res.json() as Dvir;
    expect((await dueList()).content.some((x) => x.assetId === v.assetId)).toBe(false);

    const notes = (await bell(a.admin, 'NEW_SAFETY_DEFECT')).filter((n) => n.expandedButton?.href === `/maintenance/defects?status=OPEN&assetId=${v.assetId}`);
    expect(notes).toHaveLength(1);
    // The demo organization counts in miles: 160,934.4 km is 100,000 mi.
    expect(notes[0]).toMatchObject({
      title: `Vehicle ${unitNumber}: a safety defect reported`,
      category: 'Safety defect reported',
      type: 'alert',
      expandedContent: `${driver.name} reported ${BRAKES} at 100,000 mi near Joliet, IL. The vehicle may not run until it is repaired and certified.`,
    });
    await t.app.notificationHub.mailIdle();
    t.app.notificationHub.mail();
    await t.app.notificationHub.mailIdle();
    expect(readOutbox(t.dataDir).filter((m) => m.to === DEMO.admin.email && m.subject === `Fleetline: ${notes[0]!.title}`)).toHaveLength(1);
    // A member of the vehicle's group hears of it, a member of another group does not (decision 0130).
    expect((await bell(inGroup, 'NEW_SAFETY_DEFECT')).map((n) => n.title)).toEqual([notes[0]!.title]);
    expect(await bell(elsewhere, 'NEW_SAFETY_DEFECT')).toEqual([]);
    // A user without DVIR_LIST, and another organization, hear nothing.
    expect(await bell(await userWithPermissions(t, a.orgId, ['MAINTENANCE_LIST']), 'NEW_SAFETY_DEFECT')).toEqual([]);
    expect((await bell(a.other, 'NEW_SAFETY_DEFECT', a.otherOrgId)).length).toBe(0);

    // The dashboard: open defects counted as the list counts them, bad while one affects safety.
    const dash = dashboardSchema.parse((await get(org('/dashboard/charts?days=7'), a.admin)).json());
    const open = (await get(org('/defects?status=OPEN&size=1'), a.admin)).json().totalElements as number;
    expect(dash.counters.find((c) => c.key === 'openDefects')).toMatchObject({ value: open, link: '/maintenance/defects?status=OPEN', tone: 'bad' });
    expect(dvir.unsafe).toBe(true);
  });

  it('a Driving status on the vehicle after the defect was reported notifies once per vehicle and day; driving before it does not', async () => {
    // The drive of the first test began before the report: nothing to tell.
    await t.app.fleetWatch.check(a.orgId, { clock: false });
    const mine = async (headers: Headers = a.admin) =>
      (await bell(headers, 'DRIVEN_WITH_SAFETY_DEFECT')).filter((n) => n.title === `Vehicle ${unitNumber} is being driven with an open safety defect`);
    expect(await mine()).toEqual([]);
    // Reported an hour earlier instead: that drive was with the defect open.
    await t.database.db.execute(sql`update vehicle_defects set created_at = now() - interval '1 hour' where asset_id = ${v.assetId}`);
    await t.app.fleetWatch.check(a.orgId, { clock: false });
    await t.app.fleetWatch.tick();
    const notes = await mine();
    // Once per local day: a drive across the organization's midnight (the driver may also have
    // signed in during it, ending the unidentified driving) started on two days.
    const starts = (await t.database.db.execute(
      sql`select extract(epoch from event_time) * 1000 as t from hos_events where vehicle_id = ${v.assetId} and event_type = 1 and event_code = 3 and record_status = 1`,
    )) as unknown as { rows: Array<{ t: number | string }> };
    const days = new Set(starts.rows.map((r) => logDateOf(Number(r.t), 'America/Chicago', '00:00')));
    expect(notes).toHaveLength(days.size);
    await t.app.fleetWatch.check(a.orgId, { clock: false });
    expect(await mine()).toHaveLength(days.size);
    expect(notes[0]).toMatchObject({
      category: 'Driven with a safety defect',
      expandedButton: { href: `/maintenance/defects?status=OPEN&assetId=${v.assetId}` },
    });
    expect(notes[0]!.expandedContent).toMatch(
      new RegExp(
        `^(${driver.name}|An unidentified driver) started driving vehicle ${unitNumber} at [A-Z][a-z]{2} \\d{1,2}, \\d{1,2}:\\d{2} [AP]M C[SD]T while ${BRAKES.replace(/[,()]/g, '.')} was reported and not repaired\\.$`,
      ),
    );
    expect((await bell(a.other, 'DRIVEN_WITH_SAFETY_DEFECT', a.otherOrgId)).length).toBe(0);
    // Repaired: the counter and the next check see nothing open.
    const defect = (await get(org(`/defects?assetId=${v.assetId}&status=OPEN`), a.admin)).json().content[0] as { id: string };
    expect((await put(org(`/defects/${defect.id}`), a.admin, { status: 'REPAIRED', signature: { name: 'Mechanic' } })).statusCode).toBe(200);
    await t.app.fleetWatch.check(a.orgId, { clock: false });
    expect(await mine()).toHaveLength(days.size);
  });
});

describe('service coming due', () => {
  it('the hourly job notifies each schedule, vehicle and status once, in the organization’s units; the dashboard counts the overdue', async () => {
    const v = await newAsset(vehicleBody({ odometerKm: 120000 }));
    const s = (await post(org('/maintenance-schedules'), a.admin, { assetId: v.id, name: 'PM B service', everyDays: 100, everyMiles: 25000 })).json() as {
      id: string;
    };
    const mine = async (headers: Headers = a.admin) => (await bell(headers, 'SERVICE_DUE')).filter((n) => n.title.endsWith(`for vehicle ${v.unitNumber}`));
    const back = (days: number) =>
      t.database.db
        .update(maintenanceServices)
        .set({ doneAt: new Date(Date.now() - days * DAY) })
        .where(and(eq(maintenanceServices.scheduleId, s.id), eq(maintenanceServices.assetId, v.id)));
    expect((await runServiceDue(t.database)).ran).toBe(true);
    expect(await mine()).toEqual([]);

    await back(95);
    await runServiceDue(t.database);
    await runServiceDue(t.database);
    const due = await mine();
    expect(due.map((n) => n.title)).toEqual([`PM B service is coming due for vehicle ${v.unitNumber}`]);
    const miles = distanceFromKm(120000 + 25000 * 1.609344, 'IMPERIAL').toLocaleString('en-US', { maximumFractionDigits: 1 });
    expect(due[0]!.expandedContent).toMatch(
      new RegExp(`^PM B service for vehicle ${v.unitNumber} is due on [A-Z][a-z]{2} \\d{1,2}, \\d{4} or at ${miles} mi\\.$`),
    );
    expect(due[0]!.expandedButton).toEqual({ label: 'See the service due', href: '/maintenance/due?status=DUE' });

    await back(101);
    await runServiceDue(t.database);
    expect((await mine()).map((n) => n.title)).toEqual([
      `PM B service is overdue for vehicle ${v.unitNumber}`,
      `PM B service is coming due for vehicle ${v.unitNumber}`,
    ]);
    // Only who may list maintenance hears of it; another organization never.
    expect(await mine(await userWithPermissions(t, a.orgId, ['DVIR_LIST']))).toEqual([]);
    expect((await bell(a.other, 'SERVICE_DUE', a.otherOrgId)).length).toBe(0);

    const dash = dashboardSchema.parse((await get(org('/dashboard/charts?days=7'), a.admin)).json());
    const overdue = (await get(org('/maintenance/due?status=OVERDUE&size=1'), a.admin)).json().totalElements as number;
    expect(dash.counters.find((c) => c.key === 'serviceOverdue')).toMatchObject({ value: overdue, link: '/maintenance/due?status=OVERDUE', tone: 'bad' });
    expect(overdue).toBeGreaterThanOrEqual(1);
  });

  it('narrows the three lists to a group of the organization; another organization’s group is a 404 "Group"', async () => {
    const theirs = (await post(org('/groups', a.otherOrgId), a.other, { name: `Theirs ${Date.now()}` })).json() as { id: string };
    const ours = (await post(org('/groups'), a.admin, { name: `Empty ${Date.now()}` })).json() as { id: string };
    for (const list of ['/defects?status=OPEN&', '/maintenance/due?', '/maintenance/inspections-due?']) {
      const res = await get(org(`${list}groupId=${theirs.id}`), a.admin);
      expect(expectErrorBody(res.json(), 404).message, list).toMatch(/group/i);
      const empty = await get(org(`${list}groupId=${ours.id}`), a.admin);
      expect(empty.statusCode, list).toBe(200);
      expect(empty.json().totalElements, list).toBe(0);
    }
  });

  it('leaves the counters out for a user who may not open their lists', async () => {
    const viewer = await userWithPermissions(t, a.orgId, ['ORG_DASH_READ', 'ASSET_LIST']);
    const keys = dashboardSchema.parse((await get(org('/dashboard/charts?days=7'), viewer)).json()).counters.map((c) => c.key);
    expect(keys).not.toContain('inspectionsDue');
    expect(keys).not.toContain('openDefects');
    expect(keys).not.toContain('serviceOverdue');
    const dvirOnly = await userWithPermissions(t, a.orgId, ['ORG_DASH_READ', 'DVIR_LIST']);
    const some = dashboardSchema.parse((await get(org('/dashboard/charts?days=7'), dvirOnly)).json()).counters.map((c) => c.key);
    expect(some).toEqual(['inspectionsDue', 'openDefects']);
  });
});
