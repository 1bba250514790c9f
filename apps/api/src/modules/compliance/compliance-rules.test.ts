import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, addYears, calendarDayIn, candidatePageSchema, notificationPageSchema, type ServerNotification } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import { assets, organizations } from '../../db/schema/index.ts';
import { runComplianceNotices } from '../../jobs/compliance-notices.ts';
import { bearer, createTestApp, expectErrorBody, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { invitedDriver } from '../../test/members.ts';
import { driverBody, trailerBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';
import { dayWords } from './compliance-notices.ts';

// The rules of issue 71 through HTTP on the real database (decision 0302): papers running out told
// 60, 30 and 7 days ahead and once expired, each once whatever reruns and restarts, to the office
// and to the driver of their own; dispatch refusing a driver or unit whose paper has expired by the
// load's dates, and the candidates list saying why.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
/** A user without COMPLIANCE_LIST: hears of no paper. */
let dispatcherOnly: Record<string, string>;
let today: string;
const H = 3_600_000;
const org = (path: string) => `/api/v1/organizations/${orgId}${path}`;
const at = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Compliance Rules Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  dispatcherOnly = await userWithPermissions(t, orgId, ['LOAD_LIST', 'LOAD_UPDATE']);
  const [o] = await t.database.db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  today = calendarDayIn(Date.now(), o!.tz);
});
afterAll(async () => {
  await t?.close();
});

/** Noon in the organization's zone (a US zone) of a calendar date: the job's clock on that day. */
const noonOf = (day: string) => Date.parse(`${day}T18:00:00Z`);

async function newDriver(over: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const res = await t.app.inject({ method: 'POST', url: org('/drivers'), headers: admin, payload: driverBody(over) });
  expect(res.statusCode, res.body).toBe(201);
  const d = res.json() as { id: string; firstName: string; lastName: string };
  return { id: d.id, name: `${d.firstName} ${d.lastName}` };
}

async function newAsset(body: Record<string, unknown>): Promise<{ id: string; unitNumber: string }> {
  const res = await t.app.inject({ method: 'POST', url: org('/assets'), headers: admin, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; unitNumber: string };
}

async function driverPaper(driverId: string, body: Record<string, unknown>): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: org(`/drivers/${driverId}/qualification/items`), headers: admin, payload: body });
  expect(res.statusCode, res.body).toBe(201);
}

async function assetPaper(assetId: string, body: Record<string, unknown>): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: org(`/assets/${assetId}/compliance/items`), headers: admin, payload: body });
  expect(res.statusCode, res.body).toBe(201);
}

/** The compliance notices a user has, about `about` (a name in the title, or the driver's "Your"). */
async function noticesOf(headers: Record<string, string>, about: string): Promise<ServerNotification[]> {
  const out: ServerNotification[] = [];
  for (const kind of ['COMPLIANCE_EXPIRING', 'COMPLIANCE_EXPIRED']) {
    const res = await t.app.inject({ method: 'GET', url: org(`/notifications?size=100&kind=${kind}`), headers });
    expect(res.statusCode, res.body).toBe(200);
    out.push(...notificationPageSchema.parse(res.json()).content.filter((n) => n.title.includes(about)));
  }
  return out.sort((a, b) => a.receivedDate.localeCompare(b.receivedDate) || a.title.localeCompare(b.title));
}
const titles = (ns: readonly ServerNotification[]) => ns.map((n) => n.title).sort();

describe('compliance notices', () => {
  it('tells a paper 60, 30 and 7 days ahead and the day after its due date, once each, to the office and to the driver of their own', async () => {
    const dana = await invitedDriver(t.app, t.dataDir, orgId, admin);
    const due = addDays(today, 100);
    await driverPaper(dana.driver.id, { kind: 'MEDICAL_CERTIFICATE', issuedOn: today, expiresOn: due });
    const run = async (days: number) => {
      const r = await runComplianceNotices(t.database, noonOf(addDays(due, days)));
      expect(r.ran).toBe(true);
    };
    const office = () => noticesOf(admin, dana.name);
    const own = () => noticesOf(dana.headers, 'Your medical certificate');

    await run(-61);
    expect(await office()).toEqual([]);
    await run(-60);
    expect(titles(await office())).toEqual([`${dana.name}’s medical certificate expires in 60 days`]);
    expect(titles(await own())).toEqual(['Your medical certificate expires in 60 days']);
    const [first] = await office();
    expect(first).toMatchObject({ kind: 'COMPLIANCE_EXPIRING', expandedButton: { href: `/compliance?subjectId=${dana.driver.id}` } });
    expect(first!.expandedContent).toContain(`Expires on ${dayWords(due)}`);
    // The same day again, and on a server started afresh on the same database: nothing more.
    await run(-60);
    const restarted = await buildApp({ config: t.config, database: t.database });
    try {
      await restarted.ready();
      expect((await runComplianceNotices(restarted.database, noonOf(addDays(due, -60)))).notified).toBe(0);
    } finally {
      await restarted.close();
    }
    await run(-59);
    await run(-31);
    expect(await office()).toHaveLength(1);
    await run(-30);
    await run(-30);
    await run(-8);
    expect(titles(await office())).toEqual([`${dana.name}’s medical certificate expires in 30 days`, `${dana.name}’s medical certificate expires in 60 days`]);
    await run(-7);
    await run(-1);
    // The due date itself is still valid: nothing is said that day.
    await run(0);
    expect(await office()).toHaveLength(3);
    await run(1);
    await run(2);
    await run(40);
    const told = await office();
    expect(titles(told)).toEqual([
      `${dana.name}’s medical certificate expired on ${dayWords(due)}`,
      `${dana.name}’s medical certificate expires in 30 days`,
      `${dana.name}’s medical certificate expires in 60 days`,
      `${dana.name}’s medical certificate expires in 7 days`,
    ]);
    expect(told.find((n) => n.kind === 'COMPLIANCE_EXPIRED')!.expandedContent).toContain('dispatch does not assign');
    expect(titles(await own())).toEqual([
      `Your medical certificate expired on ${dayWords(due)}`,
      'Your medical certificate expires in 30 days',
      'Your medical certificate expires in 60 days',
      'Your medical certificate expires in 7 days',
    ]);
    // A user without COMPLIANCE_LIST hears of none; the driver hears of no one else's papers.
    expect(await noticesOf(dispatcherOnly, dana.name)).toEqual([]);
    // The driver chooses how they hear of their own papers; a user who is no driver may not choose them.
    const allowed = async (headers: Record<string, string>) => {
      const res = await t.app.inject({ method: 'GET', url: org('/notifications/preferences'), headers });
      expect(res.statusCode, res.body).toBe(200);
      const kinds = (res.json() as { kinds: Array<{ kind: string; allowed: boolean }> }).kinds;
      return kinds.filter((k) => k.kind.startsWith('COMPLIANCE_')).map((k) => [k.kind, k.allowed]);
    };
    expect(await allowed(dana.headers)).toEqual([
      ['COMPLIANCE_EXPIRING', true],
      ['COMPLIANCE_EXPIRED', true],
    ]);
    expect(await allowed(dispatcherOnly)).toEqual([
      ['COMPLIANCE_EXPIRING', false],
      ['COMPLIANCE_EXPIRED', false],
    ]);
  });

  it('tells the driver of their own papers by their choice: off in the app and by e-mail, nothing', async () => {
    const quiet = await invitedDriver(t.app, t.dataDir, orgId, admin);
    const off = { inApp: false, email: false };
    const saved = await t.app.inject({
      method: 'PUT',
      url: org('/notifications/preferences'),
      headers: quiet.headers,
      payload: { kinds: { COMPLIANCE_EXPIRING: off, COMPLIANCE_EXPIRED: off } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const due = addDays(today, 120);
    await driverPaper(quiet.driver.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: due });
    await runComplianceNotices(t.database, noonOf(addDays(due, -7)));
    expect(titles(await noticesOf(admin, quiet.name))).toEqual([`${quiet.name}’s medical certificate expires in 7 days`]);
    expect(await noticesOf(quiet.headers, 'Your medical certificate')).toEqual([]);
  });

  it('sends the step a paper first seen late has reached, not those it has passed, and a failed inspection at once', async () => {
    const lee = await newDriver();
    const due = addDays(today, 150);
    await driverPaper(lee.id, { kind: 'CDL', number: `CDL${Date.now()}`, state: 'IL', expiresOn: due });
    await runComplianceNotices(t.database, noonOf(addDays(due, -20)));
    await runComplianceNotices(t.database, noonOf(addDays(due, -19)));
    expect(titles(await noticesOf(admin, lee.name))).toEqual([`${lee.name}’s CDL expires in 20 days`]);
    await runComplianceNotices(t.database, noonOf(addDays(due, -6)));
    expect(titles(await noticesOf(admin, lee.name))).toEqual([`${lee.name}’s CDL expires in 20 days`, `${lee.name}’s CDL expires in 6 days`]);

    const truck = await newAsset(vehicleBody());
    await assetPaper(truck.id, { kind: 'ANNUAL_INSPECTION', issuedOn: addDays(today, -3), result: 'FAIL', failedItems: ['Brakes out of adjustment'] });
    await runComplianceNotices(t.database, noonOf(today));
    await runComplianceNotices(t.database, noonOf(addDays(today, 1)));
    const failed = await noticesOf(admin, `Vehicle ${truck.unitNumber}`);
    expect(titles(failed)).toEqual([`Vehicle ${truck.unitNumber} failed its annual inspection of ${dayWords(addDays(today, -3))}`]);
    expect(failed[0]).toMatchObject({ kind: 'COMPLIANCE_EXPIRED', type: 'alert' });
    expect(failed[0]!.expandedContent).toContain('Brakes out of adjustment');
  });
});

describe('dispatch and papers', () => {
  function loadBody(over: Record<string, unknown> = {}, endsInMs = 6 * H) {
    const now = Date.now();
    return {
      customer: 'Acme Foods',
      stops: [
        { kind: 'PICKUP', latitude: 39.1, longitude: -94.58, windowStart: at(now + H), windowEnd: at(now + 2 * H), serviceMinutes: 60 },
        { kind: 'DELIVERY', latitude: 38.63, longitude: -90.2, windowStart: at(now + endsInMs - H), windowEnd: at(now + endsInMs), serviceMinutes: 45 },
      ],
      rate: { lineHaul: 900, fuelSurcharge: 0, accessorials: [] },
      ...over,
    };
  }
  const createLoad = (over: Record<string, unknown> = {}, endsInMs?: number) =>
    t.app.inject({ method: 'POST', url: org('/loads'), headers: admin, payload: loadBody(over, endsInMs) });
  const assign = (loadId: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: org(`/loads/${loadId}/assignment`), headers: admin, payload: body });
  async function plannedLoad(): Promise<string> {
    const res = await createLoad();
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  }

  it('refuses a driver whose medical certificate has expired, on create and on assignment, naming them and the paper', async () => {
    const sam = await newDriver();
    await driverPaper(sam.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, -1) });
    const created = await createLoad({ driverIds: [sam.id] });
    expect(created.statusCode, created.body).toBe(409);
    const body = expectErrorBody(created.json(), 409);
    expect(body.code).toBe('loads.driver_not_qualified');
    expect(body.message).toBe(
      `${sam.name}’s medical certificate expired on ${dayWords(addDays(today, -1))}: add the renewed one to their qualification file first, or choose another driver`,
    );
    expect(body.technicalMessage).toMatch(/^driverIds\.0: /);
    expect((created.json() as { params: Record<string, unknown> }).params).toEqual({ driver: sam.name, kind: 'MEDICAL_CERTIFICATE', date: addDays(today, -1) });
    // Nothing was made.
    const list = await t.app.inject({ method: 'GET', url: org(`/loads?driverId=${sam.id}`), headers: admin });
    expect(list.json()).toMatchObject({ totalElements: 0 });

    const loadId = await plannedLoad();
    const refused = await assign(loadId, { driverIds: [sam.id], overlapAllowed: true });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(expectErrorBody(refused.json(), 409)).toMatchObject({ code: 'loads.driver_not_qualified' });
    const load = await t.app.inject({ method: 'GET', url: org(`/loads/${loadId}`), headers: admin });
    expect(load.json()).toMatchObject({ status: 'PLANNED', drivers: [] });
  });

  it('refuses a paper that runs out before the load ends, and lets a load that ends before it', async () => {
    const kim = await newDriver();
    await driverPaper(kim.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 2) });
    const late = await createLoad({ driverIds: [kim.id] }, 5 * 24 * H);
    expect(late.statusCode, late.body).toBe(409);
    expect(expectErrorBody(late.json(), 409).message).toContain(`medical certificate expires on ${dayWords(addDays(today, 2))}, before this load ends`);
    const soon = await createLoad({ driverIds: [kim.id] }, 6 * H);
    expect(soon.statusCode, soon.body).toBe(201);
  });

  it('refuses a tractor whose annual inspection has lapsed or failed, and a trailer whose registration has expired', async () => {
    const lapsed = await newAsset(vehicleBody());
    await assetPaper(lapsed.id, { kind: 'ANNUAL_INSPECTION', issuedOn: addYears(addDays(today, -1), -1), result: 'PASS' });
    const failed = await newAsset(vehicleBody());
    await assetPaper(failed.id, { kind: 'ANNUAL_INSPECTION', issuedOn: addDays(today, -2), result: 'FAIL', failedItems: ['Tires'] });
    const trailer = await newAsset(trailerBody());
    await assetPaper(trailer.id, { kind: 'REGISTRATION', number: `R${Date.now()}`, state: 'IL', expiresOn: addDays(today, -3) });
    const loadId = await plannedLoad();

    const r1 = await assign(loadId, { driverIds: [], assetId: lapsed.id });
    expect(r1.statusCode, r1.body).toBe(409);
    const b1 = expectErrorBody(r1.json(), 409);
    expect(b1).toMatchObject({ code: 'loads.vehicle_not_compliant' });
    expect(b1.message).toContain(`Vehicle ${lapsed.unitNumber}’s annual inspection expired on ${dayWords(addDays(today, -1))}`);
    expect(b1.technicalMessage).toMatch(/^assetId: /);

    const r2 = await assign(loadId, { driverIds: [], assetId: failed.id });
    expect(r2.statusCode, r2.body).toBe(409);
    expect(expectErrorBody(r2.json(), 409).message).toContain(`Vehicle ${failed.unitNumber} failed its annual inspection`);

    const r3 = await assign(loadId, { driverIds: [], trailerId: trailer.id });
    expect(r3.statusCode, r3.body).toBe(409);
    const b3 = expectErrorBody(r3.json(), 409);
    expect(b3.code).toBe('loads.vehicle_not_compliant');
    expect(b3.technicalMessage).toMatch(/^trailerId: /);
    expect(b3.message).toContain(`Trailer ${trailer.unitNumber}’s registration expired on ${dayWords(addDays(today, -3))}`);
  });

  it('assigns a driver and units with valid papers, and a driver whose file is still missing papers', async () => {
    const valid = await newDriver();
    await driverPaper(valid.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 400) });
    await driverPaper(valid.id, { kind: 'CDL', number: `CDL${Date.now()}`, state: 'IL', expiresOn: addDays(today, 400) });
    const truck = await newAsset(vehicleBody());
    await assetPaper(truck.id, { kind: 'ANNUAL_INSPECTION', issuedOn: addDays(today, -30), result: 'PASS' });
    await assetPaper(truck.id, { kind: 'REGISTRATION', number: `R${Date.now()}`, state: 'IL', expiresOn: addDays(today, 200) });
    const ok = await assign(await plannedLoad(), { driverIds: [valid.id], assetId: truck.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'ASSIGNED', drivers: [{ id: valid.id }], asset: { id: truck.id } });

    const nothingYet = await newDriver();
    const missing = await assign(await plannedLoad(), { driverIds: [nothingYet.id] });
    expect(missing.statusCode, missing.body).toBe(200);
  });

  it('lists a driver whose medical certificate has expired as not offered, with the paper as the reason', async () => {
    const pat = await newDriver({ lastName: `Expired${Date.now()}` });
    await driverPaper(pat.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, -10) });
    const fine = await newDriver({ lastName: `Fine${Date.now()}` });
    const loadId = await plannedLoad();
    const res = await t.app.inject({ method: 'GET', url: org(`/loads/${loadId}/candidates?size=100`), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const page = candidatePageSchema.parse(res.json());
    const row = page.content.find((c) => c.driverId === pat.id);
    expect(row).toMatchObject({ feasible: false, reason: `medical certificate expired on ${dayWords(addDays(today, -10))}` });
    // A driver with no papers yet is not refused for them.
    expect(page.content.find((c) => c.driverId === fine.id)?.reason ?? '').not.toContain('expired');
  });

  it('lists a driver whose own truck has a lapsed inspection as not offered: "Assign" would give the load that truck', async () => {
    const rob = await newDriver({ lastName: `Truckless${Date.now()}` });
    const truck = await newAsset(vehicleBody());
    await assetPaper(truck.id, { kind: 'ANNUAL_INSPECTION', issuedOn: addYears(addDays(today, -5), -1), result: 'PASS' });
    await t.database.db.update(assets).set({ currentDriverId: rob.id }).where(eq(assets.id, truck.id));
    const loadId = await plannedLoad();
    const res = await t.app.inject({ method: 'GET', url: org(`/loads/${loadId}/candidates?size=100&search=${encodeURIComponent(rob.name)}`), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(candidatePageSchema.parse(res.json()).content).toMatchObject([
      { driverId: rob.id, feasible: false, reason: `their truck ${truck.unitNumber}: annual inspection expired on ${dayWords(addDays(today, -5))}` },
    ]);
    const refused = await assign(loadId, { driverIds: [rob.id] });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(expectErrorBody(refused.json(), 409).code).toBe('loads.vehicle_not_compliant');
  });
});
