import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { readOutbox, screenshotsLightDark, seriousA11yViolations, signIn } from './helpers.ts';

// Issue 70 as the office uses it: a customer's loads are delivered (one waited past the free time);
// the billing clerk picks the customer, ticks its loads, sees the total with detention, makes the
// draft, sends it after a confirmation (the customer's e-mail gets the PDF), records a partial
// payment, downloads the PDF; the list shows a late invoice in red; the aging report buckets it.

test.use({ bypassCSP: true });

const H = 3_600_000;
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The calendar date `days` before today in Chicago, as YYYY-MM-DD. */
const chicagoDaysAgo = (days: number) => {
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
};

async function deliveredLoad(
  request: APIRequestContext,
  office: Awaited<ReturnType<typeof officeApi>>,
  customerId: string,
  driverId: string,
  lineHaul: number,
  start: number,
  dwellMinutes: number,
) {
  const res = await request.post(`${office.org}/loads`, {
    headers: office.headers,
    data: {
      customerId,
      customer: 'ignored: the customer’s name is printed',
      stops: [
        {
          kind: 'PICKUP',
          latitude: 41.85,
          longitude: -87.65,
          address: 'Chicago, IL',
          windowStart: iso(start - H),
          windowEnd: iso(start + H),
          serviceMinutes: 60,
        },
        {
          kind: 'DELIVERY',
          latitude: 39.77,
          longitude: -86.16,
          address: 'Indianapolis, IN',
          windowStart: iso(start + 3 * H),
          windowEnd: iso(start + 6 * H),
          serviceMinutes: 60,
        },
      ],
      rate: { lineHaul, fuelSurcharge: 120 },
      driverIds: [driverId],
      overlapAllowed: true,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const load = (await res.json()) as { id: string; number: string; stops: Array<{ id: string }> };
  const times: Array<[number, 'ARRIVE' | 'DEPART', number]> = [
    [0, 'ARRIVE', start],
    [0, 'DEPART', start + 45 * MIN],
    [1, 'ARRIVE', start + 4 * H],
    [1, 'DEPART', start + 4 * H + dwellMinutes * MIN],
  ];
  for (const [i, event, at] of times) {
    const r = await request.post(`${office.org}/loads/${load.id}/stops/${load.stops[i]!.id}/status`, { headers: office.headers, data: { event, at: iso(at) } });
    expect(r.status(), await r.text()).toBe(200);
  }
  return load;
}

test('a billing clerk invoices a customer’s delivered loads, sends the invoice, records a payment and reads the aging', async ({ page, request }) => {
  const office = await officeApi(request);
  const run = Date.now().toString(36).toUpperCase();
  const customerName = `Prairie Grocers ${run}`;
  const email = `ap.${run.toLowerCase()}@prairie.example`;
  const c = await request.post(`${office.org}/customers`, {
    headers: office.headers,
    data: {
      name: customerName,
      billingAddress: 'Prairie Grocers AP\n77 Wabash Ave\nChicago, IL 60601',
      invoiceEmail: email,
      paymentTermsDays: 15,
      detentionFreeMinutes: 120,
      detentionCentsPerHour: 6000,
    },
  });
  expect(c.status(), await c.text()).toBe(201);
  const customer = (await c.json()) as { id: string };
  const d = await request.post(`${office.org}/drivers`, {
    headers: office.headers,
    data: { firstName: 'Ines', lastName: `Billing${run.slice(-4)}`, licenseNumber: `INV${run}`, licenseState: 'IL' },
  });
  expect(d.status(), await d.text()).toBe(201);
  const driverId = ((await d.json()) as { id: string }).id;
  // Two days ago: the delivery took 3 h 30 min, 1 h 30 min past the free time at $60/h = $90.
  const twoDaysAgo = Date.now() - 2 * 24 * H;
  await deliveredLoad(request, office, customer.id, driverId, 1800, twoDaysAgo, 210);
  const b = await deliveredLoad(request, office, customer.id, driverId, 950, twoDaysAgo + 8 * H, 60);

  await signIn(page, 'admin');
  await page.goto(`/invoices/new?customer=${customer.id}`);
  await expect(page.getByRole('heading', { name: 'New invoice', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Customer')).toHaveValue(customer.id);
  const table = page.getByRole('table', { name: `Delivered loads of ${customerName}` });
  await expect(table.getByRole('row')).toHaveCount(3);
  // Both ticked: 1,800 + 120 + 90 detention, and 950 + 120.
  await expect(page.getByTestId('invoice-preview-total')).toHaveText('$3,080.00');
  await table.getByRole('checkbox', { name: `Invoice load ${b.number}` }).uncheck();
  await expect(page.getByTestId('invoice-preview-total')).toHaveText('$2,010.00');
  await table.getByRole('checkbox', { name: `Invoice load ${b.number}` }).check();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'invoice-new');
  await page.getByRole('button', { name: 'Create draft invoice' }).click();

  await expect(page).toHaveURL(/\/invoices\/[0-9a-f-]{36}$/);
  const heading = page.getByRole('heading', { level: 1, name: /^Invoice INV-\d+$/ });
  await expect(heading).toBeVisible();
  const number = (await heading.textContent())!.replace('Invoice ', '');
  const charges = page.getByRole('table', { name: 'Charges' });
  await expect(charges.getByRole('row', { name: /Detention at stop 2/ })).toContainText('$90.00');
  await expect(page.getByTestId('invoice-balance')).toHaveText('$3,080.00');
  await expect(page.locator('[data-status="DRAFT"]')).toBeVisible();

  // A draft's lines change before it goes: a pallet exchange added.
  await page.getByRole('button', { name: 'Edit lines' }).click();
  const edit = page.getByRole('dialog', { name: `Edit the lines of ${number}` });
  await edit.getByRole('button', { name: 'Add a line' }).click();
  await edit.getByLabel('Other').fill('Pallet exchange');
  await edit.getByLabel('Amount').last().fill('25');
  await expect(edit.getByText('Total $3,105.00')).toBeVisible();
  await edit.getByRole('button', { name: 'Save lines' }).click();
  await expect(edit).toBeHidden();
  await expect(charges.getByRole('row', { name: /Pallet exchange/ })).toContainText('$25.00');
  await expect(page.getByTestId('invoice-balance')).toHaveText('$3,105.00');

  // Send, after saying where it goes.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: `Send invoice ${number}?` });
  await expect(confirm).toContainText(email);
  await confirm.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('[data-status="SENT"]')).toBeVisible();
  const mail = (await readOutbox(email)) as { subject: string; text: string; attachments?: Array<{ filename: string; contentType: string }> };
  expect(mail.subject).toBe(`Invoice ${number} from Demo Freight`);
  expect(mail.attachments?.map((x) => x.filename)).toEqual([`${number}.pdf`]);

  // A partial payment.
  const form = page.getByRole('form', { name: 'Record a payment' });
  await form.getByLabel('Amount').fill('1000');
  await form.getByLabel('Method').selectOption('CHECK');
  await form.getByLabel('Reference').fill(`Check ${run}`);
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.locator('[data-status="PARTIALLY_PAID"]')).toBeVisible();
  await expect(page.getByTestId('invoice-balance')).toHaveText('$2,105.00');
  await expect(page.getByRole('table', { name: 'Payments' })).toContainText(`Check ${run}`);
  // An overpayment is refused by the form before the server would.
  await form.getByLabel('Amount').fill('5000');
  await expect(form.getByText('At most the balance, $2,105.00')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Record payment' })).toBeDisabled();

  // The PDF: the invoice itself.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF' }).click();
  const pdf = await downloading;
  expect(pdf.suggestedFilename()).toBe(`${number}.pdf`);
  expect(
    fs
      .readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'invoice-detail');

  // A late one: an invoice of a third load dated 40 days ago, net 15, sent and unpaid.
  const late = await deliveredLoad(request, office, customer.id, driverId, 700, Date.now() - 42 * 24 * H, 60);
  const made = await request.post(`${office.org}/invoices`, {
    headers: office.headers,
    // 40 calendar days before today in the organization's zone (Chicago), in which the screen counts
    // the days late: counted on the calendar, not as 40 × 24 h, which is a day off across a DST change.
    data: { loadIds: [late.id], invoiceDate: chicagoDaysAgo(40) },
  });
  expect(made.status(), await made.text()).toBe(201);
  const lateInvoice = (await made.json()) as { id: string; number: string };
  expect((await request.post(`${office.org}/invoices/${lateInvoice.id}/send`, { headers: office.headers })).status()).toBe(200);

  await page.goto(`/invoices?search=${encodeURIComponent(customerName)}`);
  const list = page.getByRole('table', { name: 'Invoices' });
  await expect(list.getByRole('row')).toHaveCount(3);
  const lateRow = list.getByRole('row', { name: new RegExp(lateInvoice.number) });
  await expect(lateRow.locator('[data-status="OVERDUE"]')).toBeVisible();
  await expect(lateRow).toContainText(/25 days late/);
  const show = page.getByRole('radiogroup', { name: 'Show' });
  await show.getByText('Overdue', { exact: true }).click();
  await expect(show.getByRole('radio', { name: 'Overdue' })).toBeChecked();
  await expect(list.getByRole('row')).toHaveCount(2);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await show.getByText('All', { exact: true }).click();
  await screenshotsLightDark(page, 'invoices-list');
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await page.getByRole('menuitem', { name: /One row per line/ }).click();
  const file = await csv;
  expect(fs.readFileSync((await file.path())!, 'utf8').split('\r\n')[0]).toBe(
    'InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Item,ItemDescription,ItemQuantity,ItemRate,ItemAmount,Currency,LoadNumber',
  );

  // The aging report: the late one 25 days past due, the other current.
  await page.goto('/invoices/aging');
  await expect(page.getByRole('heading', { name: 'Aging report', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(customerName) });
  await expect(row).toContainText('$2,105.00');
  await expect(row).toContainText('$820.00');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'invoices-aging');
});
