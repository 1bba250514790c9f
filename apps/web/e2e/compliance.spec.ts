import fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { driverLogin, officeApi } from './driver-helpers.ts';
import { screenshotsLightDark, seriousA11yViolations, signIn } from './helpers.ts';

// Issue 71 as the office and a driver use it: the compliance calendar shows what the demo shows,
// papers running out (a medical certificate in 5 days), run out (a lapsed annual inspection) and
// missing (a Clearinghouse full query), filtered by status and paper, each row opening the driver's or
// unit's file; the dashboard's tile counts them. A safety manager adds a medical certificate with its scan to
// a driver's file, then its renewal, and reads the status of each; a unit's failed inspection reads
// expired. A driver warned on the phone that the medical certificate runs out in 3 days photographs
// the renewed one and sends it; the office approves it and the file is in order again.

test.use({ bypassCSP: true });

const PHONE = { width: 375, height: 812 };

interface CalendarRow {
  itemId: string | null;
  subject: { type: 'DRIVER' | 'VEHICLE' | 'TRAILER'; id: string; name: string };
  kind: string;
  status: string;
  dueDate: string | null;
  daysLeft: number | null;
}

/** A PNG of one colour: a scanned page. */
function pngOf(width: number, height: number, rgb: [number, number, number]): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    let c = 0xffffffff;
    for (const x of body) c = table[(c ^ x) & 0xff]! ^ (c >>> 8);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE((c ^ 0xffffffff) >>> 0, body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The calendar date `days` after `day`. */
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** "Dec 5, 2026", as the office's screens write a date. */
const dayText = (day: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`));

async function json<T>(r: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(r.status(), await r.text()).toBe(status);
  return (await r.json()) as T;
}

/** A new driver account whose medical certificate on file (recorded by the office) runs out in `days` days. */
async function driverWithMedicalDue(request: APIRequestContext, days: number) {
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const { today } = await json<{ today: string }>(await request.get(`${office.org}/drivers/${account.driver.id}/qualification`, { headers: office.headers }));
  await json(
    await request.post(`${office.org}/drivers/${account.driver.id}/qualification/items`, {
      headers: office.headers,
      data: { kind: 'MEDICAL_CERTIFICATE', issuedOn: addDays(today, -700), expiresOn: addDays(today, days) },
    }),
    201,
  );
  return { office, account, today };
}

/** The checklist row of a kind in the open file. */
const checklistRow = (page: Page, kind: string) => page.getByRole('list', { name: 'Checklist' }).locator(`[data-testid="compliance-row"][data-kind="${kind}"]`);

test('the compliance calendar lists papers running out, run out and missing, and opens their files', async ({ page, request }) => {
  const office = await officeApi(request);
  // The demo's three (apps/api/src/seed/demo-compliance.ts) are seeded with the simulated fleet, which the
  // browser tests run without: the same three are made here, on a driver and a truck of this test's own.
  const run = Date.now().toString(36).toUpperCase();
  const made = await json<{ id: string; firstName: string; lastName: string }>(
    await request.post(`${office.org}/drivers`, {
      headers: office.headers,
      data: { firstName: 'Robin', lastName: `Calendar${run.slice(-4)}`, licenseNumber: `RC${run}`, licenseState: 'IL' },
    }),
    201,
  );
  const { today } = await json<{ today: string }>(await request.get(`${office.org}/drivers/${made.id}/qualification`, { headers: office.headers }));
  await json(
    await request.post(`${office.org}/drivers/${made.id}/qualification/items`, {
      headers: office.headers,
      data: { kind: 'MEDICAL_CERTIFICATE', issuedOn: addDays(today, -360), expiresOn: addDays(today, 5) },
    }),
    201,
  );
  const truck = await office.vehicle();
  await json(
    await request.post(`${office.org}/assets/${truck.id}/compliance/items`, {
      headers: office.headers,
      data: { kind: 'ANNUAL_INSPECTION', issuedOn: addDays(today, -400), inspector: 'Lee Mechanic', result: 'PASS' },
    }),
    201,
  );
  const rowsOf = async (subjectId: string) =>
    (await json<{ content: CalendarRow[] }>(await request.get(`${office.org}/compliance/items?subjectId=${subjectId}&size=50`, { headers: office.headers })))
      .content;
  const driverRows = await rowsOf(made.id);
  const medical = driverRows.find((r) => r.kind === 'MEDICAL_CERTIFICATE' && r.status === 'EXPIRING' && r.daysLeft === 5);
  const clearinghouse = driverRows.find((r) => r.kind === 'CLEARINGHOUSE_FULL' && r.status === 'MISSING');
  const inspection = (await rowsOf(truck.id)).find((r) => r.kind === 'ANNUAL_INSPECTION' && r.status === 'EXPIRED');
  expect(medical, JSON.stringify(driverRows)).toBeTruthy();
  expect(inspection).toBeTruthy();
  expect(clearinghouse).toBeTruthy();

  await signIn(page, 'admin');
  await page.goto('/compliance');
  await expect(page.getByRole('heading', { name: 'Compliance', level: 1 })).toBeVisible();
  const statuses = page.getByRole('group', { name: 'Statuses shown' });
  // What needs doing, by default: expiring, expired and missing; not the valid ones.
  for (const s of ['Expiring', 'Expired', 'Missing']) await expect(statuses.getByRole('checkbox', { name: s })).toBeChecked();
  await expect(statuses.getByRole('checkbox', { name: 'Valid' })).not.toBeChecked();
  const table = page.getByRole('table', { name: 'Compliance calendar' });
  // Soonest first: the expired rows lead.
  await expect(table.locator('tbody tr').first().locator('[data-status]')).toHaveAttribute('data-status', 'EXPIRED');

  // Each of the three, found by its subject's name.
  const search = page.getByLabel('Search Compliance calendar');
  await search.fill(medical!.subject.name);
  const medicalRow = table.getByRole('row').filter({ hasText: 'Medical certificate' }).filter({ hasText: medical!.subject.name });
  await expect(medicalRow).toContainText('Expiring');
  await expect(medicalRow).toContainText(`${dayText(medical!.dueDate!)} · in 5 days`);
  await search.fill(inspection!.subject.name);
  const inspectionRow = table.getByRole('row').filter({ hasText: 'Annual inspection' }).filter({ hasText: inspection!.subject.name });
  await expect(inspectionRow).toContainText('Expired');
  await search.fill(clearinghouse!.subject.name);
  const missingRow = table.getByRole('row').filter({ hasText: 'Clearinghouse full query' }).filter({ hasText: clearinghouse!.subject.name });
  await expect(missingRow).toContainText('Missing');

  // Missing left out: the row goes; back in, it returns.
  await statuses.getByText('Missing', { exact: true }).click();
  await expect(page).toHaveURL(/status=EXPIRING%2CEXPIRED|status=EXPIRING,EXPIRED/);
  await expect(missingRow).toHaveCount(0);
  await statuses.getByText('Missing', { exact: true }).click();
  await expect(missingRow).toBeVisible();

  // Only annual inspections, of every unit.
  await search.fill('');
  await page.getByRole('combobox', { name: 'Papers' }).click();
  await page.getByRole('option', { name: 'Annual inspection' }).click();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('row').filter({ hasText: inspection!.subject.name })).toBeVisible();
  await expect(table.locator('tbody tr').filter({ hasNotText: 'Annual inspection' })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.goto('/compliance');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await screenshotsLightDark(page, 'compliance-calendar');

  // A row opens the driver's qualification file.
  await search.fill(medical!.subject.name);
  await medicalRow.getByRole('link', { name: medical!.subject.name }).click();
  await expect(page).toHaveURL(/\/settings\/organization-settings\/all-drivers/);
  const drawer = page.getByRole('dialog', { name: medical!.subject.name });
  await expect(drawer.getByRole('tab', { name: 'Qualification file' })).toHaveAttribute('aria-selected', 'true');
  await expect(checklistRow(page, 'MEDICAL_CERTIFICATE')).toHaveAttribute('data-status', 'EXPIRING');
  await expect(checklistRow(page, 'MEDICAL_CERTIFICATE')).toContainText('in 5 days');

  // The dashboard's tile counts what the calendar holds.
  const summary = await json<{ expiring: number; expired: number }>(await request.get(`${office.org}/compliance/summary`, { headers: office.headers }));
  await page.goto('/dashboard');
  const tile = page.getByTestId('dashboard-compliance');
  await expect(tile).toContainText(`Compliance: ${summary.expiring} expiring, ${summary.expired} expired`);
  await tile.click();
  await expect(page).toHaveURL(/\/compliance$/);
});

test('the office adds a medical certificate with its scan to a driver’s file, then its renewal, and a unit’s failed inspection', async ({ page, request }) => {
  const office = await officeApi(request);
  const run = Date.now().toString(36).toUpperCase();
  const driver = await json<{ id: string; firstName: string; lastName: string }>(
    await request.post(`${office.org}/drivers`, {
      headers: office.headers,
      data: { firstName: 'Quinn', lastName: `Papers${run.slice(-4)}`, licenseNumber: `QF${run}`, licenseState: 'IL' },
    }),
    201,
  );
  const name = `${driver.firstName} ${driver.lastName}`;
  const file = await json<{ today: string }>(await request.get(`${office.org}/drivers/${driver.id}/qualification`, { headers: office.headers }));
  const today = file.today;

  await signIn(page, 'admin');
  await page.goto(`/settings/organization-settings/all-drivers?open=${driver.id}&tab=qualification`);
  const drawer = page.getByRole('dialog', { name });
  await expect(drawer.getByRole('tab', { name: 'Qualification file' })).toHaveAttribute('aria-selected', 'true');
  const medical = checklistRow(page, 'MEDICAL_CERTIFICATE');
  await expect(medical).toHaveAttribute('data-status', 'MISSING');
  await expect(medical).toContainText('Missing');

  // Added with its scan: valid, a page on file.
  await medical.getByRole('button', { name: 'Add Medical certificate' }).click();
  let dialog = page.getByRole('dialog', { name: `Add a paper to ${name}'s file` });
  await expect(dialog.getByLabel('Paper', { exact: true })).toHaveValue('MEDICAL_CERTIFICATE');
  // The expiry is required for a medical certificate: said before anything is sent.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Expires on is required for medical certificate')).toBeVisible();
  await dialog.getByLabel('Examined on').fill(addDays(today, -30));
  await dialog.getByLabel('Expires on').fill(addDays(today, 300));
  await dialog.getByLabel('Examiner registry number').fill('1234567890');
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'medical.png', mimeType: 'image/png', buffer: pngOf(600, 800, [230, 230, 230]) });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(medical).toHaveAttribute('data-status', 'VALID');
  await expect(medical).toContainText('Valid');
  await expect(medical).toContainText('1 page');
  await expect(medical).toContainText(`in 300 days`);

  // Its renewal, due in 10 days: it is the current one, and expiring (within the organization's 30 days).
  await medical.getByRole('button', { name: 'Renew Medical certificate' }).click();
  dialog = page.getByRole('dialog', { name: `Add a paper to ${name}'s file` });
  await dialog.getByLabel('Examined on').fill(addDays(today, 1));
  await dialog.getByLabel('Expires on').fill(addDays(today, 10));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(medical).toHaveAttribute('data-status', 'EXPIRING');
  await expect(medical).toContainText(`${dayText(addDays(today, 10))} · in 10 days`);
  await drawer.getByRole('button', { name: /Show earlier and refused papers \(1\)/ }).click();
  await expect(drawer.getByTestId('compliance-other')).toContainText('1 page');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'compliance-driver-file');

  // The file as one PDF.
  const pdf = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Qualification file (PDF)' }).click();
  const download = await pdf;
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // The earlier one deleted, after a confirmation.
  await drawer.getByTestId('compliance-other').getByRole('button', { name: 'More for Medical certificate' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this medical certificate?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(drawer.getByTestId('compliance-other')).toHaveCount(0);
  await expect(medical).toHaveAttribute('data-status', 'EXPIRING');

  // A truck whose annual inspection failed is out of compliance, whatever its date.
  const vehicle = await office.vehicle();
  const unit = vehicle.unitNumber;
  await page.goto(`/settings/organization-settings/vehicles?open=${vehicle.id}`);
  const unitDrawer = page.getByRole('dialog', { name: `Vehicle ${unit}` });
  const inspection = checklistRow(page, 'ANNUAL_INSPECTION');
  await expect(inspection).toHaveAttribute('data-status', 'MISSING');
  await inspection.getByRole('button', { name: 'Add Annual inspection' }).click();
  dialog = page.getByRole('dialog', { name: `Add a paper to ${unit}'s file` });
  await dialog.getByLabel('Inspected on').fill(addDays(today, -2));
  await dialog.getByLabel('Inspector').fill('Lee Mechanic');
  await dialog.getByText('Failed', { exact: true }).click();
  await dialog.getByLabel('Failed items').fill('Brake adjustment\nLeft tail lamp');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(inspection).toHaveAttribute('data-status', 'EXPIRED');
  await expect(inspection).toContainText('Inspector Lee Mechanic · Failed');
  await expect(unitDrawer.getByRole('heading', { name: 'Compliance' })).toBeVisible();

  // Its failed brake adjustment made a defect of the truck, after a confirmation; the lamp stays as it is.
  const failed = inspection.getByRole('list', { name: 'Failed items' }).getByRole('listitem');
  await expect(failed).toHaveText([/Brake adjustment/, /Left tail lamp/]);
  await inspection.getByRole('button', { name: 'Open defect for Brake adjustment' }).click();
  const ask = page.getByRole('dialog', { name: 'Open a defect?' });
  await expect(ask).toContainText(`"Brake adjustment" becomes a safety defect of ${unit}`);
  await ask.getByRole('button', { name: 'Open defect' }).click();
  await expect(failed.nth(0).getByText('Defect open')).toBeVisible();
  await expect(inspection.getByRole('button', { name: 'Open defect for Left tail lamp' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'compliance-failed-inspection');
  const defects = await json<{ content: Array<{ label: string; safety: boolean; status: string; complianceItemId: string | null }> }>(
    await request.get(`${office.org}/defects?assetId=${vehicle.id}`, { headers: office.headers }),
  );
  expect(defects.content).toEqual([expect.objectContaining({ label: 'Brake adjustment', safety: true, status: 'OPEN', complianceItemId: expect.any(String) })]);
  // On the maintenance pages with the others, where a mechanic certifies it.
  await failed.nth(0).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/maintenance/defects\\?assetId=${vehicle.id}`));
  await expect(page.getByRole('row', { name: /Brake adjustment/ })).toBeVisible();
});

test('a driver warned on the phone sends a renewed medical certificate, which the office approves', async ({ browser, request }) => {
  // The office's medical certificate on file runs out in 3 days.
  const { account, today } = await driverWithMedicalDue(request, 3);

  const phone = await browser.newPage({ viewport: PHONE, timezoneId: 'America/Chicago', bypassCSP: true });
  await driverLogin(phone, account);
  const warning = phone.getByTestId('driver-compliance-warning');
  await expect(warning).toContainText('Your medical certificate expires in 3 days');
  expect(await seriousA11yViolations(phone)).toEqual([]);
  await screenshotsLightDark(phone, 'compliance-driver-warning');
  await warning.getByRole('button', { name: 'Send a renewal' }).click();
  const renew = phone.getByRole('dialog', { name: 'Send a renewed paper' });
  await expect(renew.getByRole('radio', { name: 'Medical certificate' })).toBeChecked();
  // Nothing photographed yet: said, nothing sent.
  await renew.getByLabel('Date of the exam').fill(addDays(today, -1));
  await renew.getByLabel('New expiry date').fill(addDays(today, 700));
  await renew.getByRole('button', { name: 'Send for approval' }).click();
  await expect(renew.getByRole('alert')).toHaveText('Photograph at least one page');
  await renew.locator('input[type="file"]').setInputFiles({ name: 'page-1.png', mimeType: 'image/png', buffer: pngOf(600, 800, [240, 240, 235]) });
  await expect(renew.getByRole('img', { name: 'Page 1' })).toBeVisible();
  await expect(renew.getByRole('alert')).toHaveCount(0);
  expect(await seriousA11yViolations(phone)).toEqual([]);
  await screenshotsLightDark(phone, 'compliance-renew');
  await renew.getByRole('button', { name: 'Send for approval' }).click();
  await expect(renew).toBeHidden();
  // Still warned until the office approves it, and told the renewal waits.
  await expect(warning).toContainText('Your renewal was sent; the office checks it.');
  await expect(warning.getByRole('button', { name: 'Send a renewal' })).toHaveCount(0);
  await phone.close();

  const page = await browser.newPage();
  await signIn(page, 'admin');
  await page.goto(`/settings/organization-settings/all-drivers?open=${account.driver.id}&tab=qualification`);
  const pending = page.getByTestId('compliance-pending');
  await expect(pending).toContainText('Medical certificate sent for approval');
  await expect(pending).toContainText(`expires ${dayText(addDays(today, 700))}`);
  await expect(pending).toContainText('1 page');
  const medical = checklistRow(page, 'MEDICAL_CERTIFICATE');
  await expect(medical).toHaveAttribute('data-status', 'EXPIRING');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'compliance-pending');
  await pending.getByRole('button', { name: 'Approve' }).click();
  await expect(pending).toHaveCount(0);
  await expect(medical).toHaveAttribute('data-status', 'VALID');
  await expect(medical).toContainText(dayText(addDays(today, 700)));

  // The driver's phone no longer warns.
  const again = await browser.newPage({ viewport: PHONE, timezoneId: 'America/Chicago' });
  await driverLogin(again, account);
  await expect(again.getByTestId('driver-compliance-warning')).toHaveCount(0);
  await again.close();
  await page.close();
});

test('a renewal sent without signal goes once the signal returns; the office refuses it with a reason the driver reads, and downloads the papers', async ({
  browser,
  request,
}) => {
  const { office, account, today } = await driverWithMedicalDue(request, 2);

  const phone = await browser.newPage({ viewport: PHONE, timezoneId: 'America/Chicago', bypassCSP: true, serviceWorkers: 'allow' });
  await driverLogin(phone, account);
  await phone.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  });
  const warning = phone.getByTestId('driver-compliance-warning');
  await expect(warning).toContainText('Your medical certificate expires in 2 days');
  // No signal: the renewal and its page wait on the phone.
  await phone.context().setOffline(true);
  const banner = phone.getByTestId('offline-banner');
  await expect(banner).toBeVisible();
  await warning.getByRole('button', { name: 'Send a renewal' }).click();
  const renew = phone.getByRole('dialog', { name: 'Send a renewed paper' });
  await renew.getByLabel('Date of the exam').fill(addDays(today, -1));
  await renew.getByLabel('New expiry date').fill(addDays(today, 500));
  await renew.locator('input[type="file"]').setInputFiles({ name: 'page-1.png', mimeType: 'image/png', buffer: pngOf(600, 800, [250, 250, 250]) });
  await expect(renew.getByRole('img', { name: 'Page 1' })).toBeVisible();
  await renew.getByRole('button', { name: 'Send for approval' }).click();
  await expect(renew).toBeHidden();
  await expect(banner).toContainText('Offline: 1 record waiting');
  const pendingOf = async () =>
    (
      await json<{ items: Array<{ id: string; approval: string; pageCount: number }> }>(
        await request.get(`${office.org}/drivers/${account.driver.id}/qualification`, { headers: office.headers }),
      )
    ).items.filter((i) => i.approval === 'PENDING');
  expect(await pendingOf()).toEqual([]);
  // The signal returns: sent once, with its page.
  await phone.context().setOffline(false);
  await expect(banner).toContainText('Sent: 1 record', { timeout: 60_000 });
  await expect.poll(async () => (await pendingOf()).map((i) => i.pageCount)).toEqual([1]);
  await expect(warning).toContainText('Your renewal was sent; the office checks it.');

  // The office reads its page and refuses it, saying why.
  const page = await browser.newPage();
  await signIn(page, 'admin');
  await page.goto(`/settings/organization-settings/all-drivers?open=${account.driver.id}&tab=qualification`);
  const pending = page.getByTestId('compliance-pending');
  await expect(pending).toContainText('Medical certificate sent for approval');
  const document = page.waitForEvent('download');
  await pending.getByRole('button', { name: 'Document' }).click();
  expect(
    fs
      .readFileSync((await (await document).path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  await pending.getByRole('button', { name: 'Reject' }).click();
  const reject = page.getByRole('dialog', { name: /^Reject .*'s medical certificate\?$/ });
  // A reason is required: said, nothing sent.
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(reject.getByRole('alert')).toBeVisible();
  expect(await pendingOf()).toHaveLength(1);
  await reject.getByLabel('Reason').fill('The photo is too dark to read the expiry date');
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(reject).toBeHidden();
  await expect(pending).toHaveCount(0);
  await page.getByRole('button', { name: /Show earlier and refused papers/ }).click();
  await expect(page.getByTestId('compliance-other').filter({ hasText: 'Refused' })).toContainText('Refused: The photo is too dark to read the expiry date');
  expect(await pendingOf()).toEqual([]);

  // Every driver's file as one ZIP from the compliance page.
  await page.goto('/compliance');
  const zip = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download all qualification files (ZIP)' }).click();
  expect(
    fs
      .readFileSync((await (await zip).path())!)
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
  await page.close();

  // The driver reads why, and may send another.
  await phone.reload();
  await expect(warning).toContainText('The office refused your renewal: The photo is too dark to read the expiry date');
  await expect(warning.getByRole('button', { name: 'Send a renewal' })).toBeVisible();
  await phone.close();
});
