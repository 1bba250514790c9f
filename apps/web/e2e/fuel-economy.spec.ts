import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import type { FuelEconomy } from '@fleet/api-contract/fuel-economy';
import { economyFromLPer100Km } from '@fleet/api-contract/units';
import { officeApi } from './driver-helpers.ts';
import { seriousA11yViolations, screenshotsLightDark } from './helpers.ts';
import { ADMIN, ORG, signIn } from './registry-helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });
test.describe.configure({ timeout: 150_000 });

// Issue 68 (decision 0280): fuel economy and idling on fleet performance, the vehicle page and the
// driver's scorecard. Two trucks paired now report the next minutes (fixes may be up to 10 minutes
// ahead): one with the engine's fuel counter, driving three minutes and idling five and a half; the
// other a phone, driving three minutes between two fuel purchases.

const mpg = (lPer100Km: number) => economyFromLPer100Km(lPer100Km, 'IMPERIAL')!.toFixed(1);
const STEP = 0.0025; // degrees of latitude in 10 s at about 100 km/h

/** The fuel economy answer the page asks for. */
const fuelAnswer = (page: Page, part: string) => page.waitForResponse((r: Response) => r.url().includes('/fuel-economy?') && r.url().includes(part) && r.ok());

async function truck(request: APIRequestContext, office: Awaited<ReturnType<typeof officeApi>>, name: string) {
  const vehicle = await office.vehicle();
  const driver = await request.post(`${office.org}/drivers`, {
    headers: office.headers,
    data: {
      firstName: name,
      lastName: `Fuel${Date.now().toString(36).slice(-5)}`,
      licenseNumber: `FE${Date.now().toString(36).toUpperCase()}`,
      licenseState: 'IL',
    },
  });
  expect(driver.status(), await driver.text()).toBe(201);
  const d = (await driver.json()) as { id: string; firstName: string; lastName: string };
  await office.assign(vehicle.id, d.id);
  const uniqueId = `e2e-fuel-${name.toLowerCase()}-${Date.now().toString(36)}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Device ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const { id, ingestToken } = (await gw.json()) as { id: string; ingestToken: string };
  expect((await request.post(`${office.org}/gateways/${id}/pair/${vehicle.id}`, { headers: office.headers })).ok()).toBe(true);
  const send = async (positions: Array<Record<string, unknown>>) => {
    const res = await request.post('/api/v1/ingest/positions', { headers: { authorization: `Bearer ${ingestToken}` }, data: { positions } });
    expect(res.status(), await res.text()).toBe(200);
  };
  return { vehicle, driver: { id: d.id, name: `${d.firstName} ${d.lastName}` }, send };
}

let engine: Awaited<ReturnType<typeof truck>>;
let phone: Awaited<ReturnType<typeof truck>>;
/** The purchases this file made: removed after it, so the IFTA test that runs later in the shard sees a quarter with no fuel. */
let removePurchases: (request: APIRequestContext) => Promise<void> = async () => {};
test.afterAll(async ({ request }) => removePurchases(request));

test.beforeAll(async ({ request }) => {
  const office = await officeApi(request);
  engine = await truck(request, office, 'Engine');
  phone = await truck(request, office, 'Phone');
  const t0 = Date.now() + 5_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  // The engine truck: 18 fixes 10 s apart north at 100 km/h burning 0.1 L each (36 L/h), then
  // 12 fixes 30 s apart standing, idling at 0.025 L each (3 L/h).
  await engine.send([
    ...Array.from({ length: 18 }, (_, i) => ({
      fixTime: at(i * 10_000),
      latitude: 41 + i * STEP,
      longitude: -89,
      speed: 100,
      ignition: true,
      attributes: { fuelUsed: 5000 + 0.1 * i },
    })),
    ...Array.from({ length: 12 }, (_, k) => ({
      fixTime: at(170_000 + (k + 1) * 30_000),
      latitude: 41 + 17 * STEP,
      longitude: -89,
      speed: 0,
      ignition: true,
      attributes: { fuelUsed: 5001.7 + 0.025 * (k + 1) },
    })),
  ]);
  // The phone: standing, three minutes north, then the engine off for six.
  await phone.send([
    { fixTime: at(0), latitude: 40, longitude: -90, speed: 0, ignition: true },
    ...Array.from({ length: 18 }, (_, i) => ({ fixTime: at(10_000 + i * 10_000), latitude: 40 + i * STEP, longitude: -90, speed: 100, ignition: true })),
    ...Array.from({ length: 7 }, (_, k) => ({ fixTime: at(190_000 + k * 60_000), latitude: 40 + 17 * STEP, longitude: -90, speed: 0, ignition: false })),
  ]);
  const purchases: string[] = [];
  // Filled at its first fix, before the drive, and after it: 0.45 gal for 17 steps (2.9 mi) is about 6.5 mpg.
  for (const [ms, quantity] of [
    [5_000, 120],
    [200_000, 0.45],
  ] as const) {
    const res = await request.post(`${office.org}/ifta/fuel-purchases`, {
      headers: office.headers,
      data: { purchasedAt: at(ms), assetId: phone.vehicle.id, jurisdiction: 'IL', quantity, volumeUnit: 'GAL', receiptNumber: `E2E-FE-${t0}-${ms}` },
    });
    expect(res.status(), await res.text()).toBe(201);
    purchases.push(((await res.json()) as { id: string }).id);
  }
  removePurchases = async (request) => {
    for (const id of purchases) {
      const gone = await request.delete(`${office.org}/ifta/fuel-purchases/${id}`, { headers: office.headers });
      expect([204, 404], await gone.text()).toContain(gone.status());
    }
  };
  // The trip ends when the engine goes off, the idling after five minutes: both are behind ingest.
  await expect
    .poll(
      async () => {
        const res = await request.get(`${office.org}/fuel-economy?from=${day(-1)}&to=${day(1)}`, { headers: office.headers });
        const rows = ((await res.json()) as FuelEconomy).rows;
        const e = rows.find((r) => r.id === engine.vehicle.id);
        const p = rows.find((r) => r.id === phone.vehicle.id);
        return `${e?.economy?.basis} ${e?.idleEvents} ${p?.economy?.basis}`;
      },
      { timeout: 30_000 },
    )
    .toBe('ENGINE 1 PURCHASES');
});

test('fleet performance shows fuel economy and idling per vehicle and per driver against the fleet median', async ({ page }) => {
  await signIn(page, ADMIN);
  const answer = fuelAnswer(page, 'groupBy=vehicle');
  await page.goto('/analytics/fleet-performance');
  const vehicles = (await (await answer).json()) as FuelEconomy;
  const e = vehicles.rows.find((r) => r.id === engine.vehicle.id)!;
  const p = vehicles.rows.find((r) => r.id === phone.vehicle.id)!;
  // By hand: 17 steps of 0.1 L and 12 standing half-minutes of 0.025 L; the idling from the first
  // standing fix to the last (5.5 minutes, 11 × 0.025 L); the phone's 0.45 gal over its trip.
  expect(e.economy!.fuelL).toBeCloseTo(1.7 + 12 * 0.025, 2);
  expect(p.economy!.fuelL).toBeCloseTo(0.45 * 3.785411784, 2);
  expect(e.idleMs).toBe(330_000);
  // 11 × 0.025 L, which the idling event keeps to the hundredth.
  expect(e.idleFuelL).toBe(0.28);

  // The economy card: the rows' fuel over their distance, and the fleet median.
  const card = page.locator('.mantine-Card-root', { hasText: 'Fuel economy' }).first();
  await expect(card).toContainText(`${mpg(vehicles.totals.economy!.lPer100Km)} mpg`);
  await expect(card).toContainText(`fleet median ${mpg(vehicles.median.lPer100Km!)} mpg`);

  await page.getByRole('tab', { name: 'Fuel and idling' }).click();
  const table = page.getByRole('table', { name: 'Fuel and idling' });
  await expect(page.getByTestId('fuel-median')).toContainText(`Fleet median: ${mpg(vehicles.median.lPer100Km!)} mpg`);
  const engineRow = table.getByRole('row').filter({ hasText: `Vehicle ${engine.vehicle.unitNumber}` });
  await expect(engineRow).toContainText('Engine fuel counter');
  await expect(engineRow).toContainText(`${mpg(e.economy!.lPer100Km)} mpg`);
  await expect(engineRow).toContainText('0 h 06 m');
  const phoneRow = table.getByRole('row').filter({ hasText: `Vehicle ${phone.vehicle.unitNumber}` });
  await expect(phoneRow).toContainText('Fuel bought between fills');
  await expect(phoneRow).toContainText(`${mpg(p.economy!.lPer100Km)} mpg`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await engineRow.scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'fuel-economy-vehicles');

  const perDriver = fuelAnswer(page, 'groupBy=driver');
  await page.getByTestId('fuel-idling').getByText('Drivers', { exact: true }).click();
  const drivers = (await (await perDriver).json()) as FuelEconomy;
  const d = drivers.rows.find((r) => r.id === engine.driver.id)!;
  expect(d.economy!.basis).toBe('ENGINE');
  await expect(table.getByRole('row').filter({ hasText: engine.driver.name })).toContainText(`${mpg(d.economy!.lPer100Km)} mpg`);
  await expect(table.getByRole('row').filter({ hasText: phone.driver.name })).toContainText('Fuel bought between fills');
  await expect(page.getByTestId('fuel-median')).toContainText(`(${drivers.median.economyCount} driver`);
  await screenshotsLightDark(page, 'fuel-economy-drivers');

  // A period past the API's 92 days is not asked for: the card and the tab say why, no error.
  await page.goto(`/analytics/fleet-performance?from=${day(-200)}&to=${day(0)}`);
  await expect(page.locator('.mantine-Card-root', { hasText: 'Fuel economy' }).first()).toContainText('at most 92 days');
  await page.getByRole('tab', { name: 'Fuel and idling' }).click();
  await expect(page.getByTestId('fuel-range-too-long')).toBeVisible();
  await expect(page.getByText(/went wrong|failed/i)).toHaveCount(0);
});

test('the vehicle page and the driver scorecard show their own fuel economy and idling, or no fuel data', async ({ page, request }) => {
  await signIn(page, ADMIN);
  const answer = fuelAnswer(page, `assetId=${engine.vehicle.id}`);
  await page.goto(`${ORG}/vehicles?open=${engine.vehicle.id}`);
  const mine = (await (await answer).json()) as FuelEconomy;
  const section = page.getByRole('dialog', { name: `Vehicle ${engine.vehicle.unitNumber}` }).getByTestId('asset-fuel-economy');
  await expect(section).toContainText(`${mpg(mine.rows[0]!.economy!.lPer100Km)} mpg`);
  await expect(section).toContainText('Engine fuel counter');
  await expect(section).toContainText('0 h 06 m · 1 idling');
  await section.scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'fuel-economy-vehicle');

  // A vehicle that never reported: no fuel data.
  const fresh = await (await officeApi(request)).vehicle();
  await page.goto(`${ORG}/vehicles?open=${fresh.id}`);
  const empty = page.getByRole('dialog', { name: `Vehicle ${fresh.unitNumber}` });
  await expect(empty.getByText('No fuel data')).toBeVisible();
  await empty.getByText('No fuel data').scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'fuel-economy-vehicle-empty');

  // The engine truck's driver on their scorecard (the rolling 4 weeks).
  const own = fuelAnswer(page, `driverId=${engine.driver.id}`);
  await page.goto(`/safety/scores/drivers/${engine.driver.id}`);
  const theirs = (await (await own).json()) as FuelEconomy;
  const card = page.getByTestId('score-fuel');
  await expect(card).toContainText(`${mpg(theirs.rows[0]!.economy!.lPer100Km)} mpg`);
  await expect(card).toContainText('Fuel from the engine counter');
  await expect(card).toContainText(`Fleet median${mpg(theirs.median.lPer100Km!)} mpg`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'fuel-economy-scorecard');
});

/** A calendar day `n` days from today (UTC), to ask wide of the organization's today. */
function day(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}
