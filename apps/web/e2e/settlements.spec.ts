import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { officeApi, type DriverAccount } from './driver-helpers.ts';
import { layoutSettled, screenSettled, seriousA11yViolations, signIn } from './helpers.ts';

// Driver settlements (issue 70): the office sets a driver's pay and a reimbursement, drafts last
// week's settlement from the driver's delivered load, reads where each line came from, approves it,
// marks it paid and opens the statement; the driver reads it on a 375 px phone in Spanish and opens
// its PDF. Each screen is checked by axe and photographed light and dark, at 1280 and 375 px.

type Office = Awaited<ReturnType<typeof officeApi>>;
const ZONE = 'America/Chicago';
const dateIn = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(ms));
const plusDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** Monday and Sunday of last week in the organization's zone (the form's default). */
function lastWeek() {
  const today = dateIn(Date.now());
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const from = plusDays(today, -weekday - 7);
  return { from, to: plusDays(from, 6) };
}

/** A driver with a pay profile and a load delivered last Wednesday, with 70 minutes of detention at the delivery. */
async function paidDriver(request: APIRequestContext, office: Office): Promise<{ account: DriverAccount; load: { id: string; number: string } }> {
  const account = await office.driverAccount();
  const put = await request.put(`${office.org}/drivers/${account.driver.id}/pay-profile`, {
    headers: office.headers,
    data: { loadedMileRate: 0.6, emptyMileRate: 0.3, extraStopRate: 25, detentionRate: 20, detentionFreeMinutes: 120, teamSharePercent: 50 },
  });
  expect(put.status(), await put.text()).toBe(200);
  const day = plusDays(lastWeek().from, 2);
  const at = (hhmm: string) => `${day}T${hhmm}:00-06:00`;
  const made = await request.post(`${office.org}/loads`, {
    headers: office.headers,
    data: {
      customer: 'E2E Pay Foods',
      driverIds: [account.driver.id],
      overlapAllowed: true,
      rate: { lineHaul: 1500, fuelSurcharge: 120 },
      stops: [
        { kind: 'PICKUP', latitude: 41.85, longitude: -87.65, address: 'Chicago, IL', windowStart: at('06:00'), windowEnd: at('08:00'), serviceMinutes: 60 },
        { kind: 'PICKUP', latitude: 41.52, longitude: -88.08, address: 'Joliet, IL', windowStart: at('08:00'), windowEnd: at('10:00'), serviceMinutes: 30 },
        {
          kind: 'DELIVERY',
          latitude: 39.77,
          longitude: -86.16,
          address: 'Indianapolis, IN',
          windowStart: at('12:00'),
          windowEnd: at('16:00'),
          serviceMinutes: 45,
        },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const load = (await made.json()) as { id: string; number: string; stops: Array<{ id: string }> };
  const times: Array<[string, string]> = [
    ['06:30', '07:30'],
    ['08:30', '09:00'],
    ['12:00', '15:10'],
  ];
  for (const [i, [arrive, depart]] of times.entries()) {
    for (const [event, when] of [
      ['ARRIVE', arrive],
      ['DEPART', depart],
    ] as const) {
      const r = await request.post(`${office.org}/loads/${load.id}/stops/${load.stops[i]!.id}/status`, {
        headers: office.headers,
        data: { event, at: at(when) },
      });
      expect(r.status(), await r.text()).toBe(200);
    }
  }
  return { account, load };
}

/** Axe on the screen as it is: light at 1280 px, then dark, then 375 px light; screenshots of each (E2E_SHOTS=1). */
async function checkLooks(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  // The user's own choice, as the theme toggle stores it, then a reload (the screens keep their state in the URL).
  const scheme = async (value: 'light' | 'dark') => {
    if ((await page.locator('html').getAttribute('data-mantine-color-scheme')) === value) return;
    await page.evaluate((v) => {
      localStorage.setItem('fleet.colorScheme', v);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, value);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', value);
    await screenSettled(page);
    await layoutSettled(page);
  };
  const shot = async (look: string) => {
    if (process.env.E2E_SHOTS) await page.screenshot({ path: test.info().outputPath(`${name}-${look}.png`), fullPage: true });
  };
  for (const [look, width, dark] of [
    ['desktop-light', 1280, false],
    ['desktop-dark', 1280, true],
    ['375-light', 375, false],
    ['375-dark', 375, true],
  ] as const) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : size.height });
    await scheme(dark ? 'dark' : 'light');
    await shot(look);
    // The colour rules in every look; the rest where the layout changes.
    expect(await seriousA11yViolations(page, dark ? ['color-contrast', 'link-in-text-block'] : undefined), `${name} ${look}`).toEqual([]);
  }
  await scheme('light');
  await page.setViewportSize(size);
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' })));
});
test.use({ bypassCSP: true });
test.describe.configure({ timeout: 240_000 });

test('the office sets a driver’s pay, drafts last week’s settlement, approves it, marks it paid and opens the statement', async ({ page, request }) => {
  const office = await officeApi(request);
  const { account, load } = await paidDriver(request, office);
  const name = `${account.driver.firstName} ${account.driver.lastName}`;
  await signIn(page, 'admin');

  // The pay profiles: the driver's rates in their drawer, and a reimbursement added through the form.
  await page.goto('/settlements/pay');
  await page.getByLabel('Find a driver').fill(account.driver.lastName);
  const row = page.getByRole('table', { name: 'Pay profiles' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('$0.600/mi loaded');
  await row.getByRole('button', { name }).click();
  const drawer = page.getByRole('dialog', { name: `Pay of ${name}` });
  await expect(drawer.getByLabel('Pay per loaded mile')).toHaveValue('$0.600');
  await drawer.getByRole('button', { name: 'Add', exact: true }).click();
  const add = drawer.getByRole('form', { name: 'Add a deduction or reimbursement' });
  await add.getByLabel('Kind').selectOption('REIMBURSEMENT');
  await add.getByLabel('Category').selectOption('TOLLS');
  await add.getByLabel('Description').fill('Tolls I-294');
  await add.getByLabel('Amount').fill('18.50');
  await add.getByLabel('Applies').selectOption('ONCE');
  await add.getByLabel('Dated').fill(lastWeek().from);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  const adjustments = drawer.getByRole('list', { name: 'Deductions and reimbursements' });
  await expect(adjustments).toContainText('Tolls I-294');
  await expect(adjustments).toContainText('waiting for the next settlement');
  await checkLooks(page, 'pay-profile-drawer');
  await page.keyboard.press('Escape');

  // A new settlement: last week by default, from the driver's delivered load.
  await page.goto('/settlements');
  await page.getByRole('button', { name: 'New settlement' }).first().click();
  const form = page.getByRole('form', { name: 'New settlement' });
  await expect(form.getByLabel('From')).toHaveValue(lastWeek().from);
  await expect(form.getByLabel('To')).toHaveValue(lastWeek().to);
  await form
    .getByRole('textbox', { name: 'Driver' })
    .or(form.getByRole('combobox', { name: 'Driver' }))
    .fill(account.driver.lastName);
  await page
    .getByRole('option', { name: new RegExp(account.driver.lastName) })
    .first()
    .click();
  await form.getByRole('button', { name: 'Make draft' }).click();
  await expect(page).toHaveURL(/\/settlements\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  const api = (await (await request.get(`${office.org}/settlements/${id}`, { headers: office.headers })).json()) as { number: string; totals: { net: number } };
  await expect(page.getByRole('heading', { name: `Settlement ${api.number}` })).toBeVisible();
  // Each line by where it came from: the load's miles and its extra stop, the detention, the tolls.
  const loads = page.getByTestId('settlement-group-LOADS');
  await expect(loads).toContainText(load.number);
  await expect(loads).toContainText('Loaded miles');
  await expect(loads).toContainText('1 extra stop');
  await expect(page.getByTestId('settlement-group-DETENTION')).toContainText('190 min on site, 120 min free, 70 min paid');
  await expect(page.getByTestId('settlement-group-REIMBURSEMENTS')).toContainText('Tolls I-294');
  const net = api.totals.net.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  await expect(page.getByTestId('settlement-net')).toHaveText(net);
  await checkLooks(page, 'settlement-draft');

  // Approve, with a confirmation naming the driver and the amount.
  await page.getByRole('button', { name: 'Approve' }).click();
  const confirm = page.getByRole('dialog', { name: `Approve ${api.number}?` });
  await expect(confirm).toContainText(`${name} is paid ${net}`);
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('settlement-status')).toHaveText('Approved');
  // Mark paid with a reference.
  await page.getByRole('button', { name: 'Mark paid' }).click();
  const paid = page.getByRole('dialog', { name: `Mark ${api.number} paid` });
  await paid.getByLabel('Payment reference').fill('ACH 4242');
  await paid.getByRole('button', { name: `Mark ${net} paid` }).click();
  await expect(page.getByTestId('settlement-status')).toHaveText('Paid');
  await expect(page.getByRole('main')).toContainText('ref. ACH 4242');

  // The statement opens as a PDF in a new tab. The tab shows it, or (the headless shell has no PDF
  // viewer) saves it: heard from the tab's creation on, since the save can come before the test
  // reaches the tab (a listener added then missed it, and the tab stayed at about:blank).
  const downloads: string[] = [];
  page.context().on('page', (p) => p.on('download', (d) => downloads.push(d.suggestedFilename())));
  const [opened, answer] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForResponse((r) => r.url().endsWith(`/settlements/${id}/pdf`)),
    page.getByRole('button', { name: 'Statement PDF' }).click(),
  ]);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  await expect.poll(() => (opened.url().startsWith('blob:') ? 'shown' : downloads.length ? 'saved' : 'nothing')).not.toBe('nothing');
  await opened.close();

  // The list shows it paid, filtered by the driver.
  await page.goto(`/settlements?driver=${account.driver.id}`);
  const list = page.getByRole('table', { name: 'Settlements' });
  await expect(list.getByRole('row', { name: new RegExp(api.number) })).toContainText('Paid');
  await checkLooks(page, 'settlements-list');
});

test('a driver reads their paid statement on a phone, in Spanish, and opens its PDF', async ({ page, request }) => {
  const office = await officeApi(request);
  const { account } = await paidDriver(request, office);
  const week = lastWeek();
  const made = await request.post(`${office.org}/settlements`, { headers: office.headers, data: { driverId: account.driver.id, ...week } });
  expect(made.status(), await made.text()).toBe(201);
  const s = (await made.json()) as { id: string; number: string; totals: { net: number } };
  for (const [step, data] of [
    ['approve', {}],
    ['paid', { paymentReference: 'Check 1001' }],
  ] as const)
    expect((await request.post(`${office.org}/settlements/${s.id}/${step}`, { headers: office.headers, data })).status()).toBe(200);
  // A draft of someone else is not the driver's to see.
  const other = await paidDriver(request, office);
  expect((await request.post(`${office.org}/settlements`, { headers: office.headers, data: { driverId: other.account.driver.id, ...week } })).status()).toBe(
    201,
  );

  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, account);
  await page.evaluate(() => localStorage.setItem('fleet.language', 'es'));
  await page.goto('/driver/pay');
  await expect(page.getByRole('heading', { name: 'Recibos de pago' })).toBeVisible();
  const cards = page.getByTestId('pay-statement');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(s.number);
  await expect(cards.first()).toContainText('Pagado');
  await expect(cards.first()).toContainText('1 carga');
  const pdf = page.waitForResponse((r) => r.url().endsWith(`/settlements/${s.id}/pdf`));
  await cards
    .first()
    .getByRole('button', { name: `Abrir PDF · ${s.number}` })
    .click();
  expect((await pdf).headers()['content-type']).toBe('application/pdf');
  await checkLooks(page, 'driver-pay');
});
