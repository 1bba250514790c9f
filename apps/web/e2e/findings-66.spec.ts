import { expect, test, type Page } from '@playwright/test';
import { withVinCheckDigit } from '@fleet/api-contract/vin';
import { driverLogin, officeApi, periodsUntil } from './driver-helpers.ts';
import { signIn } from './helpers.ts';
import { ORG } from './registry-helpers.ts';

// Issue 66, found by a new user: a vehicle's page shows the odometer its engine reports (the one its
// log, ELD file and schedules read); a driver whose server cannot send to FMCSA reads what to do, not
// the server's settings; the office's Send to FMCSA needs the write code.

const MILE_M = 1609.344;
const SHOTS = process.env.FINDINGS_SHOTS_DIR;

/** Screenshots in both schemes (FINDINGS_SHOTS_DIR), the screen opened again by `open` after each reload. */
async function shoot(page: Page, name: string, open: () => Promise<void>) {
  if (!SHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((value) => {
      localStorage.setItem('fleet.colorScheme', value);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await open();
    // The screen's text in its own font before the picture.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png` });
  }
}

test("a vehicle's page shows the odometer its engine reports, not the one entered", async ({ page, request }) => {
  const office = await officeApi(request);
  // 433,177 mi entered on the vehicle, as truck 108's was.
  const n = String(100000 + Math.floor(Math.random() * 899999));
  const made = await request.post(`${office.org}/assets`, {
    headers: office.headers,
    data: {
      type: 'VEHICLE',
      unitNumber: `O${n}`,
      vin: withVinCheckDigit(`4V4NC9EH0PA${n}`),
      make: 'Volvo',
      model: 'VNL',
      year: 2023,
      fuelType: 'DIESEL',
      odometerKm: 697_130.8,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const vehicle = (await made.json()) as { id: string };
  const uniqueId = `e2e-odometer-${Date.now()}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } });
  expect(gw.status()).toBe(201);
  const { id } = (await gw.json()) as { id: string };
  const paired = await request.post(`${office.org}/gateways/${id}/pair/${vehicle.id}`, {
    headers: office.headers,
    data: { from: new Date(Date.now() - 10 * 60_000).toISOString() },
  });
  expect(paired.status(), await paired.text()).toBe(200);
  const q = new URLSearchParams({
    id: uniqueId,
    timestamp: String(Math.floor(Date.now() / 1000) - 30),
    lat: '41.6',
    lon: '-88.1',
    speed: '0',
    ignition: 'true',
    vehicleOdometer: String(Math.round(716_398.7 * MILE_M)),
  });
  expect((await request.get(`/api/v1/ingest/osmand?${q.toString()}`)).status()).toBe(200);

  await signIn(page, 'admin');
  await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
  const odometer = page.getByTestId('asset-odometer');
  await expect(odometer).toHaveAttribute('data-source', 'ENGINE');
  await expect(odometer).toHaveText('716,398.7 mi · engine');
  const reopen = async () => {
    await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
    await expect(odometer).toBeVisible();
  };
  await shoot(page, 'vehicle-odometer-desktop', reopen);
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'vehicle-odometer-375', reopen);
});

test.describe('at the roadside, 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, timezoneId: 'America/Chicago' });

  test('a driver whose server cannot send to FMCSA reads what to do, never its settings', async ({ page, request }) => {
    const office = await officeApi(request);
    const account = await office.driverAccount();
    await driverLogin(page, account);
    // This server is set up (the stand-in); the API's answers to a driver on one that is not (the
    // API tests hold them) are played here.
    const driverWords =
      'Sending to FMCSA is not set up for your carrier yet. Show the officer your logs on this screen or the downloaded ELD file, and tell your office.';
    await page.route('**/hos_log/eld-transfer-status', (route) =>
      route.fulfill({ json: { test: true, webService: { ready: false, missing: [] }, email: { ready: false, missing: [] }, lastCheck: null } }),
    );
    await page.route('**/hos_log/eld-transfer', (route) =>
      route.fulfill({
        status: 409,
        json: { message: driverWords, technicalMessage: 'eld-transfer: NOT_SET_UP', status: 409, timestamp: new Date().toISOString() },
      }),
    );
    await page.goto('/driver/inspection');
    await page.getByLabel('Output file comment').fill('OFFICER 66');
    await page.getByRole('button', { name: 'Send to an officer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send to FMCSA for the officer' });
    await expect(dialog.getByTestId('fmcsa-not-ready')).toHaveText(driverWords);
    // The driver may still send: the attempt is recorded for the office.
    const send = dialog.getByRole('button', { name: 'Send', exact: true });
    await expect(send).toBeEnabled();
    await send.click();
    await expect(dialog.getByTestId('fmcsa-failure')).toHaveText(driverWords);
    await expect(dialog).not.toContainText('ELD_');
    await shoot(page, 'fmcsa-driver-not-set-up-375', async () => {
      await page.getByLabel('Output file comment').fill('OFFICER 66');
      await page.getByRole('button', { name: 'Send to an officer' }).click();
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(dialog.getByTestId('fmcsa-failure')).toBeVisible();
    });
  });
});

test('Send to FMCSA on a log page needs HOS_EDIT: the dispatcher reads the log without it', async ({ page, request }) => {
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const { logs } = await office.importPeriods(
    account.driver.id,
    periodsUntil(Date.now() - 60_000, [
      ['OFF', 10],
      ['ON', 1],
    ]),
  );
  await signIn(page, 'dispatcher');
  await page.goto(`/hos/logs/${logs.at(-1)!.id}`);
  await expect(page.getByRole('button', { name: 'Download ELD file' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send to FMCSA' })).toHaveCount(0);
  await signIn(page, 'admin');
  await page.goto(`/hos/logs/${logs.at(-1)!.id}`);
  await expect(page.getByRole('button', { name: 'Send to FMCSA' })).toBeVisible();
});
