import { expect, test, type APIRequestContext } from '@playwright/test';
import { seriousA11yViolations, signIn, textContrast } from './helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

// IFTA (issue 17) as a fleet manager uses it. The data comes in as a device sends it: OsmAnd fixes of
// demo truck 125 driving from Kansas into Missouri now (a device's fixes count for the vehicle it is
// paired with at fix time, so they must be newer than the seed's pairing), then the fuel-card export
// imported through the screen with a column mapping.

const KNOTS_PER_KMH = 1 / 1.852;
const START = Math.floor(Date.now() / 1000);
const QUARTER = `${new Date().getUTCFullYear()}Q${Math.floor(new Date().getUTCMonth() / 3) + 1}`;
const LABEL = `Q${QUARTER.slice(-1)} ${QUARTER.slice(0, 4)}`;

/** 21 fixes 10 s apart at 90 km/h from 2 km west of State Line Road (Kansas City) into Missouri. */
async function drive(request: APIRequestContext): Promise<void> {
  const kmPerDegree = 111.32 * Math.cos((39 * Math.PI) / 180);
  for (let i = 0; i <= 20; i++) {
    const q = new URLSearchParams({
      id: 'demo-truck-25',
      timestamp: String(START + i * 10),
      lat: '39.00000',
      lon: (-94.63 + (0.25 * i) / kmPerDegree).toFixed(5),
      speed: (90 * KNOTS_PER_KMH).toFixed(2),
      odometer: String(600_000_000 + 250 * i),
    });
    const res = await request.post(`/api/v1/ingest/osmand?${q.toString()}`);
    expect(res.status()).toBe(200);
  }
  // Parked at the end, ignition off: the live map's other tests count truck 125 as stopped.
  const lon = (-94.63 + 5 / kmPerDegree).toFixed(5);
  const park = new URLSearchParams({
    id: 'demo-truck-25',
    timestamp: String(START + 210),
    lat: '39.00000',
    lon,
    speed: '0',
    ignition: 'false',
    odometer: String(600_000_000 + 5000),
  });
  expect((await request.post(`/api/v1/ingest/osmand?${park.toString()}`)).status()).toBe(200);
}

/** The drive's end in the organization's zone (America/Chicago), as a fuel card writes it. */
const local = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Chicago',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
}).formatToParts(new Date((START + 200) * 1000));
const part = (t: string) => local.find((p) => p.type === t)!.value;
const DAY = `${part('month')}/${part('day')}/${part('year')}`;
const TIME = `${part('hour')}:${part('minute')}`;
const FUEL_CSV = [
  'Date,Time,Truck,State,Product,Volume,Invoice,Amount',
  `${DAY},${TIME},125,MO,ULSD,120.5,E2E-1,470.00`,
  `${DAY},${TIME},125,MO,DEF,5,E2E-2,20.00`,
  `${DAY},${TIME},999,MO,ULSD,40,E2E-3,150.00`,
].join('\n');

test('a fleet manager picks a quarter, reads the return, imports fuel with a column mapping, and exports', async ({ page, request }) => {
  await drive(request);
  await signIn(page, 'admin');
  await page.goto('/ifta?quarter=2025Q4');
  await expect(page.getByRole('heading', { name: 'Fuel costs (IFTA)', level: 1 })).toBeVisible();

  // Choose the quarter the truck drove in.
  await page.getByRole('combobox', { name: 'Quarter' }).click();
  await page.getByRole('option', { name: new RegExp(`^${LABEL}`) }).click();
  await expect(page).toHaveURL(new RegExp(`quarter=${QUARTER}`));
  const ret = page.getByRole('table', { name: `IFTA return ${QUARTER}` });
  // Miles are counted behind ingest in rounds a few seconds apart: the screen shows them on a reload.
  await expect(async () => {
    await page.reload();
    await expect(ret.getByRole('row', { name: /^MO.*\$0\.2950/ })).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 45_000 });
  await expect(ret.getByRole('row', { name: /^KS/ })).toBeVisible();
  // No fuel yet: flagged for review.
  await page.getByRole('tab', { name: /To review/ }).click();
  await expect(page.getByText('Miles but no fuel purchases this quarter', { exact: false })).toBeVisible();

  // Import the fuel-card export: a layout of its own, mapped column by column.
  await page.getByRole('tab', { name: 'Fuel purchases' }).click();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const drawer = page.getByRole('dialog', { name: 'Import fuel purchases from a fuel-card export' });
  await drawer.locator('input[type=file]').setInputFiles({ name: 'card.csv', mimeType: 'text/csv', buffer: Buffer.from(FUEL_CSV) });
  await drawer.getByText('Custom', { exact: true }).click();
  const mapping = drawer.getByRole('group', { name: 'Column mapping' });
  await mapping.getByLabel('Date', { exact: true }).selectOption('Date');
  await mapping.getByLabel('Time', { exact: true }).selectOption('Time');
  await mapping.getByLabel('Unit number').selectOption('Truck');
  await mapping.getByLabel('State or province').selectOption('State');
  await mapping.getByLabel('Product code').selectOption('Product');
  await mapping.getByLabel('Quantity (in the unit below)').selectOption('Volume');
  await mapping.getByLabel('Receipt or transaction number').selectOption('Invoice');
  await mapping.getByLabel('Total amount').selectOption('Amount');
  await drawer.getByRole('button', { name: 'Check the file' }).click();
  const preview = drawer.getByLabel('Import preview');
  await expect(preview.getByText('1 valid')).toBeVisible();
  await expect(preview.getByText('1 skipped (not fuel)')).toBeVisible();
  await expect(drawer.getByRole('table', { name: 'Row errors' }).getByRole('row', { name: /4.*Truck.*No vehicle with unit number 999/ })).toBeVisible();
  await expect(drawer.getByRole('table', { name: 'Skipped product lines' }).getByRole('row', { name: /3.*DEF/ })).toBeVisible();
  await drawer.getByRole('button', { name: 'Import 1 purchases' }).click();
  await expect(page.getByText('1 fuel purchases imported, 1 rows with errors left out, 1 non-fuel lines skipped')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Fuel purchases' }).getByRole('row', { name: /125.*MO.*120\.5 gal.*E2E-1/ })).toBeVisible();

  // The return now has fuel: an MPG and tax-paid gallons in Missouri.
  await page.getByRole('tab', { name: 'Return' }).click();
  await expect(ret.getByRole('row', { name: /^MO/ }).getByRole('cell').nth(3)).toHaveText('121');
  await expect(page.getByText('Fleet MPG')).toBeVisible();

  // Export the return as CSV and the distance records as PDF.
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export return' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const file = await csv;
  expect(file.suggestedFilename()).toBe(`ifta-${QUARTER}-diesel.csv`);
  const text = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(text).toString()).toMatch(/\nMO,Missouri,Special Diesel,\d+,\d+,\d+,121,/);
  // The first menu closes (with its transition) before the second opens: one "PDF" item on screen.
  await expect(page.getByRole('menu')).toHaveCount(0);
  const pdf = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Distance records' }).click();
  await page.getByRole('menuitem', { name: 'PDF' }).click();
  const pdfFile = await pdf;
  expect(pdfFile.suggestedFilename()).toBe(`ifta-${QUARTER}-distance-records.pdf`);
  const bytes = Buffer.concat(await (await pdfFile.createReadStream()).toArray());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
});

test('a purchase above the tank is refused on the form; a total off the price goes to To review, and the banner counts it until reviewed', async ({ page }) => {
  // Several screens and a save on a machine shared with other suites.
  test.slow();
  await signIn(page, 'admin');
  await page.goto(`/ifta?quarter=${QUARTER}&tab=fuel`);
  await page.getByRole('button', { name: 'Add purchase' }).click();
  const form = page.getByRole('form', { name: 'Fuel purchase form' });
  // Noon yesterday on the organization's clock (the box's zone), inside the quarter unless it just began.
  const yesterday = new Date(
    Math.max(Date.now() - 86_400_000, Date.parse(`${QUARTER.slice(0, 4)}-${String((Number(QUARTER.slice(-1)) - 1) * 3 + 1).padStart(2, '0')}-01T18:00:00Z`)),
  );
  await form.getByLabel('Purchase time').fill(`${yesterday.toISOString().slice(0, 10)}T12:00`);
  await form.getByLabel('Vehicle').selectOption({ label: '125' });
  await form.getByLabel('Jurisdiction').selectOption('TX');
  // The jurisdiction list offers members and known non-members only.
  expect(await form.getByLabel('Jurisdiction').locator('option[value="ZZ"]').count()).toBe(0);
  await form.getByLabel('Quantity').fill('99999');
  await form.getByLabel('Price per unit').fill('4');
  await form.getByLabel('Total amount').fill('399996');
  await form.getByLabel('Receipt number').fill(`E2E-P${START}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(
    form.getByText(
      'Quantity is more than the 300 gal tank of unit 125 (the default; set its tank capacity on the vehicle): check the quantity, or mark the purchase as a bulk or split entry',
    ),
  ).toBeVisible();
  // Ten gallons at $4.00 with a total of $9,999: accepted, but the form warns first.
  await form.getByLabel('Quantity').fill('10');
  await form.getByLabel('Total amount').fill('9999');
  await expect(form.getByText('Price per unit × quantity is more than 1 % from the total')).toBeVisible();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  const banner = page.getByTestId('ifta-unreviewed');
  await expect(banner).toBeVisible();
  // Issue 46: the "To review" tab's count badge reads at 4.5:1 or better, in light and in dark.
  await expect(page.getByRole('tab', { name: /To review/ }).getByLabel(/\d+ not reviewed/)).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    // The user's own choice of theme, as the toggle stores it, applied by a reload.
    await page.evaluate((value) => {
      localStorage.setItem('fleet.colorScheme', value);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    const badge = page.getByRole('tab', { name: /To review/ }).getByLabel(/\d+ not reviewed/);
    await expect(badge).toBeVisible();
    expect(await textContrast(badge), scheme).toBeGreaterThanOrEqual(4.5);
    expect(await seriousA11yViolations(page, ['color-contrast']), scheme).toEqual([]);
  }
  // The banner's title starts with the number of items nobody has reviewed.
  const count = async () => Number((await banner.textContent())!.match(/^\s*(\d+) items? to review/)![1]);
  const before = await count();
  await banner.getByRole('button', { name: 'Open To review' }).click();
  const item = page.getByRole('listitem').filter({ hasText: `Receipt E2E-P${START}: 10 gal at $4.000 per gallon is $40.00, but the total is $9,999.00` });
  await expect(item).toBeVisible();
  await expect(item.getByText('Price and total apart')).toBeVisible();
  await item.getByRole('button', { name: /^Mark reviewed/ }).click();
  await expect(item).toBeHidden();
  if (before > 1) await expect.poll(count).toBe(before - 1);
  else await expect(banner).toBeHidden();
  // Shown with who reviewed it among all items.
  await page.getByText(/^All \(\d+\)$/).click();
  await expect(item.getByText(/Reviewed .* by admin@demofreight\.test/)).toBeVisible();
});

test('a fleet manager adds an adjustment with a reason; a wrong distance is refused on the field', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto(`/ifta?quarter=${QUARTER}&tab=adjustments`);
  await page.getByRole('button', { name: 'Add adjustment' }).click();
  const form = page.getByRole('form', { name: 'Adjustment form' });
  await form.getByLabel('Day').fill(new Date().toISOString().slice(0, 10));
  await form.getByLabel('Jurisdiction').selectOption('IL');
  await form.getByLabel('Kind').selectOption('OFF_HIGHWAY');
  await form.getByLabel(/^Distance/).fill('-5');
  await form.getByLabel('Reason').fill('Yard moves at the Joliet terminal');
  await form.getByRole('button', { name: 'Add adjustment' }).click();
  await expect(form.getByText('Distance may be negative only for a correction')).toBeVisible();
  await form.getByLabel(/^Distance/).fill('12');
  await form.getByRole('button', { name: 'Add adjustment' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('table', { name: 'Mileage adjustments' }).getByRole('row', { name: /IL.*Off-highway.*12\.0 mi.*Joliet/ })).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`every tab of the IFTA screen is free of serious accessibility violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    if (scheme === 'dark') {
      await page.goto('/');
      await page.evaluate(() => {
        localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' }));
        localStorage.setItem('fleet.colorScheme', 'dark');
      });
    }
    await signIn(page, 'admin');
    await page.goto(`/ifta?quarter=${QUARTER}`);
    await expect(page.getByRole('table', { name: `IFTA return ${QUARTER}` })).toBeVisible();
    for (const tab of ['Return', 'Vehicles', 'Map', 'To review', 'Fuel purchases', 'Adjustments']) {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
      await expect(page.getByRole('tab', { name: new RegExp(`^${tab}`) })).toHaveAttribute('aria-selected', 'true');
      // Drawn: the tab's panel shows, with no loader left in it (the map's canvas once its style loaded).
      const panel = page.getByRole('tabpanel', { name: new RegExp(`^${tab}`) });
      await expect(panel).toBeVisible();
      await expect(panel.locator('.mantine-Loader-root')).toHaveCount(0);
      if (tab === 'Map') await expect(panel.locator('canvas.maplibregl-canvas')).toBeVisible();
      expect(await seriousA11yViolations(page), tab).toEqual([]);
    }
  });
}
