import { expect, test, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { seriousA11yViolations, signIn } from './helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

// Issue 68: the review queue of fuel-card transactions. A truck's phone reports it standing at a
// station in Joliet (IL) for ten minutes; a card processor then posts four transactions of that
// truck's card; the fleet manager reviews what was not verified.

const STATION = { lat: 41.5251, lon: -88.0817 };

/** Light and dark at desktop width, and 375 px wide (E2E_SHOTS=1), in the test's output folder. */
async function shots(page: Page, name: string) {
  if (!process.env.E2E_SHOTS) return;
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((v) => {
      localStorage.setItem('fleet.colorScheme', v);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}.png`), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await expect.poll(() => page.evaluate(() => document.documentElement.clientWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-375.png`), fullPage: true });
    if (size) await page.setViewportSize(size);
  }
}

test('a fleet manager reviews the fuel-card transactions that were not verified against the truck', async ({ page, request }) => {
  const office = await officeApi(request);
  const truck = await office.vehicle();
  const run = `E2E${Date.now().toString(36).toUpperCase()}`;
  const uniqueId = `e2e-fuel-${run.toLowerCase()}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Phone ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const paired = await request.post(`${office.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${truck.id}`, { headers: office.headers });
  expect(paired.ok(), await paired.text()).toBe(true);
  // Parked at the pump, a fix a minute (after the pairing: a fix counts for the vehicle paired at fix time).
  const t0 = Math.floor(Date.now() / 1000) - 600;
  for (let i = 0; i <= 10; i++) {
    const r = await request.get(`/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${t0 + i * 60}&lat=${STATION.lat}&lon=${STATION.lon}&speed=0`);
    expect(r.status()).toBe(200);
  }
  const when = new Date((t0 + 300) * 1000).toISOString();
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
  expect(((await posted.json()) as { results: Array<{ verification: string }> }).results.map((r) => r.verification)).toEqual([
    'VERIFIED',
    'LOCATION_MISMATCH',
    'OVER_TANK',
    'NO_VEHICLE',
  ]);

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
  await shots(page, 'fuel-transactions-queue');

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
  await expect(page.getByRole('radio', { name: /^Not verified \(1\)$/ })).toBeVisible();

  // The reviewed ones with who decided; the verified one with its distance.
  await page.getByLabel('Review').selectOption('DISPUTED');
  await expect(table.getByText('Disputed')).toBeVisible();
  await page.getByRole('radio', { name: /^Verified/ }).click({ force: true });
  await page.getByLabel('Review').selectOption('ANY');
  await expect(table.getByText(/^The truck was 0(\.0)? mi from the station within ±15 min of the time/)).toBeVisible();
  await shots(page, 'fuel-transactions-verified');
});
