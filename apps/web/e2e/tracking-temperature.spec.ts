import { expect, test } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { screenshotsLightDark, seriousA11yViolations } from './helpers.ts';
import { ADMIN, ORG, signIn } from './registry-helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

// Issue 73, decision 0325: a running reefer load's tracking link shows its temperature only when the
// dispatcher ticks "Show the reefer temperature" as the link is made. The customer's page then shows
// the return air's latest reading in the carrier's units (°F), the set point band, "In range" and the
// last hours' line; the link's row says the temperature is shown. The trailer's reefer section says
// which sensors open excursions (decision 0324).

const MIN = 60_000;

test('a load’s tracking link made with the temperature shows it to the customer', async ({ page, request }) => {
  test.setTimeout(240_000);
  const office = await officeApi(request);
  const run = `e2e-cold-${Date.now().toString(36)}`;
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
  const truck = await office.vehicle();
  const paired = await request.post(`${office.org}/gateways/${gatewayId}/pair/${truck.id}`, {
    headers: office.headers,
    data: { from: new Date(t0 - MIN).toISOString() },
  });
  expect(paired.ok(), await paired.text()).toBe(true);
  const driver = await request.post(`${office.org}/drivers`, {
    headers: office.headers,
    data: { firstName: 'Cole', lastName: `Frost${Date.now().toString(36)}`, licenseNumber: `F${Date.now().toString(36).toUpperCase()}`, licenseState: 'IL' },
  });
  expect(driver.status(), await driver.text()).toBe(201);
  const { id: driverId } = (await driver.json()) as { id: string };
  const made = await request.post(`${office.org}/loads`, {
    headers: office.headers,
    data: {
      customer: `Polar Foods ${run}`,
      commodity: 'Frozen chicken',
      assetId: truck.id,
      driverIds: [driverId],
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
  expect(made.status(), await made.text()).toBe(201);
  const load = (await made.json()) as { id: string; number: string; stops: Array<{ id: string }> };
  for (const [event, at] of [
    ['ARRIVE', t0 - 20 * MIN],
    ['DEPART', t0],
  ] as const) {
    const r = await request.post(`${office.org}/loads/${load.id}/stops/${load.stops[0]!.id}/status`, {
      headers: office.headers,
      data: { event, at: new Date(at).toISOString() },
    });
    expect(r.ok(), await r.text()).toBe(true);
  }
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
    const ret = Math.round((-18 + Math.sin(m / 20) * 0.8) * 10) / 10;
    positions.push({
      fixTime: new Date(t0 + m * MIN).toISOString(),
      latitude: 41.85 - m * 0.0005,
      longitude: -87.65 + m * 0.0008,
      speed: 80,
      temperatures: [
        { sensor: 'return', celsius: ret },
        { sensor: 'supply', celsius: Math.round((ret - 4) * 10) / 10 },
      ],
    });
  }
  const sent = await request.post('/api/v1/ingest/positions', { headers: { authorization: `Bearer ${ingestToken}` }, data: { positions } });
  expect(sent.status(), await sent.text()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto(`/dispatch/loads/${load.id}`);
  await page.getByRole('button', { name: 'Share tracking' }).click();
  const dialog = page.getByRole('dialog', { name: `Share tracking of load ${load.number}` });
  const label = `Receiver ${run}`;
  await dialog.getByLabel('Label').fill(label);
  const choice = dialog.getByRole('checkbox', { name: 'Show the reefer temperature' });
  await expect(choice).not.toBeChecked();
  await choice.check();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByTestId('new-share-link').getByRole('textbox', { name: 'Tracking link' }).inputValue();
  await expect(dialog.getByTestId('share-link-row').filter({ hasText: label })).toContainText('Temperature shown');
  await screenshotsLightDark(page, 'share-with-temperature');

  await page.goto(new URL(url).pathname);
  const card = page.getByTestId('track-temperature');
  // The organization is imperial: -18 °C ± 3 is -0.4 °F ± 5.4.
  await expect(card).toContainText('Set point -0.4 °F ± 5.4 °F');
  await expect(card).toContainText('In range');
  await expect(card.getByRole('img', { name: 'Temperature of the last 6 hours, with the set point band' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshotsLightDark(page, 'track-temperature');

  await page.goto(`${ORG}/trailers?open=${trailerId}`);
  await expect(page.getByRole('dialog').getByText(unitNumber).first()).toBeVisible();
  await expect(page.getByTestId('sensor-counts-hint')).toHaveText(
    'Only return air and zone sensors open excursions; supply air and sensors without a role are charted only.',
  );
  await page.getByTestId('sensor-counts-hint').scrollIntoViewIfNeeded();
  await screenshotsLightDark(page, 'trailer-sensor-hint');
});
