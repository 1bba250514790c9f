import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { login } from './helpers.ts';

// Issue 46 as a dispatcher sees it: a truck on the road since this morning shows its trip in
// progress in the daily summary and in history, which plays it; history's speed chart is linear in
// time (a silence is a gap) and each point shows the engine data its fix carries.

const KNOTS_PER_KMH = 1 / 1.852;
const MIN = 60_000;
const SHOTS = process.env.NUMBERS_SHOTS_DIR ?? '/tmp';

/** The minutes since midnight in Chicago (the demo organization's and admin's zone). */
const chicagoMinutes = (ms: number) => {
  const [h, m] = new Date(ms)
    .toLocaleTimeString('en-GB', { timeZone: 'America/Chicago', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .split(':')
    .map(Number);
  return h! * 60 + m!;
};

interface Fix {
  t: number;
  kmh: number;
  ignition: boolean;
}

/**
 * A tracker with engine data paired to a new truck from three hours ago, reporting over OsmAnd:
 * parked 5 minutes, 30 minutes at 90 km/h, silent 30 minutes, then 15 minutes at 90 km/h up to now.
 * The route zigzags a little so the history track keeps every point.
 */
async function truckOnTheRoad(request: APIRequestContext) {
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  const uniqueId = `e2e-numbers-${Date.now()}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } });
  expect(gw.status()).toBe(201);
  const { id } = (await gw.json()) as { id: string };
  const now = Date.now();
  const paired = await request.post(`${office.org}/gateways/${id}/pair/${vehicle.id}`, {
    headers: office.headers,
    data: { from: new Date(now - 3 * 60 * MIN).toISOString() },
  });
  expect(paired.status(), await paired.text()).toBe(200);
  const start = now - 81 * MIN;
  const fixes: Fix[] = [];
  for (let m = 0; m <= 5; m++) fixes.push({ t: start + m * MIN, kmh: 0, ignition: false });
  for (let m = 6; m <= 35; m++) fixes.push({ t: start + m * MIN, kmh: 90, ignition: true });
  for (let m = 66; m <= 80; m++) fixes.push({ t: start + m * MIN, kmh: 90, ignition: true });
  let lon = -88.3;
  let odometer = 412_000_000;
  let prev = fixes[0]!.t;
  for (const [i, f] of fixes.entries()) {
    // Distance from the time since the previous fix at this speed (the silence drove on too).
    const km = (f.kmh * (f.t - prev)) / 3_600_000;
    lon += km / 83;
    odometer += km * 1000;
    prev = f.t;
    const q = new URLSearchParams({
      id: uniqueId,
      timestamp: String(Math.floor(f.t / 1000)),
      lat: (41.6 + (i % 2) * 0.01).toFixed(5),
      lon: lon.toFixed(5),
      speed: (f.kmh * KNOTS_PER_KMH).toFixed(2),
      ignition: String(f.ignition),
      vehicleOdometer: String(Math.round(odometer)),
      engineHours: (1234.5 + (f.t - start) / 3_600_000).toFixed(2),
      ...(f.ignition ? { rpm: '1450' } : {}),
    });
    const r = await request.get(`/api/v1/ingest/osmand?${q.toString()}`);
    expect(r.status()).toBe(200);
  }
  return { vehicle, fixes };
}

/** The user's own choice of theme, as the toggle stores it, applied by a reload (as eld-engine.spec.ts). */
async function setScheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((value) => {
    localStorage.setItem('fleet.colorScheme', value);
    localStorage.removeItem('fleet.colorSchemeFromOrganization');
  }, scheme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

test("a truck on the road shows today's trip in progress in the summary and in history, which plays it on a linear time axis with the engine data", async ({
  page,
  request,
}) => {
  // The whole drive must fall on today in Chicago (history opens on today).
  test.skip(chicagoMinutes(Date.now()) < 90, 'too close to midnight in Chicago for the drive to be on today');
  test.setTimeout(120_000);
  const { vehicle, fixes } = await truckOnTheRoad(request);
  await login(page, 'admin');

  // The daily summary: today's row counts the trip under way, marked.
  await expect(async () => {
    await page.goto(`/reports/summary?asset=${vehicle.id}`);
    await expect(page.getByTestId('summary-in-progress')).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  const row = page
    .getByRole('table', { name: 'Daily summary' })
    .locator('tbody tr')
    .filter({ has: page.getByTestId('summary-in-progress') });
  // 45 minutes at 90 km/h: about 42 mi (the silence counted by the first trip's end, not as driving).
  await expect(row).toContainText(/\d+(\.\d)? mi/);
  await expect(row).not.toContainText('0.0 mi');

  // History: the trip under way in the list, chosen, plays.
  await page.goto(`/map/history?type=assets&asset=${vehicle.id}`);
  const trips = page.getByTestId('history-trips');
  await expect(trips.getByTestId('history-trip-in-progress')).toBeVisible();
  await expect(trips.getByTestId('history-trip-row').last()).toContainText('– now');
  await expect(trips.getByTestId('history-trip-row')).toHaveCount(2);

  // The speed chart: x is time, so the break over the 30-minute silence sits where its time is.
  const chart = page.getByTestId('speed-chart');
  await expect(chart).toBeVisible();
  const d = (await chart.locator('path.recharts-line-curve').first().getAttribute('d')) ?? '';
  const segments = d
    .split('M')
    .filter(Boolean)
    .map((s) => s.split(/[LC]/).map((p) => Number(p.trim().split(/[ ,]+/)[0])));
  expect(segments.length, d).toBe(2);
  const first = segments[0]![0]!;
  const last = segments[1]!.at(-1)!;
  const afterGap = segments[1]![0]!;
  const timeRatio = (fixes[36]!.t - fixes[0]!.t) / (fixes.at(-1)!.t - fixes[0]!.t);
  expect((afterGap - first) / (last - first)).toBeCloseTo(timeRatio, 1);

  // The point detail at the start (parked, engine off) and at the end (driving).
  const detail = page.getByTestId('point-detail');
  await expect(detail).toContainText('IgnitionOff');
  await expect(detail).toContainText(/Odometer \(engine\)256,\d{3}(\.\d)? mi/);
  await expect(detail).toContainText(/Engine hours1,234\.5 h/);
  await expect(detail).toContainText('Engine speedNot reported');
  const slider = page.getByRole('slider', { name: 'Playback position' });
  await slider.focus();
  await page.keyboard.press('End');
  await expect(detail).toContainText('IgnitionOn');
  await expect(detail).toContainText('Engine speed1,450 rpm');

  // Choosing the trip in progress plays it from its start.
  await trips.getByTestId('history-trip-row').last().click();
  await expect(page.getByTestId('play-button')).toHaveText(/Pause/);
  await expect(page.getByTestId('playback-marker')).toBeVisible();
  await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(36);

  // How it looks: light and dark at 1280 px, and on a 375 px phone; the summary with its mark.
  await page.getByTestId('play-button').click();
  await page.screenshot({ path: `${SHOTS}/numbers-history-light.png`, fullPage: true });
  await setScheme(page, 'dark');
  await expect(page.getByTestId('point-detail')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/numbers-history-dark.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId('point-detail')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/numbers-history-phone.png`, fullPage: true });
  await page.goto(`/reports/summary?asset=${vehicle.id}`);
  await expect(page.getByTestId('summary-in-progress')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/numbers-summary-phone-dark.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await setScheme(page, 'light');
  await expect(page.getByTestId('summary-in-progress')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/numbers-summary-light.png`, fullPage: true });
});
