import { expect, test, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { signIn, uniq } from './registry-helpers.ts';

// Issue 70, part 1: the customers loads are for. A dispatcher keeps them beside the loads board (the
// form's messages, edits, a delete asked first and refused while loads name the customer), and the
// load form picks one as it is typed, or takes a new name that joins the list.

const shots = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};
const scheme = async (page: Page, dark: boolean) => {
  const current = await page.locator('html').getAttribute('data-mantine-color-scheme');
  if ((current === 'dark') !== dark) await page.getByRole('button', { name: dark ? 'Switch to dark theme' : 'Switch to light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
};
/** Tomorrow in Chicago, YYYY-MM-DD. */
const tomorrow = () => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });

test('a dispatcher adds and edits a customer, picks it on a new load, and cannot delete it while the load names it', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Prairie ${uniq()} Grain Co-op`;
  await signIn(page, 'dispatcher');
  await page.goto('/dispatch');
  await page.getByRole('link', { name: 'Customers' }).first().click();
  await expect(page).toHaveURL(/\/dispatch\/customers$/);
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();

  // The header's button (an empty list offers one too).
  await page.getByRole('button', { name: 'Add customer' }).first().click();
  const form = page.getByRole('form', { name: 'Customer form' });
  await expect(form.getByLabel('Payment terms (days)')).toHaveValue('30');
  await expect(form.getByText('Net 30')).toBeVisible();
  await form.getByLabel('Payment terms (days)').fill('400');
  await form.getByLabel('Invoice e-mail').fill('not an address');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Name is a required field')).toBeVisible();
  await expect(form.getByText('Invoice e-mail must be a valid email address')).toBeVisible();
  await expect(form.getByText('Payment terms must be from 0 to 365 days')).toBeVisible();
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Invoice e-mail').fill('AP@PrairieGrain.example');
  await form.getByLabel('Billing address').fill('400 Elevator Rd\nSalina, KS 67401');
  await form.getByLabel('Payment terms (days)').fill('45');
  await expect(form.getByText('Net 45')).toBeVisible();
  await form.getByLabel(/Detention rate/).fill('65');
  await form.getByLabel('Requires a proof of delivery').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('ap@prairiegrain.example');
  await expect(row).toContainText('Net 45');
  await expect(row).toContainText('2 h free, then $65.00/h');
  await expect(row).toContainText('Required');
  await expect(row).toContainText('0 loads');

  // Edited from its row: the terms change.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await form.getByLabel('Payment terms (days)').fill('15');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(row).toContainText('Net 15');
  // The search finds it by its e-mail.
  await page.getByPlaceholder('Name, address, e-mail or notes').fill('prairiegrain.example');
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1);

  // A new load picks it as it is typed; its terms show under the field.
  await page.goto('/dispatch/loads/new');
  const loadForm = page.getByRole('form', { name: 'Load form' });
  await loadForm.getByLabel('Customer').fill(name.slice(0, 12));
  await page.getByRole('listbox').getByRole('option', { name }).click();
  await expect(loadForm.getByText('Net 15 · proof of delivery required')).toBeVisible();
  const day = tomorrow();
  const stops = loadForm.getByTestId('stop-form');
  await stops.nth(0).getByLabel('Latitude').fill('41.85');
  await stops.nth(0).getByLabel('Longitude').fill('-87.65');
  await stops
    .nth(0)
    .getByLabel(/Appointment from/)
    .fill(`${day}T08:00`);
  await stops
    .nth(0)
    .getByLabel(/Appointment until/)
    .fill(`${day}T10:00`);
  await stops.nth(1).getByLabel('Latitude').fill('39.77');
  await stops.nth(1).getByLabel('Longitude').fill('-86.16');
  await stops
    .nth(1)
    .getByLabel(/Appointment from/)
    .fill(`${day}T17:00`);
  await stops
    .nth(1)
    .getByLabel(/Appointment until/)
    .fill(`${day}T21:00`);
  await loadForm.getByLabel('Line haul').fill('1850');
  await loadForm.getByRole('button', { name: 'Save load' }).click();
  await expect(page).toHaveURL(/\/dispatch\/loads\/[0-9a-f-]{36}$/);
  await expect(page.getByText(name).first()).toBeVisible();

  // Named by that load, the customer stays: the delete asks, then is refused in words.
  await page.goto('/dispatch/customers');
  await expect(row).toContainText('1 load');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirmDialog = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirmDialog).toContainText('1 load names it');
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} is the customer of 1 load`).first()).toBeVisible();
  await expect(row).toBeVisible();
});

test('a new name typed on a load joins the customers; one no load names is deleted', async ({ page, request }) => {
  test.setTimeout(90_000);
  const api = await officeApi(request);
  const spare = `Spare ${uniq()} Shipper`;
  expect((await request.post(`${api.org}/customers`, { headers: api.headers, data: { name: spare } })).status()).toBe(201);
  const typed = `Typed ${uniq()} Logistics`;
  await signIn(page, 'dispatcher');
  await page.goto('/dispatch/loads/new');
  const loadForm = page.getByRole('form', { name: 'Load form' });
  await loadForm.getByLabel('Customer').fill(typed);
  await expect(loadForm.getByText('New customer: saving the load adds it to Customers')).toBeVisible();
  const day = tomorrow();
  const stops = loadForm.getByTestId('stop-form');
  await stops.nth(0).getByLabel('Latitude').fill('41.85');
  await stops.nth(0).getByLabel('Longitude').fill('-87.65');
  await stops
    .nth(0)
    .getByLabel(/Appointment from/)
    .fill(`${day}T08:00`);
  await stops
    .nth(0)
    .getByLabel(/Appointment until/)
    .fill(`${day}T10:00`);
  await stops.nth(1).getByLabel('Latitude').fill('39.77');
  await stops.nth(1).getByLabel('Longitude').fill('-86.16');
  await stops
    .nth(1)
    .getByLabel(/Appointment from/)
    .fill(`${day}T17:00`);
  await stops
    .nth(1)
    .getByLabel(/Appointment until/)
    .fill(`${day}T21:00`);
  await loadForm.getByLabel('Line haul').fill('900');
  await loadForm.getByRole('button', { name: 'Save load' }).click();
  await expect(page).toHaveURL(/\/dispatch\/loads\/[0-9a-f-]{36}$/);

  await page.goto('/dispatch/customers');
  await page.getByPlaceholder('Name, address, e-mail or notes').fill(typed);
  const typedRow = page.getByRole('row').filter({ hasText: typed });
  await expect(typedRow).toContainText('Net 30');
  await expect(typedRow).toContainText('1 load');
  await page.getByPlaceholder('Name, address, e-mail or notes').fill(spare);
  const spareRow = page.getByRole('row').filter({ hasText: spare });
  await spareRow.getByRole('button', { name: `Delete ${spare}` }).click();
  const confirmDialog = page.getByRole('dialog', { name: `Delete ${spare}?` });
  await expect(confirmDialog).toContainText('No load names it');
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${spare} deleted`).first()).toBeVisible();
  await expect(spareRow).toHaveCount(0);
});

test('the customers and the load form read well at 375 px and in the dark', async ({ page, request }) => {
  test.setTimeout(120_000);
  // A broker and a shipper as the demo has them (the browser tests run without the demo's loads).
  const api = await officeApi(request);
  const tag = uniq();
  for (const data of [
    {
      name: `Crossroads ${tag} Freight Brokerage`,
      billingAddress: '600 W Jackson Blvd, Suite 900\nChicago, IL 60661',
      invoiceEmail: 'carrierpay@crossroadsfreight.example',
      paymentTermsDays: 15,
      detentionCentsPerHour: 5000,
      requiresPod: true,
    },
    { name: `Summit ${tag} Paper Co.`, billingAddress: '455 Mill St\nAppleton, WI 54911', paymentTermsDays: 45, detentionCentsPerHour: 7500 },
  ])
    expect((await request.post(`${api.org}/customers`, { headers: api.headers, data })).status()).toBe(201);
  await signIn(page, 'dispatcher');
  await page.goto('/dispatch/customers');
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await scheme(page, false);
  await shot(page, 'customers-desktop-light');
  await page.getByRole('button', { name: 'Add customer' }).click();
  await expect(page.getByRole('form', { name: 'Customer form' })).toBeVisible();
  await shot(page, 'customer-form-desktop-light');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await scheme(page, true);
  await shot(page, 'customers-desktop-dark');
  await page
    .getByRole('button', { name: /^Edit / })
    .first()
    .click();
  await expect(page.getByRole('form', { name: 'Customer form' })).toBeVisible();
  await shot(page, 'customer-form-desktop-dark');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, 'customers-375-dark');
  await page.getByRole('button', { name: 'Add customer' }).click();
  await expect(page.getByRole('form', { name: 'Customer form' })).toBeVisible();
  await shot(page, 'customer-form-375-dark');
  // One press on Cancel closes it, though the empty name it leaves shows its message (on blur).
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('form', { name: 'Customer form' })).toBeHidden();
  await scheme(page, false);
  await shot(page, 'customers-375-light');
  await page.goto('/dispatch/loads/new');
  const loadForm = page.getByRole('form', { name: 'Load form' });
  await loadForm.getByLabel('Customer').fill('a');
  await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible();
  await shot(page, 'load-form-customer-375-light');
  await page.setViewportSize({ width: 1280, height: 900 });
  await scheme(page, true);
  await shot(page, 'load-form-customer-desktop-dark');
});
