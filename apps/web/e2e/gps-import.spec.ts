import { expect, test, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { ADMIN, login, ORG, signIn, uniq } from './registry-helpers.ts';

// Issue 28, positions that belong to a vehicle: a vehicle's GPS history imported from another
// system (preview with each bad row, then import), and pairing a device from a time in the past.

const MIN = 60_000;

/** A CSV of 11 minute fixes (a week ago, before anything this vehicle's device could have sent) and two bad rows. */
function historyCsv(): string {
  const start = Date.now() - 7 * 86_400_000;
  const rows = Array.from({ length: 11 }, (_, i) => `${new Date(start + i * MIN).toISOString()},41.6,${(-88 + i * 0.02).toFixed(4)},80`);
  return ['time,latitude,longitude,speed', ...rows, `${new Date(start + 20 * MIN).toISOString()},91,-88,80`, 'not a time,41.6,-88,80'].join('\n');
}

async function openVehicle(page: Page, unit: string) {
  await page.goto(`${ORG}/vehicles`);
  await page.getByLabel('Search Vehicles').fill(unit);
  await page.getByRole('row', { name: new RegExp(unit) }).click();
  return page.getByRole('dialog', { name: `Vehicle ${unit}` });
}

test("an office user imports a vehicle's GPS history: the preview names each bad row, the import stores the rest, history marks them", async ({
  page,
  request,
}) => {
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  await login(page, ADMIN);
  const detail = await openVehicle(page, vehicle.unitNumber);
  await detail.getByRole('button', { name: 'Import GPS history' }).click();
  const drawer = page.getByRole('dialog', { name: `Import GPS history of ${vehicle.unitNumber}` });
  await drawer.locator('input[type="file"]').setInputFiles({ name: 'old-eld.csv', mimeType: 'text/csv', buffer: Buffer.from(historyCsv()) });
  await expect(drawer.getByText('11 valid')).toBeVisible();
  await expect(drawer.getByText('2 with errors')).toBeVisible();
  const errors = drawer.getByRole('table', { name: 'Row errors' });
  await expect(errors.getByRole('row', { name: /13 latitude latitude 91 is outside -90\.\.90/ })).toBeVisible();
  await expect(errors.getByRole('row', { name: /14 time "not a time" is not a date and time/ })).toBeVisible();
  await drawer.getByRole('button', { name: 'Import 11 positions' }).click();
  await expect(page.getByText('11 positions imported, 2 rows skipped')).toBeVisible();
  await expect(drawer).toBeHidden();

  const from = new Date(Date.now() - 8 * 86_400_000).toISOString();
  const to = new Date(Date.now() - 6 * 86_400_000).toISOString();
  const route = await request.get(`${office.org}/history-routes/assets/${vehicle.id}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, {
    headers: office.headers,
  });
  expect((await route.json()).imported.positions).toBe(11);
});

test('pairing a device opens a dialog with an optional "Positions from"; a paired device can take earlier positions', async ({ page, request }) => {
  // Taking the screenshots (SHOTS_DIR) opens each dialog four times more.
  test.setTimeout(process.env.SHOTS_DIR ? 300_000 : 60_000);
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  const uniqueId = `e2e-pair-${uniq()}`;
  const gw = (await (await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } })).json()) as {
    id: string;
  };
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/devices/${gw.id}`);
  const picker = page.getByRole('textbox', { name: 'Pair with vehicle' }).or(page.getByLabel('Pair with vehicle')).first();
  await picker.click();
  await picker.fill(vehicle.unitNumber);
  await page
    .getByRole('option', { name: new RegExp(vehicle.unitNumber) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Pair', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Pair device' });
  await expect(dialog.getByText(`Tracker ${uniqueId} will report for ${vehicle.unitNumber}.`)).toBeVisible();
  await expect(dialog.getByText(/^Positions from \(/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Pair', exact: true }).click();
  await expect(page.getByText('Device paired')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Pairing history' }).getByRole('row', { name: new RegExp(`${vehicle.unitNumber}.*now`) })).toBeVisible();
  await page.getByRole('button', { name: 'Earlier positions' }).click();
  await expect(page.getByRole('dialog', { name: 'Pair device' })).toBeVisible();

  // Screenshots of the new dialogs (SHOTS_DIR set): 1280 and 375 px, light and dark.
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await page.keyboard.press('Escape');
  for (const scheme of ['light', 'dark'] as const) {
    await page.goto(`${ORG}/devices/${gw.id}`);
    const current = await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    if (current !== scheme) await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe(scheme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 780 : 800 });
      await page.goto(`${ORG}/devices/${gw.id}`);
      await page.getByRole('button', { name: 'Earlier positions' }).click();
      await expect(page.getByRole('dialog', { name: 'Pair device' })).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Pair device' })).toHaveCSS('opacity', '1');
      await page.screenshot({ path: `${dir}/pair-dialog-${width}-${scheme}.png` });
      await page.keyboard.press('Escape');
      await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
      await page
        .getByRole('dialog', { name: `Vehicle ${vehicle.unitNumber}` })
        .getByRole('button', { name: 'Import GPS history' })
        .click();
      const drawer = page.getByRole('dialog', { name: `Import GPS history of ${vehicle.unitNumber}` });
      await drawer.locator('input[type="file"]').setInputFiles({ name: 'old-eld.csv', mimeType: 'text/csv', buffer: Buffer.from(historyCsv()) });
      await expect(drawer.getByText(/with errors/)).toBeVisible();
      await expect(drawer).toHaveCSS('opacity', '1');
      await page.screenshot({ path: `${dir}/gps-import-${width}-${scheme}.png` });
    }
  }
  // The admin's theme is stored for the user: leave it light, as the other specs expect.
  await page.goto(`${ORG}/devices/${gw.id}`);
  await page.getByTestId('theme-toggle').click();
  await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('light');
});
