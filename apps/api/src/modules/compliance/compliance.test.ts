import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import {
  addDays,
  addYears,
  assetComplianceSchema,
  complianceCalendarPageSchema,
  complianceItemSchema,
  complianceSummarySchema,
  driverQualificationSchema,
  type ComplianceItem,
  type DriverQualification,
} from '@fleet/api-contract';
import { bearer, createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { multipartForm, pngOf } from '../../test/images.ts';
import { invitedDriver } from '../../test/members.ts';
import { pdfPageCount, pdfTextRuns } from '../../test/pdf.ts';
import { activityRows, driverBody, userWithPermissions, vehicleBody } from '../../test/registry.ts';
import { ensureDemoCompliance } from '../../seed/demo-compliance.ts';
import { blockingItems } from './index.ts';

// Compliance through HTTP on the real database (issue 71, decision 0300): statuses at their
// boundaries (the due date itself, the day after, 30 and 31 days before, missing papers), the 400s
// naming fields, another organization's 404, permissions, a driver's renewal and the office's
// approval, the CDL and the driver's licence as one fact, the calendar and the tile, the papers
// that block dispatch, and the qualification file's index matching its documents, alone and zipped.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let other: Record<string, string>;
let otherOrgId: string;
let today: string;
const base = (org = orgId) => `/api/v1/organizations/${org}`;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Papers Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const o = await registerOrganization(t.app, 'Other Papers Carrier');
  otherOrgId = o.user.organization!.id;
  other = bearer(o.accessToken);
});
afterAll(async () => {
  await t?.close();
});

async function newDriver(over: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const res = await t.app.inject({ method: 'POST', url: `${base()}/drivers`, headers: admin, payload: driverBody(over) });
  expect(res.statusCode, res.body).toBe(201);
  const d = res.json() as { id: string; firstName: string; lastName: string };
  return { id: d.id, name: `${d.firstName} ${d.lastName}` };
}

async function addDriverItem(driverId: string, payload: Record<string, unknown>, headers = admin): Promise<ComplianceItem> {
  const res = await t.app.inject({ method: 'POST', url: `${base()}/drivers/${driverId}/qualification/items`, headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return complianceItemSchema.parse(res.json());
}

async function qualification(driverId: string, headers = admin): Promise<DriverQualification> {
  const res = await t.app.inject({ method: 'GET', url: `${base()}/drivers/${driverId}/qualification`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return driverQualificationSchema.parse(res.json());
}

/** Every required paper but the ones left out, valid a good while. */
async function fullFile(driverId: string, leaveOut: string[] = []) {
  const papers: Array<Record<string, unknown>> = [
    { kind: 'CDL', number: `C${driverId.slice(0, 8)}`, state: 'IL', class: 'A', expiresOn: addYears(today, 3) },
    { kind: 'MEDICAL_CERTIFICATE', issuedOn: addDays(today, -100), expiresOn: addYears(today, 1), examinerRegistryNumber: '1234567890' },
    { kind: 'MVR', issuedOn: addDays(today, -30) },
    { kind: 'ANNUAL_REVIEW', issuedOn: addDays(today, -30) },
    { kind: 'ROAD_TEST', issuedOn: '2024-03-01' },
    { kind: 'EMPLOYMENT_APPLICATION', issuedOn: '2024-02-20' },
    { kind: 'EMPLOYER_INQUIRY', issuedOn: '2024-02-25', issuer: 'Prairie Haulers' },
    { kind: 'CLEARINGHOUSE_FULL', issuedOn: addDays(today, -60) },
  ];
  for (const p of papers.filter((x) => !leaveOut.includes(x.kind as string))) await addDriverItem(driverId, p);
}

describe('compliance statuses', () => {
  it("reads today in the organization's zone and marks the boundaries: the due date EXPIRING, the day after EXPIRED, 30 days before EXPIRING, 31 VALID", async () => {
    const d = await newDriver();
    today = (await qualification(d.id)).today;
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const status = async (expiresOn: string) => (await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn })).status;
    expect(await status(today)).toBe('EXPIRING');
    expect(await status(addDays(today, -1))).toBe('EXPIRED');
    expect(await status(addDays(today, 30))).toBe('EXPIRING');
    const valid = await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 31) });
    expect(valid).toMatchObject({ status: 'VALID', dueDate: addDays(today, 31), daysLeft: 31, approval: 'APPROVED' });
    // An annual kind is due a year after it was done: an MVR of a year and a day ago is EXPIRED.
    expect((await addDriverItem(d.id, { kind: 'MVR', issuedOn: addDays(addYears(today, -1), -1) })).status).toBe('EXPIRED');
    expect((await addDriverItem(d.id, { kind: 'ROAD_TEST', issuedOn: '2015-05-05' })).status).toBe('VALID');

    const file = await qualification(d.id);
    expect(file.items).toHaveLength(6);
    const row = (kind: string) => file.checklist.find((r) => r.kind === kind);
    // The newest medical certificate (the last recorded, none has an issue date) is the current one.
    expect(row('MEDICAL_CERTIFICATE')).toMatchObject({ status: 'VALID', daysLeft: 31, current: { id: valid.id } });
    expect(row('CDL')).toMatchObject({ status: 'MISSING', current: null, dueDate: null });
    expect(row('CLEARINGHOUSE_FULL')?.status).toBe('MISSING');
    expect(row('MVR')?.status).toBe('EXPIRED');
  });

  it('takes the expiring window from the organization setting complianceExpiringDays', async () => {
    const settings = await t.app.inject({ method: 'GET', url: `${base()}/settings`, headers: admin });
    expect(settings.statusCode, settings.body).toBe(200);
    const saved = settings.json() as Record<string, unknown>;
    expect(saved).toMatchObject({ complianceExpiringDays: 30 });
    const bad = await t.app.inject({ method: 'PUT', url: `${base()}/settings`, headers: admin, payload: { ...saved, complianceExpiringDays: 0 } });
    expectFieldErrors(bad.json(), 400, { complianceExpiringDays: 'Expiring within must be at least 1 day' });
    const put = await t.app.inject({ method: 'PUT', url: `${base()}/settings`, headers: admin, payload: { ...saved, complianceExpiringDays: 45 } });
    expect(put.statusCode, put.body).toBe(200);
    const d = await newDriver();
    expect((await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 45) })).status).toBe('EXPIRING');
    expect((await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 46) })).status).toBe('VALID');
    await t.app.inject({ method: 'PUT', url: `${base()}/settings`, headers: admin, payload: { ...saved, complianceExpiringDays: 30 } });
  });
});

describe('compliance papers', () => {
  it('answers 400 naming the fields a kind requires, a kind of the other subject, and bad dates; nothing is stored', async () => {
    const d = await newDriver();
    const url = `${base()}/drivers/${d.id}/qualification/items`;
    const cdl = await t.app.inject({ method: 'POST', url, headers: admin, payload: { kind: 'CDL', class: 'A' } });
    expectFieldErrors(cdl.json(), 400, {
      number: 'Number is required for commercial driver licence',
      state: 'State is required for commercial driver licence',
      expiresOn: 'Expires on is required for commercial driver licence',
    });
    const wrong = await t.app.inject({ method: 'POST', url, headers: admin, payload: { kind: 'REGISTRATION', number: 'P1', state: 'IL', expiresOn: today } });
    expect(expectFieldErrors(wrong.json(), 400, { kind: 'A registration is a paper of vehicles and trailers, not of drivers' }).code).toBe(
      'compliance.kind_not_for_subject',
    );
    const dates = await t.app.inject({
      method: 'POST',
      url,
      headers: admin,
      payload: { kind: 'MEDICAL_CERTIFICATE', issuedOn: today, expiresOn: addDays(today, -1) },
    });
    expectFieldErrors(dates.json(), 400, { expiresOn: 'Expires on must not be before Issued on' });
    const notDate = await t.app.inject({ method: 'POST', url, headers: admin, payload: { kind: 'MEDICAL_CERTIFICATE', expiresOn: '2026-13-40' } });
    expectFieldErrors(notDate.json(), 400, { expiresOn: 'Expires on must be a date like 2026-06-01' });
    const fail = await t.app.inject({ method: 'POST', url, headers: admin, payload: { kind: 'MVR', issuedOn: today, result: 'MAYBE' } });
    expectFieldErrors(fail.json(), 400, { result: 'Result must be PASS or FAIL' });
    expect((await qualification(d.id)).items).toEqual([]);

    const med = await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addYears(today, 1) });
    const patch = await t.app.inject({ method: 'PATCH', url: `${base()}/compliance/items/${med.id}`, headers: admin, payload: { expiresOn: null } });
    expectFieldErrors(patch.json(), 400, { expiresOn: 'Expires on is required for medical certificate' });
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `${base()}/compliance/items/${med.id}`,
      headers: admin,
      payload: { expiresOn: addDays(today, 3), notes: 'Renewal booked' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(complianceItemSchema.parse(ok.json())).toMatchObject({ status: 'EXPIRING', daysLeft: 3, notes: 'Renewal booked' });
    const del = await t.app.inject({ method: 'DELETE', url: `${base()}/compliance/items/${med.id}`, headers: admin });
    expect(del.statusCode).toBe(204);
    expect((await activityRows(t.database.db, med.id)).map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it("keeps another organization's papers out of reach (404) and asks each permission", async () => {
    const d = await newDriver();
    const med = await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addYears(today, 1) });
    for (const [method, url] of [
      ['GET', `${base(otherOrgId)}/drivers/${d.id}/qualification`],
      ['PATCH', `${base(otherOrgId)}/compliance/items/${med.id}`],
      ['DELETE', `${base(otherOrgId)}/compliance/items/${med.id}`],
      ['GET', `${base(otherOrgId)}/compliance/items/${med.id}/pdf`],
      ['GET', `${base(otherOrgId)}/drivers/${d.id}/qualification-file.pdf`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: other, ...(method === 'PATCH' ? { payload: { notes: 'x' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // The other organization's own URL with our ids: not found either, and the paper is unchanged.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${base(otherOrgId)}/drivers/${d.id}/qualification/items`,
          headers: other,
          payload: { kind: 'MVR', issuedOn: today },
        })
      ).statusCode,
    ).toBe(404);
    expect((await qualification(d.id)).items).toHaveLength(1);
    // Our own URL from the other organization: its admin is no member here, and learns nothing of it.
    expect((await t.app.inject({ method: 'GET', url: `${base()}/compliance/items`, headers: other })).statusCode).toBe(404);

    const reader = await userWithPermissions(t, orgId, ['COMPLIANCE_LIST']);
    const nobody = await userWithPermissions(t, orgId, ['DRIVER_LIST']);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/compliance/items`, headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/drivers/${d.id}/qualification`, headers: reader })).statusCode).toBe(200);
    const denied = await t.app.inject({
      method: 'POST',
      url: `${base()}/drivers/${d.id}/qualification/items`,
      headers: reader,
      payload: { kind: 'MVR', issuedOn: today },
    });
    expect(expectErrorBody(denied.json(), 403).code).toBe('auth.forbidden');
    expect((await t.app.inject({ method: 'GET', url: `${base()}/compliance/summary`, headers: nobody })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/drivers/${d.id}/qualification`, headers: nobody })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/drivers/qualification-files.zip`, headers: nobody })).statusCode).toBe(403);
  });

  it("writes the approved CDL into the driver's licence columns, one fact", async () => {
    const d = await newDriver({ licenseClass: 'B' });
    await addDriverItem(d.id, { kind: 'CDL', number: 'x1234567', state: 'wi', class: 'A', endorsements: 'HN', expiresOn: addYears(today, 4) });
    const driver = (await t.app.inject({ method: 'GET', url: `${base()}/drivers/${d.id}`, headers: admin })).json() as Record<string, unknown>;
    expect(driver).toMatchObject({ licenseNumber: 'X1234567', licenseState: 'WI', licenseClass: 'A', licenseExpiry: addYears(today, 4) });
    // Another driver's licence number in a CDL: 409 naming it, and nothing is stored.
    const d2 = await newDriver();
    const clash = await t.app.inject({
      method: 'POST',
      url: `${base()}/drivers/${d2.id}/qualification/items`,
      headers: admin,
      payload: { kind: 'CDL', number: 'X1234567', state: 'WI', expiresOn: addYears(today, 2) },
    });
    expect(expectErrorBody(clash.json(), 409).code).toBe('drivers.license_taken');
    expect((await qualification(d2.id)).items).toEqual([]);
  });

  it('keeps the CDL paper with the licence the driver form writes: recorded with the driver, then changed with the form', async () => {
    const expiry = addYears(today, 2);
    const created = await t.app.inject({
      method: 'POST',
      url: `${base()}/drivers`,
      headers: admin,
      payload: driverBody({ licenseNumber: 'F7654321', licenseState: 'IN', licenseClass: 'A', licenseExpiry: expiry }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const driver = created.json() as Record<string, unknown> & { id: string };
    const cdlOf = async () => (await qualification(driver.id)).checklist.find((r) => r.kind === 'CDL')!;
    const first = await cdlOf();
    expect(first).toMatchObject({ status: 'VALID', dueDate: expiry, current: { number: 'F7654321', state: 'IN', class: 'A', approval: 'APPROVED' } });
    // The form renews the licence: the same paper follows, once.
    const renewed = addYears(today, 4);
    const put = (body: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `${base()}/drivers/${driver.id}`, headers: admin, payload: body });
    const edit = {
      ...driverBody(),
      firstName: driver.firstName,
      lastName: driver.lastName,
      email: driver.email,
      licenseNumber: 'F7654321',
      licenseState: 'IN',
      licenseClass: 'A',
    };
    expect((await put({ ...edit, licenseExpiry: renewed })).statusCode).toBe(200);
    const second = await cdlOf();
    expect(second).toMatchObject({ status: 'VALID', dueDate: renewed, current: { id: first.current!.id } });
    expect((await qualification(driver.id)).items.filter((i) => i.kind === 'CDL')).toHaveLength(1);
    const updates = async () => (await activityRows(t.database.db, first.current!.id)).filter((r) => r.action === 'UPDATE').length;
    expect(await updates()).toBe(1);
    // Saved again unchanged: the paper is not touched.
    expect((await put({ ...edit, licenseExpiry: renewed })).statusCode).toBe(200);
    expect(await updates()).toBe(1);
    // A driver whose form has no expiry gets no paper from it: the checklist still asks for one.
    const bare = await newDriver({ licenseNumber: 'G1112223', licenseState: 'OH', licenseExpiry: null });
    expect((await qualification(bare.id)).checklist.find((r) => r.kind === 'CDL')).toMatchObject({ status: 'MISSING', current: null });
  });
});

describe("a failed annual inspection's items as defects", () => {
  it('makes a failed item a defect of the unit once, on the maintenance pages, and refuses what the inspection does not list', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${base()}/assets`, headers: admin, payload: vehicleBody({ unitNumber: 'AI-1' }) });
    const truck = res.json() as { id: string };
    const add = async (payload: Record<string, unknown>) => {
      const r = await t.app.inject({ method: 'POST', url: `${base()}/assets/${truck.id}/compliance/items`, headers: admin, payload });
      expect(r.statusCode, r.body).toBe(201);
      return complianceItemSchema.parse(r.json());
    };
    const failed = await add({
      kind: 'ANNUAL_INSPECTION',
      issuedOn: addDays(today, -2),
      inspector: 'R. Mechanic',
      result: 'FAIL',
      failedItems: ['Brakes: pushrod travel over limit', 'Lighting: left marker lamp out'],
    });
    expect(failed).toMatchObject({ status: 'EXPIRED', defects: [] });
    const make = (itemId: string, payload: Record<string, unknown>, headers = admin) =>
      t.app.inject({ method: 'POST', url: `${base()}/compliance/items/${itemId}/defects`, headers, payload });

    const made = await make(failed.id, { failedItem: 'Brakes: pushrod travel over limit' });
    expect(made.statusCode, made.body).toBe(201);
    const defect = made.json() as {
      id: string;
      complianceItemId: string;
      dvirId: null;
      asset: { id: string; unitNumber: string };
      label: string;
      safety: boolean;
      status: string;
      note: string;
    };
    expect(defect).toMatchObject({
      complianceItemId: failed.id,
      dvirId: null,
      asset: { id: truck.id, unitNumber: 'AI-1' },
      label: 'Brakes: pushrod travel over limit',
      safety: true,
      status: 'OPEN',
    });
    expect(defect.note).toContain('R. Mechanic');
    // The defects list of maintenance has it, open.
    const open = await t.app.inject({ method: 'GET', url: `${base()}/defects?assetId=${truck.id}&status=OPEN`, headers: admin });
    expect(open.statusCode, open.body).toBe(200);
    expect((open.json() as { content: Array<{ id: string }> }).content.map((d) => d.id)).toEqual([defect.id]);
    // The second time: 409, and still one.
    const again = await make(failed.id, { failedItem: 'Brakes: pushrod travel over limit' });
    expect(expectErrorBody(again.json(), 409).code).toBe('compliance.defect_exists');
    // The other item, not a safety defect; the unit's papers say which items are defects.
    expect((await make(failed.id, { failedItem: 'Lighting: left marker lamp out', safety: false })).statusCode).toBe(201);
    const papers = assetComplianceSchema.parse((await t.app.inject({ method: 'GET', url: `${base()}/assets/${truck.id}/compliance`, headers: admin })).json());
    expect(papers.items.find((i) => i.id === failed.id)!.defects).toEqual([
      { failedItem: 'Brakes: pushrod travel over limit', defectId: defect.id, status: 'OPEN' },
      { failedItem: 'Lighting: left marker lamp out', defectId: expect.any(String), status: 'OPEN' },
    ]);
    const [row] = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from vehicle_defects where organization_id = ${orgId} and compliance_item_id = ${failed.id}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(row!.n).toBe(2);
    expect((await activityRows(t.database.db, truck.id)).filter((r) => r.action === 'INSPECTION_ITEM_DEFECT')).toHaveLength(2);

    // An item the inspection does not list, a passed inspection, another paper: 400, nothing made.
    const unknown = await make(failed.id, { failedItem: 'Tires' });
    expect(expectFieldErrors(unknown.json(), 400, { failedItem: 'The inspection lists no failed item "Tires"' }).code).toBe('compliance.not_failed_item');
    const passed = await add({ kind: 'ANNUAL_INSPECTION', issuedOn: addDays(today, -1), inspector: 'R. Mechanic', result: 'PASS' });
    expect(expectErrorBody((await make(passed.id, { failedItem: 'Tires' })).json(), 400).code).toBe('compliance.not_failed_item');
    expect(expectErrorBody((await make(failed.id, { failedItem: '' })).json(), 400).code).toBe('validation.invalid_body');
    // Another organization's paper: 404; a reader without COMPLIANCE_UPDATE: 403.
    const foreign = await t.app.inject({
      method: 'POST',
      url: `${base(otherOrgId)}/compliance/items/${failed.id}/defects`,
      headers: other,
      payload: { failedItem: 'Brakes: pushrod travel over limit' },
    });
    expect(foreign.statusCode).toBe(404);
    const reader = await userWithPermissions(t, orgId, ['COMPLIANCE_LIST']);
    expect(expectErrorBody((await make(failed.id, { failedItem: 'Lighting: left marker lamp out' }, reader)).json(), 403).code).toBe('auth.forbidden');
    const [after] = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from vehicle_defects where organization_id = ${orgId} and compliance_item_id is not null`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    expect(after!.n).toBe(2);
  });
});

describe("a driver's renewal and the office's approval", () => {
  it('stores the driver’s own medical certificate PENDING, counts it once approved, and refuses a second decision', async () => {
    const mine = await invitedDriver(t.app, t.dataDir, orgId, admin);
    const theirs = await invitedDriver(t.app, t.dataDir, orgId, admin);
    const id = mine.driver.id;
    await fullFile(id, ['MEDICAL_CERTIFICATE']);
    const sent = await addDriverItem(id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addYears(today, 2), imageIds: [] }, mine.headers);
    expect(sent).toMatchObject({ approval: 'PENDING', submittedBy: expect.any(String), decidedBy: null });
    // Only the renewable kinds, only one's own file.
    const mvr = await t.app.inject({
      method: 'POST',
      url: `${base()}/drivers/${id}/qualification/items`,
      headers: mine.headers,
      payload: { kind: 'MVR', issuedOn: today },
    });
    expect(expectFieldErrors(mvr.json(), 400, { kind: 'A driver renews their medical certificate or licence' }).code).toBe('compliance.kind_not_renewable');
    expect((await t.app.inject({ method: 'GET', url: `${base()}/drivers/${id}/qualification`, headers: theirs.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/compliance/items/${sent.id}/pdf`, headers: theirs.headers })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'PATCH', url: `${base()}/compliance/items/${sent.id}`, headers: mine.headers, payload: { notes: 'x' } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/compliance/items`, headers: mine.headers })).statusCode).toBe(403);
    // The driver photographs the pages of their pending renewal.
    const form = multipartForm({}, [['file', pngOf(30, 20), 'image/png']]);
    const pages = await t.app.inject({
      method: 'POST',
      url: `${base()}/compliance/items/${sent.id}/pages`,
      headers: { ...mine.headers, ...form.headers },
      payload: form.payload,
    });
    expect(pages.statusCode, pages.body).toBe(200);
    expect(complianceItemSchema.parse(pages.json()).pageCount).toBe(1);

    const own = await qualification(id, mine.headers);
    expect(own.checklist.find((r) => r.kind === 'MEDICAL_CERTIFICATE')?.status).toBe('MISSING');
    expect(
      complianceSummarySchema.parse((await t.app.inject({ method: 'GET', url: `${base()}/compliance/summary`, headers: admin })).json()).pendingApproval,
    ).toBe(1);

    const approved = await t.app.inject({ method: 'POST', url: `${base()}/compliance/items/${sent.id}/approve`, headers: admin });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(complianceItemSchema.parse(approved.json())).toMatchObject({ approval: 'APPROVED', decidedBy: expect.any(String), decidedAt: expect.any(String) });
    expect((await qualification(id, mine.headers)).checklist.find((r) => r.kind === 'MEDICAL_CERTIFICATE')).toMatchObject({
      status: 'VALID',
      current: { id: sent.id },
    });
    const again = await t.app.inject({ method: 'POST', url: `${base()}/compliance/items/${sent.id}/approve`, headers: admin });
    expect(expectErrorBody(again.json(), 409).code).toBe('compliance.not_pending');
    // A driver adds no page to a paper the office decided.
    const late = await t.app.inject({
      method: 'POST',
      url: `${base()}/compliance/items/${sent.id}/pages`,
      headers: { ...mine.headers, ...form.headers },
      payload: form.payload,
    });
    expect(expectErrorBody(late.json(), 409).code).toBe('compliance.not_pending');

    // The licence sent, then rejected with a reason the driver reads; it never counts.
    const licence = await addDriverItem(id, { kind: 'CDL', number: 'R9988776', state: 'IL', expiresOn: addYears(today, 5) }, mine.headers);
    const noReason = await t.app.inject({ method: 'POST', url: `${base()}/compliance/items/${licence.id}/reject`, headers: admin, payload: { reason: ' ' } });
    expectFieldErrors(noReason.json(), 400, { reason: 'Reason is a required field' });
    const rejected = await t.app.inject({
      method: 'POST',
      url: `${base()}/compliance/items/${licence.id}/reject`,
      headers: admin,
      payload: { reason: 'The photo is blurred' },
    });
    expect(complianceItemSchema.parse(rejected.json())).toMatchObject({ approval: 'REJECTED', rejectReason: 'The photo is blurred' });
    const file = await qualification(id, mine.headers);
    expect(file.items.find((i) => i.id === licence.id)?.approval).toBe('REJECTED');
    expect(file.checklist.find((r) => r.kind === 'CDL')?.current?.number).not.toBe('R9988776');
    expect((await activityRows(t.database.db, sent.id)).map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'APPROVE_COMPLIANCE_ITEM']);
    expect((await activityRows(t.database.db, licence.id)).map((r) => r.action)).toEqual(['CREATE', 'REJECT_COMPLIANCE_ITEM']);
  });

  it('warns the driver of a medical certificate due within 7 days', async () => {
    const d = await newDriver();
    await addDriverItem(d.id, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 5) });
    expect((await qualification(d.id)).warnings).toEqual([expect.objectContaining({ kind: 'MEDICAL_CERTIFICATE', daysLeft: 5 })]);
  });
});

describe('the compliance calendar, the tile and dispatch', () => {
  it('lists what needs doing soonest first, filters, leaves inactive drivers out, and counts the tile', async () => {
    const org = await registerOrganization(t.app, 'Calendar Carrier');
    const cal = { id: org.user.organization!.id, headers: bearer(org.accessToken) };
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: `${base(cal.id)}${url}`, headers: cal.headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    const dana = await post('/drivers', driverBody({ firstName: 'Dana', lastName: 'Driver' }));
    const gone = await post('/drivers', driverBody({ firstName: 'Gone', lastName: 'Driver' }));
    const truck = await post('/assets', vehicleBody({ unitNumber: 'T-101' }));
    await post(`/drivers/${dana.id}/qualification/items`, { kind: 'MEDICAL_CERTIFICATE', expiresOn: addDays(today, 5) });
    await post(`/drivers/${dana.id}/qualification/items`, { kind: 'CDL', number: 'D5550001', state: 'IL', expiresOn: addDays(today, -3) });
    const inspected = addDays(addYears(today, -1), -2);
    await post(`/assets/${truck.id}/compliance/items`, { kind: 'ANNUAL_INSPECTION', issuedOn: inspected, inspector: 'J. Smith', result: 'PASS' });
    await post(`/assets/${truck.id}/compliance/items`, { kind: 'REGISTRATION', number: 'P-1', state: 'IL', expiresOn: addYears(today, 1) });
    await t.database.db.execute(sql`update drivers set status = 'INACTIVE' where id = ${gone.id}`);

    const list = async (q = '') => {
      const res = await t.app.inject({ method: 'GET', url: `${base(cal.id)}/compliance/items${q}`, headers: cal.headers });
      expect(res.statusCode, res.body).toBe(200);
      return complianceCalendarPageSchema.parse(res.json());
    };
    const all = await list('?size=100');
    expect(all.content.every((r) => r.subject.id !== gone.id)).toBe(true);
    expect(all.content.every((r) => r.status !== 'VALID')).toBe(true);
    // EXPIRED first (soonest due first), then MISSING, then EXPIRING.
    expect(all.content.slice(0, 2).map((r) => [r.subject.name, r.kind, r.status])).toEqual([
      ['Dana Driver', 'CDL', 'EXPIRED'],
      ['T-101', 'ANNUAL_INSPECTION', 'EXPIRED'],
    ]);
    expect(all.content.at(-1)).toMatchObject({ kind: 'MEDICAL_CERTIFICATE', status: 'EXPIRING', daysLeft: 5, dueDate: addDays(today, 5) });
    const missing = all.content.filter((r) => r.status === 'MISSING');
    expect(missing.map((r) => r.kind)).toEqual([
      'ANNUAL_REVIEW',
      'CLEARINGHOUSE_FULL',
      'EMPLOYER_INQUIRY',
      'EMPLOYMENT_APPLICATION',
      'MVR',
      'ROAD_TEST',
      'INSURANCE',
    ]);
    expect(missing.every((r) => r.itemId === null && r.dueDate === null)).toBe(true);

    expect((await list('?status=EXPIRED&subject=VEHICLE')).content.map((r) => r.kind)).toEqual(['ANNUAL_INSPECTION']);
    expect((await list('?status=VALID')).content.map((r) => r.kind)).toEqual(['REGISTRATION']);
    expect((await list('?kind=MEDICAL_CERTIFICATE,CDL&q=dana')).totalElements).toBe(2);
    const paged = await list('?size=3&page=1');
    expect(paged).toMatchObject({ page: 1, size: 3, totalElements: all.totalElements, totalPages: Math.ceil(all.totalElements / 3) });
    expect(paged.content).toEqual(all.content.slice(3, 6));
    const bad = await t.app.inject({ method: 'GET', url: `${base(cal.id)}/compliance/items?status=LATE`, headers: cal.headers });
    expect(expectErrorBody(bad.json(), 400).message).toContain('status must be among');

    const tile = complianceSummarySchema.parse((await t.app.inject({ method: 'GET', url: `${base(cal.id)}/compliance/summary`, headers: cal.headers })).json());
    expect(tile).toEqual({ expiring: 1, expired: 2, missing: 7, pendingApproval: 0 });

    const asset = assetComplianceSchema.parse(
      (await t.app.inject({ method: 'GET', url: `${base(cal.id)}/assets/${truck.id}/compliance`, headers: cal.headers })).json(),
    );
    expect(asset.checklist.map((r) => [r.kind, r.status])).toEqual([
      ['REGISTRATION', 'VALID'],
      ['INSURANCE', 'MISSING'],
      ['ANNUAL_INSPECTION', 'EXPIRED'],
    ]);

    // What dispatch asks: the expired licence and inspection block; the medical certificate blocks from its due date on.
    const blocking = await blockingItems(t.database.db, cal.id, { driverIds: [dana.id], assetIds: [truck.id], on: today });
    expect(blocking.map((b) => [b.kind, b.message])).toEqual([
      ['CDL', `Dana Driver's commercial driver licence expired on ${addDays(today, -3)}`],
      ['ANNUAL_INSPECTION', `T-101's annual inspection expired on ${addYears(inspected)}`],
    ]);
    const later = await blockingItems(t.database.db, cal.id, { driverIds: [dana.id], on: addDays(today, 6) });
    expect(later.map((b) => b.kind)).toEqual(['CDL', 'MEDICAL_CERTIFICATE']);
    expect(await blockingItems(t.database.db, orgId, { driverIds: [dana.id], assetIds: [truck.id], on: today })).toEqual([]);
  });
});

describe('the qualification file', () => {
  it("prints an index whose page numbers match the documents that follow, and zips every active driver's file", async () => {
    const d = await newDriver({ firstName: 'Quinn', lastName: 'Filer' });
    await fullFile(d.id, ['CLEARINGHOUSE_FULL']);
    const file = await qualification(d.id);
    const itemOf = (kind: string) => file.items.find((i) => i.kind === kind)!;
    const attach = async (itemId: string, files: Array<[string, Buffer, string]>) => {
      const form = multipartForm({}, files);
      const res = await t.app.inject({
        method: 'POST',
        url: `${base()}/compliance/items/${itemId}/pages`,
        headers: { ...admin, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return complianceItemSchema.parse(res.json());
    };
    // The CDL: two photos; the medical certificate: a PDF of three pages; the MVR: one photo.
    expect(
      (
        await attach(itemOf('CDL').id, [
          ['file', pngOf(40, 30), 'image/png'],
          ['file', pngOf(41, 30), 'image/png'],
        ])
      ).pageCount,
    ).toBe(2);
    const scan = await PDFDocument.create();
    for (let i = 0; i < 3; i++) scan.addPage([612, 792]);
    expect((await attach(itemOf('MEDICAL_CERTIFICATE').id, [['file', Buffer.from(await scan.save()), 'application/pdf']])).pageCount).toBe(3);
    expect((await attach(itemOf('MVR').id, [['file', pngOf(42, 30), 'image/png']])).pageCount).toBe(1);
    // Photos and a PDF together, or something else: 400 naming the pages.
    const mixed = multipartForm({}, [
      ['file', pngOf(10, 10), 'image/png'],
      ['file', Buffer.from(await scan.save()), 'application/pdf'],
    ]);
    const refused = await t.app.inject({
      method: 'POST',
      url: `${base()}/compliance/items/${itemOf('MVR').id}/pages`,
      headers: { ...admin, ...mixed.headers },
      payload: mixed.payload,
    });
    expect(expectFieldErrors(refused.json(), 400, { pages: 'Send one PDF file alone, or photos' }).code).toBe('compliance.bad_document');
    const text = multipartForm({}, [['file', Buffer.from('hello'), 'text/plain']]);
    const notPage = await t.app.inject({
      method: 'POST',
      url: `${base()}/compliance/items/${itemOf('MVR').id}/pages`,
      headers: { ...admin, ...text.headers },
      payload: text.payload,
    });
    expectFieldErrors(notPage.json(), 400, { 'pages.0': 'Page 1 must be a JPEG or PNG photo, or a PDF file' });

    const itemPdf = await t.app.inject({ method: 'GET', url: `${base()}/compliance/items/${itemOf('MEDICAL_CERTIFICATE').id}/pdf`, headers: admin });
    expect(itemPdf.headers['content-type']).toBe('application/pdf');
    expect(pdfPageCount(itemPdf.rawPayload)).toBe(3);

    const res = await t.app.inject({ method: 'GET', url: `${base()}/drivers/${d.id}/qualification-file.pdf`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('Quinn-Filer-qualification-file');
    const pdf = res.rawPayload;
    // The index, then 2 + 3 + 1 pages of documents.
    expect(pdfPageCount(pdf)).toBe(7);
    const runs = pdfTextRuns(pdf).filter((r) => r.page === 1);
    const rowOf = (label: string) => {
      const first = runs.find((r) => r.text === label);
      expect(first, label).toBeDefined();
      return runs.filter((r) => Math.abs(r.y - first!.y) < 1).map((r) => r.text);
    };
    expect(rowOf('Commercial driver licence')).toEqual(['Commercial driver licence', `C${d.id.slice(0, 8)}`.toUpperCase(), addYears(today, 3), 'Valid', '2']);
    expect(rowOf('Medical certificate')).toEqual(['Medical certificate', addDays(today, -100), addYears(today, 1), 'Valid', '4']);
    expect(rowOf('Motor vehicle record')).toEqual(['Motor vehicle record', addDays(today, -30), addYears(addDays(today, -30), 1), 'Valid', '7']);
    expect(rowOf('Road test certificate')).toEqual(['Road test certificate', '2024-03-01', 'Valid', '-']);
    expect(rowOf('Clearinghouse full query')).toEqual(['Clearinghouse full query', 'Missing', '-']);
    expect(runs.some((r) => r.text === 'Quinn Filer')).toBe(true);

    const zip = await t.app.inject({ method: 'GET', url: `${base()}/drivers/qualification-files.zip`, headers: admin });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    const quinn = entries['Quinn-Filer-qualification-file.pdf'];
    expect(quinn).toBeDefined();
    expect(pdfPageCount(Buffer.from(quinn!))).toBe(7);
    // One PDF per active driver of the organization.
    const active = (await t.database.db.execute(
      sql`select count(*)::int as n from drivers where organization_id = ${orgId} and status = 'ACTIVE'`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(Object.keys(entries)).toHaveLength(active.rows[0]!.n);
    expect(Object.values(entries).every((b) => Buffer.from(b.subarray(0, 5)).toString('latin1') === '%PDF-')).toBe(true);
  });
});

describe("the demo's compliance files", () => {
  it('gives every demo driver and unit a file: 101’s driver due in 5 days with a renewal waiting, 104’s inspection lapsed, one Clearinghouse query missing', async () => {
    const demo = await login(t.app, DEMO.admin);
    const demoOrg = demo.user.organization!.id;
    const headers = bearer(demo.accessToken);
    const made = await ensureDemoCompliance(t.database.db, demoOrg);
    expect(made.pending).toBe(1);
    expect(made.items).toBeGreaterThan(100);
    const page = async (q: string) => {
      const res = await t.app.inject({ method: 'GET', url: `${base(demoOrg)}/compliance/items${q}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return complianceCalendarPageSchema.parse(res.json()).content;
    };
    expect((await page('?status=EXPIRED')).map((r) => [r.subject.name, r.kind])).toEqual([['104', 'ANNUAL_INSPECTION']]);
    expect((await page('?status=MISSING')).map((r) => r.kind)).toEqual(['CLEARINGHOUSE_FULL']);
    const medical = (await page('?status=EXPIRING&kind=MEDICAL_CERTIFICATE')).find((r) => r.daysLeft === 5);
    expect(medical).toBeDefined();
    const res = await t.app.inject({ method: 'GET', url: `${base(demoOrg)}/drivers/${medical!.subject.id}/qualification`, headers });
    const own = driverQualificationSchema.parse(res.json());
    expect(own.items.find((i) => i.approval === 'PENDING')).toMatchObject({ kind: 'MEDICAL_CERTIFICATE', pageCount: 1 });
    expect(own.warnings.map((w) => w.kind)).toEqual(['MEDICAL_CERTIFICATE']);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `${base(demoOrg)}/compliance/items/${own.items.find((i) => i.approval === 'PENDING')!.id}/pdf`,
      headers,
    });
    expect(pdfPageCount(pdf.rawPayload)).toBe(1);
  });
});
