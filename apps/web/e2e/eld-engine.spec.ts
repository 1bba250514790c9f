import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';
import { clearOfMidnight, driverLogin, officeApi } from './driver-helpers.ts';

// Engine power-up and shut-down records (decision 0155): a truck's tracker reports its ignition, the
// engine's odometer and its hours; the office's log day of the driver signed in to it lists both
// records with the miles and hours, and so does the driver's screen on a phone.
test.describe.configure({ timeout: 150_000 });

/** The user's own choice of theme, as the toggle stores it, applied by a reload. */
async function setScheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((value) => {
    localStorage.setItem('fleet.colorScheme', value);
    localStorage.removeItem('fleet.colorSchemeFromOrganization');
  }, scheme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

test("the office's log day and the driver's screen list the engine's power-up and shut-down with miles and hours", async ({ page, request, browser }) => {
  const api = await officeApi(request);
  const unique = Date.now().toString(36);
  const me = await api.driverAccount();
  const driver = me.driver;
  const vehicle = await api.vehicle();
  await api.assign(vehicle.id, driver.id);
  const uniqueId = `e2e-engine-${unique}`;
  const gw = await request.post(`${api.org}/gateways`, { headers: api.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const pair = await request.post(`${api.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${vehicle.id}`, { headers: api.headers });
  expect(pair.ok(), await pair.text()).toBe(true);

  // The driver signs in on the phone first. The fixes below are stamped up to 80 s ahead (after the
  // pairing, so they count for the truck); a sign-in after them would be a login record earlier than
  // the power-up carrying the last fix's totals, and a record's totals never go below an earlier
  // one's (decision 0193).
  const phone = await browser.newPage({ viewport: { width: 375, height: 812 } });
  await driverLogin(phone, me);

  // Ignition off, on 20 s later, off a minute after: 100,000.0 mi and 4,321.5 h at the power-up,
  // all on one log day, read back while it is still today.
  await clearOfMidnight(90_000);
  const start = Date.now() + 2_000;
  const fixes: Array<[number, boolean, number, number]> = [
    [0, false, 160_934_400, 4321.5],
    [20, true, 160_934_400, 4321.5],
    [40, true, 160_950_000, 4321.51],
    [80, false, 160_983_000, 4321.52],
  ];
  for (const [s, ignition, odometer, hours] of fixes) {
    const r = await request.get(
      `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor((start + s * 1000) / 1000)}&lat=41.6&lon=-88.1&speed=0&ignition=${ignition}&vehicleOdometer=${odometer}&engineHours=${hours}`,
    );
    expect(r.status()).toBe(200);
  }
  let logId = '';
  await expect
    .poll(
      async () => {
        const day = (await (await request.get(`${api.org}/drivers/${driver.id}/hos_log/current-day`, { headers: api.headers })).json()) as {
          id: string;
          events: Array<{ eventType: number }>;
        };
        logId = day.id;
        return day.events.filter((e) => e.eventType === 6).length;
      },
      { timeout: 20_000 },
    )
    .toBe(2);

  await signIn(page, 'admin');
  await page.goto(`/hos/logs/${logId}`);
  const events = page.getByRole('table', { name: 'Events' });
  await expect(events.getByRole('columnheader', { name: 'Engine hours' })).toBeVisible();
  const up = events.getByRole('row').filter({ hasText: 'Engine power-up' });
  await expect(up).toContainText('100,000');
  await expect(up).toContainText('4,321.5 h');
  await expect(up).toContainText(vehicle.unitNumber);
  await expect(events.getByRole('row').filter({ hasText: 'Engine shutdown' })).toContainText('4,321.5 h');
  await page.screenshot({ path: test.info().outputPath('log-day-engine-light.png'), fullPage: true });
  await setScheme(page, 'dark');
  await expect(up).toContainText('4,321.5 h');
  await page.screenshot({ path: test.info().outputPath('log-day-engine-dark.png'), fullPage: true });

  // The driver's today tab on the phone.
  await phone.reload();
  const engine = phone.getByTestId('driver-engine-events');
  await expect(engine).toContainText('Engine power-up');
  await expect(engine).toContainText('Engine shutdown');
  await expect(engine).toContainText('100,000 mi');
  await expect(engine).toContainText('4,321.5 h');
  await engine.scrollIntoViewIfNeeded();
  await phone.screenshot({ path: test.info().outputPath('driver-engine-light.png'), fullPage: true });
  await setScheme(phone, 'dark');
  await expect(engine).toContainText('4,321.5 h');
  await phone.screenshot({ path: test.info().outputPath('driver-engine-dark.png'), fullPage: true });
  await phone.close();
});
