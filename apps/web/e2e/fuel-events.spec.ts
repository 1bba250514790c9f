import { expect, test, type APIRequestContext } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { seriousA11yViolations, signIn, screenshotsLightDark } from './helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

// Issue 68, part 2: the fuel level screen. A truck's tracker reports its fuel level over OsmAnd for the
// last three hours: parked for the night with the ignition off, 22 % of its tank goes in ten minutes
// (a drop), then the driver buys fuel with cash there (a refuel no card paid for) and later fills up at
// a station on the card (a refuel matched to the card transaction). The fleet manager reads them.

const START = { lat: 41.5251, lon: -88.0817 };
const MIN = 60_000;

/** The card transaction's IFTA purchase goes after this file, as fuel-transactions.spec.ts does (ifta.spec.ts reads the quarter without it). */
let removePurchases: (request: APIRequestContext) => Promise<void> = async () => undefined;
test.afterEach(async ({ request }) => removePurchases(request));

interface Leg {
  minutes: number;
  /** knots, as Traccar Client sends. */
  knots: number;
  ignition: boolean;
  level: (i: number) => number;
}

test('a fleet manager reads the drops and the refuels no card paid for, beside the card transactions', async ({ page, request }) => {
  const office = await officeApi(request);
  const truck = await office.vehicle();
  const run = `e2e-fuel-level-${Date.now().toString(36)}`;
  const t0 = Math.floor((Date.now() - 3 * 3_600_000) / MIN) * MIN;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId: run, name: `Tracker ${run}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  // Paired from three hours ago: what it sends of that time is the truck's.
  const paired = await request.post(`${office.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${truck.id}`, {
    headers: office.headers,
    data: { from: new Date(t0).toISOString() },
  });
  expect(paired.ok(), await paired.text()).toBe(true);

  const legs: Leg[] = [
    { minutes: 10, knots: 50, ignition: true, level: (i) => 70 + 6 * Math.sin(i * 2.3) },
    // The night's stop: steady, then 22 % gone in ten minutes with the ignition off, then steady.
    { minutes: 25, knots: 0, ignition: false, level: () => 70 },
    { minutes: 10, knots: 0, ignition: false, level: (i) => 70 - 2.2 * (i + 1) },
    { minutes: 30, knots: 0, ignition: false, level: () => 48 },
    // Cash at the truck stop: 48 % to 65 %.
    { minutes: 6, knots: 0, ignition: true, level: (i) => 48 + 3 * (i + 1) },
    { minutes: 10, knots: 0, ignition: true, level: () => 65 },
    { minutes: 15, knots: 55, ignition: true, level: (i) => 64 + 6 * Math.cos(i * 1.7) },
    // A fuel station, on the card: 63 % to 95 %.
    { minutes: 4, knots: 0, ignition: true, level: () => 63 },
    { minutes: 8, knots: 0, ignition: true, level: (i) => 63 + 4 * (i + 1) },
    { minutes: 12, knots: 0, ignition: true, level: () => 95 },
    { minutes: 10, knots: 55, ignition: true, level: (i) => 94 + 6 * Math.sin(i) },
  ];
  let at = t0;
  let lat = START.lat;
  let pump: { t: number; lat: number } | null = null;
  for (const [k, leg] of legs.entries()) {
    for (let i = 0; i < leg.minutes; i++) {
      at += MIN;
      lat += (leg.knots * 1.852) / 60 / 111.32;
      if (k === 8 && i === 4) pump = { t: at, lat };
      const q = new URLSearchParams({
        id: run,
        timestamp: String(at / 1000),
        lat: lat.toFixed(6),
        lon: String(START.lon),
        speed: String(leg.knots),
        ignition: String(leg.ignition),
        fuelLevel: leg.level(i).toFixed(1),
      });
      const r = await request.get(`/api/v1/ingest/osmand?${q}`);
      expect(r.status(), `${q.toString()}: ${await r.text()}`).toBe(200);
    }
  }
  // The station's card transaction, at the pump.
  const txId = `${run.toUpperCase()}-CARD`;
  removePurchases = async (request) => {
    const res = await request.get(`${office.org}/fuel-transactions?search=${txId}&size=10`, { headers: office.headers });
    for (const { purchaseId } of ((await res.json()) as { content: Array<{ purchaseId: string | null }> }).content) {
      if (!purchaseId) continue;
      const gone = await request.delete(`${office.org}/ifta/fuel-purchases/${purchaseId}`, { headers: office.headers });
      expect([204, 404], await gone.text()).toContain(gone.status());
    }
  };
  const posted = await request.post(`${office.org}/fuel-transactions`, {
    headers: office.headers,
    data: {
      transactions: [
        {
          transactionId: txId,
          unitNumber: truck.unitNumber,
          time: new Date(pump!.t).toISOString(),
          latitude: pump!.lat,
          longitude: START.lon,
          merchant: 'Pilot 1021',
          city: 'Joliet',
          state: 'IL',
          fuelType: 'DIESEL',
          quantity: 96,
          unit: 'GAL',
        },
      ],
    },
  });
  expect(posted.status(), await posted.text()).toBe(200);
  // The follower works behind ingest: the three events, the card transaction matched to its refuel.
  await expect
    .poll(async () => {
      const res = await request.get(`${office.org}/fuel-events?search=${truck.unitNumber}&sort=startedAt,asc`, { headers: office.headers });
      return ((await res.json()) as { content: Array<{ type: string; purchase: { transactionId: string } | null }> }).content.map(
        (e) => `${e.type} ${e.purchase?.transactionId ?? '-'}`,
      );
    })
    .toEqual(['DROP -', 'REFUEL -', `REFUEL ${txId}`]);

  await signIn(page, 'admin');
  await page.goto(`/fuel-transactions?view=ALL&search=${txId}`);
  await expect(page.getByRole('heading', { name: 'Fuel transactions', level: 1 })).toBeVisible();
  // Verified by the refuel: the reason says how much the level rose.
  await expect(
    page.getByText(/^The truck was \d+ ft from the station within ±15 min of the time \(within 490 ft\); its fuel level rose by 96(\.0)? gal$/),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Fuel level' }).click();
  await expect(page).toHaveURL(/\/fuel-events$/);
  await expect(page.getByRole('heading', { name: 'Fuel level', level: 1 })).toBeVisible();

  // The drops first: this truck's, with the ignition off, in the organization's gallons.
  await page.getByPlaceholder('Unit number').fill(truck.unitNumber);
  const table = page.getByRole('table', { name: 'Fuel level events' });
  await expect(page.getByRole('radio', { name: /^Drops \(1\)$/ })).toBeChecked();
  const drop = table.getByRole('row').filter({ hasText: truck.unitNumber });
  await expect(drop).toHaveCount(1);
  await expect(drop).toContainText('Ignition off');
  await expect(drop).toContainText('70 % → 48 %');
  await expect(drop.getByText(/^−66(\.0)? gal$/)).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'fuel-events-drops');

  // The refuel no card paid for.
  await page.getByText(/^Refuels without a card purchase \(1\)$/).click();
  await expect(page.getByRole('radio', { name: /^Refuels without a card purchase/ })).toBeChecked();
  await expect(table.getByRole('row').filter({ hasText: truck.unitNumber })).toHaveCount(1);
  await expect(table.getByText('None: cash or another card')).toBeVisible();
  await expect(table.getByText('48 % → 65 %')).toBeVisible();
  // Every refuel: the station's with its card transaction, which opens it.
  await page.getByText(/^All refuels \(2\)$/).click();
  await expect(table.getByRole('row').filter({ hasText: truck.unitNumber })).toHaveCount(2);
  await expect(table.getByText('63 % → 95 %')).toBeVisible();
  await screenshotsLightDark(page, 'fuel-events-refuels');
  await table.getByRole('link', { name: txId }).click();
  await expect(page).toHaveURL(/\/fuel-transactions\?view=ALL&search=/);
  // The transaction's own row (the search holds its id): the truck and the reason.
  const txTable = page.getByRole('table', { name: 'Fuel transactions' });
  await expect(txTable.getByRole('row').filter({ hasText: truck.unitNumber })).toHaveCount(1);
  await expect(txTable.getByText(/its fuel level rose by 96(\.0)? gal$/)).toBeVisible();

  // A truck without a sensor (a notification's link names the truck): the empty state says what a drop is.
  const quiet = await office.vehicle();
  await page.goto(`/fuel-events?vehicleId=${quiet.id}`);
  await expect(page.getByText('One truck')).toBeVisible();
  await expect(page.getByText('No drops')).toBeVisible();
  await expect(page.getByText(/fell 5 % of its tank within 30 minutes/)).toBeVisible();
  await page.getByRole('button', { name: 'Show every truck' }).click();
  await expect(page).toHaveURL(/\/fuel-events$/);

  // The drop was told at once to those who may read fuel (the administrator), as a notification.
  const bell = await request.get(`${office.org}/notifications?kind=FUEL_DROP&size=50`, { headers: office.headers });
  const titles = ((await bell.json()) as { content: Array<{ title: string }> }).content.map((n) => n.title);
  expect(titles).toContain(`Vehicle ${truck.unitNumber}: fuel level dropped 22 % of the tank`);
});
