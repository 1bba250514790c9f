import { expect, test, type APIRequestContext } from '@playwright/test';
import { xlsxBytes } from '../src/test/xlsx-fixture.ts';
import { officeApi } from './driver-helpers.ts';
import { seriousA11yViolations, signIn, screenshotsLightDark } from './helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

// Issue 68: the review queue of fuel-card transactions. A truck's phone reports it standing at a
// station in Joliet (IL) for ten minutes; a card processor then posts four transactions of that
// truck's card; the fleet manager reviews what was not verified.

const STATION = { lat: 41.5251, lon: -88.0817 };

/**
 * The browser test files share one server: the IFTA purchases this file's card transactions became
 * are deleted after it, so a later file reads the quarter as it would without this one (ifta.spec.ts
 * looks for "Miles but no fuel purchases this quarter").
 */
let removePurchases: (request: APIRequestContext) => Promise<void> = async () => undefined;
test.afterEach(async ({ request }) => removePurchases(request));

test('a fleet manager reviews the fuel-card transactions that were not verified against the truck', async ({ page, request }) => {
  const office = await officeApi(request);
  const truck = await office.vehicle();
  const run = `E2E${Date.now().toString(36).toUpperCase()}`;
  removePurchases = async (request) => {
    const res = await request.get(`${office.org}/fuel-transactions?search=${run}&size=100`, { headers: office.headers });
    const { content } = (await res.json()) as { content: Array<{ purchaseId: string | null }> };
    for (const { purchaseId } of content) {
      if (!purchaseId) continue;
      const gone = await request.delete(`${office.org}/ifta/fuel-purchases/${purchaseId}`, { headers: office.headers });
      expect([204, 404], await gone.text()).toContain(gone.status());
    }
  };
  const uniqueId = `e2e-fuel-${run.toLowerCase()}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Phone ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const paired = await request.post(`${office.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${truck.id}`, { headers: office.headers });
  expect(paired.ok(), await paired.text()).toBe(true);
  // Parked at the pump, a fix every 5 s from now on (a fix counts for the vehicle paired at fix time).
  const t0 = Date.now() + 1_000;
  for (let i = 0; i <= 10; i++) {
    const r = await request.get(
      `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.round((t0 + i * 5_000) / 1000)}&lat=${STATION.lat}&lon=${STATION.lon}&speed=0`,
    );
    expect(r.status()).toBe(200);
  }
  const when = new Date(t0 + 25_000).toISOString();
  const base = {
    time: when,
    latitude: STATION.lat,
    longitude: STATION.lon,
    merchant: 'Pilot 1021',
    city: 'Joliet',
    state: 'IL',
    fuelType: 'DIESEL',
    unit: 'GAL',
  };
  const posted = await request.post(`${office.org}/fuel-transactions`, {
    headers: office.headers,
    data: {
      transactions: [
        { ...base, transactionId: `${run}-OK`, unitNumber: truck.unitNumber, quantity: 110.2, unitPrice: 3.999, total: 440.69 },
        // The same card at a station in Gary (IN), about 60 km east, at the same time.
        { ...base, transactionId: `${run}-FAR`, unitNumber: truck.unitNumber, latitude: 41.5934, longitude: -87.3464, city: 'Gary', state: 'IN', quantity: 95 },
        { ...base, transactionId: `${run}-BIG`, unitNumber: truck.unitNumber, quantity: 420 },
        { ...base, transactionId: `${run}-WHO`, cardNumberLast4: '0031', quantity: 80 },
      ],
    },
  });
  expect(posted.status(), await posted.text()).toBe(200);
  // The fixes are stored behind ingest: a list re-checks transactions whose window got fixes since.
  await expect
    .poll(async () => {
      const res = await request.get(`${office.org}/fuel-transactions?search=${run}&sort=transactionId,asc`, { headers: office.headers });
      return ((await res.json()) as { content: Array<{ transactionId: string; verification: string }> }).content.map(
        (t) => `${t.transactionId.slice(run.length + 1)} ${t.verification}`,
      );
    })
    .toEqual(['BIG OVER_TANK', 'FAR LOCATION_MISMATCH', 'OK VERIFIED', 'WHO NO_VEHICLE']);

  await signIn(page, 'admin');
  await page.goto(`/fuel-transactions?search=${run}`);
  await expect(page.getByRole('heading', { name: 'Fuel transactions', level: 1 })).toBeVisible();
  // Not verified and not reviewed: the three, each with its reason in words (miles: the demo carrier's units).
  const table = page.getByRole('table', { name: 'Fuel transactions' });
  await expect(page.getByRole('radio', { name: /^Not verified \(3\)$/ })).toBeChecked();
  await expect(
    table.getByText(/^The truck was 3\d(\.\d)? mi from the station at the closest within ±15 min; at that time it was near Joliet, IL$/),
  ).toBeVisible();
  await expect(table.getByText(/^420 gal is more than the truck's \d+ gal tank/)).toBeVisible();
  await expect(table.getByText(/^No vehicle found for it/)).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'fuel-transactions-queue');

  // Dispute the 420 gallons: a note is needed.
  await page.getByRole('button', { name: `Dispute transaction ${run}-BIG` }).click();
  const dialog = page.getByRole('dialog', { name: `Dispute transaction ${run}-BIG` });
  await expect(dialog.getByRole('button', { name: 'Dispute' })).toBeDisabled();
  await dialog.getByLabel('Note').fill('Tractor holds 300 gal; asked the driver for the receipt');
  await dialog.getByRole('button', { name: 'Dispute' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: `Dispute transaction ${run}-BIG` })).toBeHidden();
  // Accept the other station: it was a second truck on the same card, say.
  await page.getByRole('button', { name: `Accept transaction ${run}-FAR` }).click();
  const accept = page.getByRole('dialog', { name: `Accept transaction ${run}-FAR` });
  await accept.getByLabel('Note').fill('Team truck on the same card');
  await accept.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('radio', { name: /^Not verified \(1\)$/ })).toBeChecked();
  // The card nobody held: given to the truck, its transaction finds it and is verified there.
  await page.getByRole('button', { name: 'Give card 0031' }).click();
  const give = page.getByRole('dialog', { name: 'Give card …0031' });
  await give.getByRole('combobox', { name: 'Vehicle' }).fill(truck.unitNumber);
  await page.getByRole('option', { name: truck.unitNumber, exact: true }).click();
  await give.getByRole('button', { name: 'Give card' }).click();
  await expect(give).toBeHidden();
  await expect(page.getByRole('radio', { name: /^Not verified \(0\)$/ })).toBeChecked();
  await page.getByRole('button', { name: 'Fuel cards' }).click();
  const cards = page.getByRole('dialog', { name: 'Fuel cards' });
  await expect(cards.getByRole('row', { name: `…0031 Vehicle ${truck.unitNumber}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(cards).toBeHidden();

  // The reviewed ones with who decided; the verified one with its distance.
  await page.getByLabel('Review').selectOption('DISPUTED');
  await expect(table.getByText('Disputed')).toBeVisible();
  await page.getByText(/^Verified \(\d+\)$/).click();
  await expect(page.getByRole('radio', { name: /^Verified/ })).toBeChecked();
  await page.getByLabel('Review').selectOption('ANY');
  await expect(table.getByText(/^The truck was \d+ ft from the station within ±15 min of the time/)).toHaveCount(2);
  await screenshotsLightDark(page, 'fuel-transactions-verified');

  // A WEX export through the import drawer: the preset found from the headers, a DEF line skipped.
  // A card export writes the organization's local time (America/Chicago), as the import reads it.
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(t0));
  const part = (k: string) => parts.find((p) => p.type === k)!.value;
  const local = `${part('month')}/${part('day')}/${part('year')}`;
  const hhmm = `${part('hour')}:${part('minute')}`;
  const csv = [
    'Transaction Number,Transaction Date,Transaction Time,Card Number,Vehicle Number,Merchant Name,Merchant City,Merchant State,Product Description,Units,Unit Price,Gross Amount',
    `${run}-F1,${local},${hhmm},XXXX0031,${truck.unitNumber},Pilot 1021,Joliet,IL,Diesel #2,101.250,3.999,404.90`,
    `${run}-F2,${local},${hhmm},XXXX0031,${truck.unitNumber},Pilot 1021,Joliet,IL,DEF,5.000,3.000,15.00`,
  ].join('\n');
  await page.getByRole('button', { name: 'Import card export' }).click();
  const drawer = page.getByRole('dialog', { name: 'Import fuel-card transactions' });
  await drawer.locator('input[type=file]').setInputFiles({ name: 'wex.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(drawer.getByLabel('Preset', { exact: true })).toHaveValue('WEX');
  await drawer.getByRole('button', { name: 'Check the file' }).click();
  await expect(drawer.getByText('1 valid')).toBeVisible();
  await expect(drawer.getByText('1 skipped (not fuel)')).toBeVisible();
  await screenshotsLightDark(page, 'fuel-transactions-import');
  await drawer.getByRole('button', { name: 'Import 1 transaction' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByText(/^1 transaction imported/)).toBeVisible();

  // The same export as an Excel workbook: its date and time cells are Excel's numbers, read as the
  // organization's local wall time like the CSV's text.
  const [y, mo, d] = [Number(part('year')), Number(part('month')), Number(part('day'))];
  const workbook = xlsxBytes([
    [
      'Transaction Number',
      'Transaction Date',
      'Transaction Time',
      'Card Number',
      'Vehicle Number',
      'Merchant Name',
      'Merchant City',
      'Merchant State',
      'Product Description',
      'Units',
      'Unit Price',
      'Gross Amount',
    ],
    [
      `${run}-F3`,
      new Date(Date.UTC(y, mo - 1, d)),
      new Date(Date.UTC(1899, 11, 30, Number(part('hour')), Number(part('minute')))),
      'XXXX0031',
      truck.unitNumber,
      'Pilot 1021',
      'Joliet',
      'IL',
      'Diesel #2',
      88.5,
      3.999,
      353.91,
    ],
  ]);
  await page.getByRole('button', { name: 'Import card export' }).click();
  await drawer.locator('input[type=file]').setInputFiles({
    name: 'wex.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(workbook),
  });
  await expect(drawer.getByLabel('Preset', { exact: true })).toHaveValue('WEX');
  await drawer.getByRole('button', { name: 'Check the file' }).click();
  await expect(drawer.getByText('1 valid')).toBeVisible();
  await expect(drawer.getByText('0 with errors')).toBeVisible();
  await drawer.getByRole('button', { name: 'Import 1 transaction' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByText(/^1 transaction imported/)).toBeVisible();
  // Read as the same local time as the CSV's line: the truck was at the pump then (the Verified view is still chosen).
  await expect(page.getByRole('radio', { name: /^Verified/ })).toBeChecked();
  await page.getByPlaceholder('Transaction, merchant, city, unit').fill(`${run}-F3`);
  const f3 = page.getByRole('table', { name: 'Fuel transactions' }).getByRole('row').filter({ hasText: 'Pilot 1021' });
  await expect(f3).toHaveCount(1);
  await expect(f3).toContainText('Verified');

  // The radius and window are the organization's settings, shown in its units (150 m is 492 ft).
  await page.goto('/settings/organization-settings/organization-account');
  const settings = page.getByRole('form', { name: 'Organization settings' });
  await expect(settings.getByLabel('Fuel station radius (ft)')).toHaveValue('492');
  await expect(settings.getByLabel('Fuel purchase time window (± minutes)')).toHaveValue('15');
});
