import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';
import { officeApi } from './driver-helpers.ts';

// Engine power-up and shut-down records (decision 0155): a truck's tracker reports its ignition, the
// engine's odometer and its hours; the office's log day of the driver signed in to it lists both
// records with the miles and hours.
test.describe.configure({ timeout: 120_000 });

test("the office's log day lists the engine's power-up and shut-down with miles and hours", async ({ page, request }) => {
  const api = await officeApi(request);
  const unique = Date.now().toString(36);
  const driver = (await (
    await request.post(`${api.org}/drivers`, { headers: api.headers, data: { firstName: 'Ed', lastName: `Engine${unique}`, licenseNumber: `EN${unique.toUpperCase()}`, licenseState: 'IL', homeTimeZone: 'America/Chicago' } })
  ).json()) as { id: string };
  const vehicle = await api.vehicle();
  await api.assign(vehicle.id, driver.id);
  const uniqueId = `e2e-engine-${unique}`;
  const gw = await request.post(`${api.org}/gateways`, { headers: api.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const pair = await request.post(`${api.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${vehicle.id}`, { headers: api.headers });
  expect(pair.ok(), await pair.text()).toBe(true);

  // Ignition off, on 20 s later, off a minute after: 100,000.0 mi and 4,321.5 h at the power-up.
  const start = Date.now() + 2_000;
  const fixes: Array<[number, boolean, number, number]> = [
    [0, false, 160_934_400, 4321.5],
    [20, true, 160_934_400, 4321.5],
    [40, true, 160_950_000, 4321.51],
    [80, false, 160_983_000, 4321.52],
  ];
  for (const [s, ignition, odometer, hours] of fixes) {
    const r = await request.get(`/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor((start + s * 1000) / 1000)}&lat=41.6&lon=-88.1&speed=0&ignition=${ignition}&vehicleOdometer=${odometer}&engineHours=${hours}`);
    expect(r.status()).toBe(200);
  }
  let logId = '';
  await expect
    .poll(
      async () => {
        const day = (await (await request.get(`${api.org}/drivers/${driver.id}/hos_log/current-day`, { headers: api.headers })).json()) as { id: string; events: Array<{ eventType: number }> };
        logId = day.id;
        return day.events.filter((e) => e.eventType === 6).length;
      },
      { timeout: 20_000 },
    )
    .toBe(2);

  await login(page, 'admin');
  await page.goto(`/hos/logs/${logId}`);
  const events = page.getByRole('table', { name: 'Events' });
  await expect(events.getByRole('columnheader', { name: 'Engine hours' })).toBeVisible();
  const up = events.getByRole('row').filter({ hasText: 'Engine power-up' });
  await expect(up).toContainText('100,000');
  await expect(up).toContainText('4,321.5 h');
  await expect(up).toContainText(vehicle.unitNumber);
  await expect(events.getByRole('row').filter({ hasText: 'Engine shutdown' })).toContainText('4,321.5 h');
  await page.screenshot({ path: test.info().outputPath('log-day-engine.png'), fullPage: true });
});
