import { expect, test, type Locator, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { screenshotsLightDark, seriousA11yViolations, signIn } from './helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

// Issue 73: a reefer load's tractor tracker sends the trailer's its return-air and supply-air probes with its fixes
// through the JSON batch for the last three hours: frozen chicken at -18 °C, a defrost that warms the
// return air and does not count, then 35 minutes well out of the band (an excursion). The dispatcher
// reads the load's chart and excursion in °F, sets the shipper's own set point, and names the sensors
// on the trailer's page.

const MIN = 60_000;

/** The card alone (E2E_SHOTS=1), light and dark at desktop width and 375 px wide: the full page's picture is too small to read it. */
async function cardShots(page: Page, card: Locator, name: string) {
  if (!process.env.E2E_SHOTS) return;
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((v) => {
      localStorage.setItem('fleet.colorScheme', v);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await card.screenshot({ path: test.info().outputPath(`${name}-card-${scheme}.png`) });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await card.screenshot({ path: test.info().outputPath(`${name}-card-${scheme}-375.png`) });
    if (size) await page.setViewportSize(size);
  }
}

test('a dispatcher reads a reefer load’s temperatures, its excursion, and sets its set point', async ({ page, request }) => {
  test.setTimeout(240_000);
  const office = await officeApi(request);
  const run = `e2e-reefer-${Date.now().toString(36)}`;
  const t0 = Math.floor((Date.now() - 3 * 3_600_000) / MIN) * MIN;
  const trailer = await request.post(`${office.org}/assets`, {
    headers: office.headers,
    data: { type: 'TRAILER', unitNumber: `R${Date.now().toString(36).slice(-6)}`, trailerType: 'REEFER', lengthM: 16.15 },
  });
  expect(trailer.status(), await trailer.text()).toBe(201);
  const { id: trailerId, unitNumber } = (await trailer.json()) as { id: string; unitNumber: string };
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId: run, name: `Reefer tracker ${run}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const { id: gatewayId, ingestToken } = (await gw.json()) as { id: string; ingestToken: string };
  // The tractor's tracker reads the trailer's probes (BLE): devices pair with vehicles.
  const truck = await office.vehicle();
  const paired = await request.post(`${office.org}/gateways/${gatewayId}/pair/${truck.id}`, {
    headers: office.headers,
    data: { from: new Date(t0 - MIN).toISOString() },
  });
  expect(paired.ok(), await paired.text()).toBe(true);
  const load = await request.post(`${office.org}/loads`, {
    headers: office.headers,
    data: {
      customer: `Polar Foods ${run}`,
      commodity: 'Frozen chicken',
      assetId: truck.id,
      trailerId,
      stops: [
        {
          kind: 'PICKUP',
          latitude: 41.85,
          longitude: -87.65,
          address: '1200 W 35th St, Chicago, IL 60609',
          windowStart: new Date(t0 - 30 * MIN).toISOString(),
          windowEnd: new Date(t0 + 30 * MIN).toISOString(),
          serviceMinutes: 30,
        },
        {
          kind: 'DELIVERY',
          latitude: 39.77,
          longitude: -86.16,
          address: '500 S Meridian St, Indianapolis, IN 46225',
          windowStart: new Date(t0 + 8 * 3_600_000).toISOString(),
          windowEnd: new Date(t0 + 10 * 3_600_000).toISOString(),
          serviceMinutes: 45,
        },
      ],
      rate: { lineHaul: 1800, fuelSurcharge: 120, accessorials: [] },
    },
  });
  expect(load.status(), await load.text()).toBe(201);
  const { id: loadId, number } = (await load.json()) as { id: string; number: string };

  // The supply air is the unit's own output, colder than the band by design: named so, it opens nothing.
  // With roles set, only the return air and the zones are judged (decision 0324), so the return is named too.
  const named = await request.put(`${office.org}/assets/${trailerId}/temperature-sensors`, {
    headers: office.headers,
    data: {
      sensors: [
        { sensor: 'return', role: 'RETURN_AIR' },
        { sensor: 'supply', role: 'SUPPLY_AIR' },
      ],
    },
  });
  expect(named.status(), await named.text()).toBe(200);

  const positions = [];
  for (let m = 0; m <= 175; m += 5) {
    const defrost = m >= 60 && m < 85;
    const warm = m >= 120 && m < 155;
    const ret = defrost ? -6 : warm ? -9 - (m - 120) / 10 : -18 + Math.sin(m / 20) * 0.8;
    positions.push({
      fixTime: new Date(t0 + m * MIN).toISOString(),
      latitude: 41.85 - m * 0.0005,
      longitude: -87.65 + m * 0.0008,
      speed: 80,
      temperatures: [
        { sensor: 'return', celsius: Math.round(ret * 10) / 10, ...(defrost ? { defrost: true } : {}) },
        { sensor: 'supply', celsius: Math.round((ret - 4) * 10) / 10, ...(defrost ? { defrost: true } : {}) },
      ],
    });
  }
  const sent = await request.post('/api/v1/ingest/positions', { headers: { authorization: `Bearer ${ingestToken}` }, data: { positions } });
  expect(sent.status(), await sent.text()).toBe(200);

  await signIn(page, 'admin');
  await page.goto(`/dispatch/loads/${loadId}`);
  const card = page.getByTestId('load-temperatures');
  // The record is read once the page's first calls are answered (a loaded machine takes its time).
  await expect(card.getByRole('heading', { name: 'Reefer temperatures' })).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('temperature-chart')).toBeVisible();
  // One excursion, 35 minutes above the band; the defrost before it is not one.
  const rows = card.getByTestId('excursions').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('return · above range');
  await expect(card.getByText('From the load’s commodity')).toBeVisible();
  // The organization is imperial: -18 °C ± 3 is -0.4 °F ± 5.4.
  await expect(card.getByLabel('Set point (°F)')).toHaveValue('-0.4');
  await expect(card.getByLabel('Tolerance ± (°F)')).toHaveValue('5.4');
  await expect(card.getByLabel('Delay (minutes)')).toHaveValue('15');
  await card.getByTestId('temperature-chart').scrollIntoViewIfNeeded();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'reefer-load');
  await cardShots(page, card, 'reefer-load');

  // A tolerance of nothing is refused in °F, and nothing is saved.
  await card.getByLabel('Tolerance ± (°F)').fill('0');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Tolerance must be between 0.9 and 18 °F')).toBeVisible();
  // The shipper's instructions: 0 °F ± 4, judged after 20 minutes.
  await card.getByLabel('Set point (°F)').fill('0');
  await card.getByLabel('Tolerance ± (°F)').fill('4');
  await card.getByLabel('Delay (minutes)').fill('20');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Set on this load.')).toBeVisible();
  const saved = await request.get(`${office.org}/loads/${loadId}/temperatures`, { headers: office.headers });
  expect(((await saved.json()) as { settings: unknown }).settings).toEqual({ setPointC: -17.78, toleranceC: 2.22, delayMinutes: 20, source: 'LOAD' });

  // The log for the shipper downloads as a PDF named for the load.
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Temperature log (PDF)' }).click();
  expect((await download).suggestedFilename()).toBe(`temperature-log-${number}.pdf`);

  // The trailer's page names its sensors.
  await page.goto(`/settings/organization-settings/trailers?open=${trailerId}`);
  await expect(page.getByRole('dialog').getByText(unitNumber).first()).toBeVisible();
  const section = page.getByTestId('trailer-temperatures');
  await expect(section.getByTestId('temperature-chart')).toBeVisible();
  await expect(section.getByRole('combobox', { name: 'Role supply' })).toHaveValue('supply air');
  await expect(section.getByRole('combobox', { name: 'Role return' })).toHaveValue('return air');
  // The probe moved to the load's front zone.
  await section.getByRole('combobox', { name: 'Role return' }).click();
  await page.getByRole('option', { name: 'zone 1' }).click();
  await section.getByRole('button', { name: 'Save sensors' }).click();
  await expect
    .poll(
      async () =>
        ((await (await request.get(`${office.org}/assets/${trailerId}/temperatures`, { headers: office.headers })).json()) as { sensors: unknown }).sensors,
    )
    .toEqual([
      { sensor: 'return', role: 'ZONE_1' },
      { sensor: 'supply', role: 'SUPPLY_AIR' },
    ]);
  await section.scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'reefer-trailer');
  await cardShots(page, section, 'reefer-trailer');
});
