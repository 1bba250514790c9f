import { expect, test, type APIRequestContext } from '@playwright/test';
import { DVIR_ITEMS } from '@fleet/api-contract/maintenance';
import { officeApi } from './driver-helpers.ts';
import { expectLastColumnShown, seriousA11yViolations } from './helpers.ts';
import { ADMIN, login, ORG, uniq } from './registry-helpers.ts';

// Issue 31, the office's side of the loop at desktop size: a driver's inspection reports a safety
// defect; the office turns it into a work order with one click, works it to done, certifies the
// repair with a typed signature, and the defect leaves the open list. A schedule is entered in the
// organization's units, and the vehicle's detail shows its maintenance.

// axe is injected as a script tag, which the app's CSP would block (as in a11y.spec.ts).
test.use({ viewport: { width: 1280, height: 900 }, bypassCSP: true });

/** A fresh truck driven by a fresh driver, and that driver's signed pre-trip report with one safety defect (made through the API). */
async function reportedDefect(request: APIRequestContext) {
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  const account = await office.driverAccount();
  await office.assign(vehicle.id, account.driver.id);
  const signIn = await request.post('/api/v1/auth/authenticate', { data: { email: account.email, password: account.password } });
  expect(signIn.ok()).toBe(true);
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}` };
  // The organization's own items are reported too (none when the endpoint is absent).
  const own = await request.get(`${office.org}/maintenance/inspection-items`, { headers });
  const extra = own.ok() ? ((await own.json()) as { items: { name: string }[] }).items : [];
  const note = `Air leak at the left front chamber ${uniq()}`;
  const res = await request.post(`${office.org}/dvirs`, {
    headers,
    data: {
      assetId: vehicle.id,
      kind: 'PRE_TRIP',
      items: [
        ...DVIR_ITEMS.map((i) => (i.code === 'SERVICE_BRAKES' ? { item: i.code, ok: false, note, safety: true } : { item: i.code, ok: true })),
        ...extra.map((i) => ({ item: i.name, ok: true })),
      ],
      signature: { name: `${account.driver.firstName} ${account.driver.lastName}` },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const report = (await res.json()) as { id: string; defects: { id: string }[] };
  return { office, vehicle, note, report };
}

test('a reported defect becomes a work order, is repaired and certified, and leaves the open list', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { office, vehicle, note, report } = await reportedDefect(request);
  await login(page, ADMIN);

  // The open defects of that truck: the safety defect is listed with its severity.
  await page.goto(`/maintenance/defects?assetId=${vehicle.id}`);
  const table = page.getByRole('table', { name: 'Defects' });
  const row = table.getByRole('row').filter({ hasText: note });
  await expect(row).toBeVisible();
  await expect(row.getByText('Safety', { exact: true })).toBeVisible();

  // One click makes the work order, which opens.
  await row.getByRole('button', { name: /^Create work order/ }).click();
  await expect(page).toHaveURL(/\/maintenance\/work-orders/);
  const drawer = page.getByRole('dialog', { name: `Work order: ${vehicle.unitNumber}` });
  const form = drawer.getByRole('form', { name: 'Work order form' });
  await expect(form.getByLabel('Title')).toHaveValue(new RegExp('^Service brakes'));
  await expect(form.getByRole('checkbox', { name: new RegExp(note) })).toBeChecked();

  // In progress, with the shop, labour and cost; then done.
  await form.getByLabel('Status').selectOption('IN_PROGRESS');
  await form.getByLabel('Mechanic or shop').fill('Joliet Truck Repair');
  await form.getByLabel('Labour hours').fill('1.5');
  await form.getByLabel(/^Cost \(/).fill('245.50');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Work order saved: in progress')).toBeVisible();
  await form.getByLabel('Status').selectOption('DONE');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Work order saved: done')).toBeVisible();
  const orders = (await (await request.get(`${office.org}/work-orders?assetId=${vehicle.id}`, { headers: office.headers })).json()) as {
    content: { status: string; assignee: string; cost: number; laborHours: number; defectIds: string[] }[];
  };
  expect(orders.content).toEqual([
    expect.objectContaining({ status: 'DONE', assignee: 'Joliet Truck Repair', cost: 245.5, laborHours: 1.5, defectIds: [report.defects[0]!.id] }),
  ]);
  await page.keyboard.press('Escape');

  // The mechanic certifies the repair with a typed signature, after a confirmation.
  await page.goto(`/maintenance/defects?assetId=${vehicle.id}`);
  await table
    .getByRole('row')
    .filter({ hasText: note })
    .getByRole('button', { name: /^Certify/ })
    .click();
  const cert = page.getByRole('form', { name: 'Certification form' });
  await cert.getByLabel('Certification', { exact: true }).fill('Replaced the brake chamber diaphragm; no leak at 120 psi.');
  await cert.getByLabel("Mechanic's name").fill('Sam Ortega');
  await cert.getByRole('button', { name: 'Certify', exact: true }).click();
  await expect(cert.getByText('Certify the repair?')).toBeVisible();
  await cert.getByRole('button', { name: 'Sign and certify' }).click();
  await expect(page.getByText(/certified repaired/)).toBeVisible();
  await expect(page.getByText('No open defects')).toBeVisible();
  const defects = (await (await request.get(`${office.org}/defects?assetId=${vehicle.id}`, { headers: office.headers })).json()) as {
    content: { status: string; certifiedBy: { name: string } }[];
  };
  expect(defects.content).toEqual([expect.objectContaining({ status: 'REPAIRED', certifiedBy: expect.objectContaining({ name: 'Sam Ortega' }) })]);

  // The report reads like the paper form, with the certification under its defect.
  await page.goto(`/maintenance/inspections/${report.id}`);
  await expect(page.getByRole('heading', { name: `Pre-trip inspection: ${vehicle.unitNumber}` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Items inspected' }).getByRole('row').filter({ hasText: 'Service brakes' })).toContainText('Defect');
  await expect(page.getByText(/Certified repaired: Replaced the brake chamber/)).toBeVisible();
  // a11y.spec.ts skips this screen on a database without reports: checked here, with one.
  expect(await seriousA11yViolations(page)).toEqual([]);
});

test('a schedule is entered in the organization units, and the vehicle detail shows its maintenance', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { office, vehicle, note } = await reportedDefect(request);
  await login(page, ADMIN);
  const name = `Oil change ${uniq()}`;

  await page.goto('/maintenance/schedules');
  await page.getByRole('button', { name: 'Add schedule' }).click();
  const form = page.getByRole('form', { name: 'Maintenance schedule form' });
  await form.getByRole('combobox', { name: 'Vehicle', exact: true }).selectOption({ label: vehicle.unitNumber });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  // The demo organization is Imperial: the distance is typed in miles.
  await form.getByLabel('Every (mi)').fill('25000');
  await form.getByLabel('Every (days)').fill('90');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByLabel('Search Maintenance schedules').fill(name);
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('every 25,000 mi · 90 days');
  const saved = (await (await request.get(`${office.org}/maintenance-schedules?search=${encodeURIComponent(name)}`, { headers: office.headers })).json()) as {
    content: { id: string; everyMiles: number; everyDays: number; assetId: string }[];
  };
  expect(saved.content).toEqual([expect.objectContaining({ everyMiles: 25000, everyDays: 90, assetId: vehicle.id })]);

  // A service due opens a new work order filled in for its vehicle and schedule (the due list's link).
  const schedule = saved.content[0]!;
  await page.goto(`/maintenance/work-orders?${new URLSearchParams({ new: 'true', assetId: vehicle.id, scheduleId: schedule.id, title: name })}`);
  const order = page.getByRole('dialog', { name: 'New work order' }).getByRole('form', { name: 'Work order form' });
  await expect(order.getByLabel('Title')).toHaveValue(name);
  await expect(order.getByRole('combobox', { name: 'Vehicle or trailer' })).toHaveValue(vehicle.id);
  await expect(order.getByRole('combobox', { name: 'Maintenance schedule' })).toHaveValue(schedule.id);
  await page.keyboard.press('Escape');

  // The vehicle's detail: its open defect, its inspection, and its next service when the API gives it.
  await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
  const detail = page.getByRole('dialog', { name: `Vehicle ${vehicle.unitNumber}` });
  await expect(detail.getByRole('heading', { name: 'Inspections and maintenance' })).toBeVisible();
  await expect(detail.getByText(new RegExp(note))).toBeVisible();
  await expect(detail.getByRole('link', { name: /^Pre-trip · / })).toBeVisible();
  const next = await request.get(`${office.org}/maintenance/next?assetId=${vehicle.id}`, { headers: office.headers });
  if (next.ok()) await expect(detail.getByText(name)).toBeVisible();
  await expect(detail.getByRole('button', { name: 'Maintenance history' })).toBeVisible();
});

test('at 1280 px beside the open side menu, the maintenance lists show their last column without scrolling sideways', async ({ page, request }) => {
  test.setTimeout(180_000);
  // Something in every list: a defect, its work order (from the defects screen) and a schedule.
  const { office, vehicle } = await reportedDefect(request);
  const ok = async (r: Awaited<ReturnType<APIRequestContext['post']>>) => expect(r.status(), await r.text()).toBe(201);
  await ok(
    await request.post(`${office.org}/maintenance-schedules`, {
      headers: office.headers,
      data: { assetId: vehicle.id, name: `Layout ${uniq()}`, everyDays: 30 },
    }),
  );
  await login(page, ADMIN);
  await expect(page.getByTestId('side-menu')).not.toHaveAttribute('data-collapsed', 'true');
  await page.goto(`/maintenance/defects?assetId=${vehicle.id}`);
  await page.getByRole('button', { name: /^Create work order/ }).click();
  await expect(page).toHaveURL(/\/maintenance\/work-orders/);
  await page.keyboard.press('Escape');
  for (const path of [`/maintenance/defects?assetId=${vehicle.id}`, '/maintenance/work-orders', '/maintenance/schedules', '/maintenance/inspections'])
    await expectLastColumnShown(page, path);
});
