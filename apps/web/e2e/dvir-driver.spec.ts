import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DVIR_ITEMS } from '@fleet/api-contract/maintenance';
import { driverLogin, officeApi, periodsUntil, type DriverAccount } from './driver-helpers.ts';
import { seriousA11yViolations } from './helpers.ts';

// The driver's vehicle inspection (issue 31) on a 375 px phone: a post-trip with a defect, a photo and
// a drawn signature, read-only once signed, recorded as On duty on the driver's word; the warning for
// an open safety defect; the review of a repair certification; the roadside view's reports.

test.use({
  viewport: { width: 375, height: 812 },
  hasTouch: true,
  isMobile: true,
  geolocation: { latitude: 41.8781, longitude: -87.6298 },
  permissions: ['geolocation'],
});

// A 1x1 PNG: the photo of a defect.
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);

/** A driver off duty for the last 10 hours with a truck of their own assigned. */
async function driverWithTruck(request: APIRequestContext) {
  const api = await officeApi(request);
  const me = await api.driverAccount();
  const truck = await api.vehicle();
  await api.assign(truck.id, me.driver.id);
  await api.importPeriods(me.driver.id, periodsUntil(Date.now() - 60_000, [['OFF', 10]]));
  return { api, me, truck };
}

/** The driver's own API session (what the phone does), for reports made in the test's setup. */
async function asDriver(request: APIRequestContext, a: DriverAccount, org: string) {
  const res = await request.post('/api/v1/auth/authenticate', { data: { email: a.email, password: a.password } });
  expect(res.ok()).toBe(true);
  const headers = { authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}` };
  return {
    async report(assetId: string, defect: { item: string; note: string; safety: boolean }) {
      const items = DVIR_ITEMS.map((i) =>
        i.code === defect.item ? { item: i.code, ok: false, note: defect.note, safety: defect.safety } : { item: i.code, ok: true },
      );
      const r = await request.post(`${org}/dvirs`, { headers, data: { assetId, kind: 'POST_TRIP', items, signature: { name: 'Earlier Driver' } } });
      expect(r.status(), await r.text()).toBe(201);
      return (await r.json()) as { id: string; defects: Array<{ id: string }> };
    },
  };
}

async function drawSignature(page: Page, testId: string) {
  const pad = page.getByTestId(testId);
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let x = 20; x <= 200; x += 20) await page.mouse.move(box.x + x, box.y + box.height / 2 + (x % 40 === 0 ? 25 : -25));
  await page.mouse.up();
}

test('a driver records a post-trip with a photographed defect and a drawn signature, then records it as On duty', async ({ page, request }) => {
  const { api, me, truck } = await driverWithTruck(request);
  await driverLogin(page, me);
  const card = page.getByTestId('inspection-card');
  await expect(card.getByText('No inspection report yet for this vehicle.')).toBeVisible();
  await card.getByRole('button', { name: 'Start post-trip' }).click();

  const form = page.getByTestId('dvir-form');
  const progress = form.getByTestId('dvir-progress');
  await expect(progress).toHaveText(`0 of ${DVIR_ITEMS.length} checked`);
  const lights = form.getByRole('group', { name: 'Lighting devices and reflectors' });
  await lights.getByRole('button', { name: 'Defect' }).click();
  await expect(lights.getByRole('button', { name: 'Defect' })).toHaveAttribute('aria-pressed', 'true');
  // Big touch targets.
  expect((await lights.getByRole('button', { name: 'Defect' }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
  // Off until the driver says so: a cosmetic defect must not ground the truck.
  const safety = lights.getByRole('switch', { name: /Affects safe operation/ });
  await expect(safety).not.toBeChecked();
  await safety.check();
  await expect(safety).toBeChecked();
  await lights.locator('input[type="file"]').setInputFiles({ name: 'lamp.png', mimeType: 'image/png', buffer: PNG });
  await expect(lights.getByRole('img', { name: 'Photo 1 of Lighting devices and reflectors' })).toBeVisible();
  await form.getByRole('button', { name: 'Rest pass' }).click();
  await expect(progress).toHaveText(`${DVIR_ITEMS.length} of ${DVIR_ITEMS.length} checked`);

  // A defect needs its note; the form says so on the item and sends nothing.
  await drawSignature(page, 'dvir-signature-pad');
  await form.getByRole('button', { name: 'Sign report' }).click();
  await expect(lights.getByText('Describe the defect')).toBeVisible();
  await lights.getByLabel('What is wrong').fill('Left rear marker lamp out');

  // The server's 400 names a field: shown under it.
  await page.route('**/dvirs', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          json: {
            message: 'Odometer must be 0 or more',
            technicalMessage: 'odometer: Odometer must be 0 or more',
            status: 400,
            timestamp: new Date().toISOString(),
          },
        })
      : route.fallback(),
  );
  await form.getByRole('button', { name: 'Sign report' }).click();
  await expect(form.getByText('Odometer must be 0 or more').first()).toBeVisible();
  await expect(form.getByLabel(/Odometer/)).toHaveAttribute('aria-invalid', 'true');
  await page.unroute('**/dvirs');

  await form.getByRole('button', { name: 'Sign report' }).click();
  const signed = page.getByTestId('signed-report');
  await expect(signed.getByText('Report signed')).toBeVisible();
  // Read-only: the report as stored, with the defect, its photo and the drawn signature; no inputs.
  const report = signed.getByTestId('dvir-report');
  await expect(report.getByTestId('dvir-defect')).toContainText('Lighting devices and reflectors');
  await expect(report.getByTestId('dvir-defect')).toContainText('Left rear marker lamp out');
  await expect(report.getByTestId('dvir-defect').getByTestId('defect-status')).toHaveText('Open');
  await expect(report.getByRole('img', { name: 'Photo 1 of Lighting devices and reflectors' })).toBeVisible();
  await expect(report.getByTestId('signature-image')).toBeVisible();
  await expect(report.locator('input, textarea, canvas')).toHaveCount(0);
  await expect(page.getByTestId('unsafe-alert')).toContainText('Left rear marker lamp out');

  // Off duty now: On duty is offered, never set on its own.
  const status = page.getByTestId('current-status');
  await expect(status).toHaveText('Off duty');
  await signed.getByRole('button', { name: 'Change to On duty (inspection)' }).click();
  await expect(status).toHaveText('On duty');
  await expect(page.getByTestId('on-duty-offer')).toHaveCount(0);
  const day = await request.get(`${api.org}/drivers/${me.driver.id}/hos_log/current-day`, { headers: api.headers });
  const events = ((await day.json()) as { events: Array<{ status: string | null; annotation: string | null; recordStatus: string }> }).events;
  expect(events.some((e) => e.status === 'ON' && e.annotation === 'Post-trip inspection' && e.recordStatus === 'ACTIVE')).toBe(true);

  // The roadside view lists the vehicle's report.
  await page.goto('/driver/inspection');
  const reports = page.getByTestId('vehicle-reports');
  await expect(reports).toContainText(`${truck.unitNumber}, the last 8 days: 1 report`);
  await expect(reports.getByTestId('dvir-report')).toContainText('Post-trip');
  await expect(reports.getByTestId('dvir-defect')).toContainText('Left rear marker lamp out');
});

test('an open safety defect warns the driver; once its repair is certified the driver signs the review', async ({ page, request }) => {
  const { api, me, truck } = await driverWithTruck(request);
  const driver = await asDriver(request, me, api.org);
  const dvir = await driver.report(truck.id, { item: 'SERVICE_BRAKES', note: 'Air leak at the rear axle', safety: true });

  await driverLogin(page, me);
  const card = page.getByTestId('inspection-card');
  await expect(card.getByTestId('unsafe-alert')).toContainText(`Do not drive ${truck.unitNumber}`);
  await expect(card.getByTestId('unsafe-alert')).toContainText('Air leak at the rear axle');
  await expect(card.getByTestId('last-report')).toContainText('Service brakes, including trailer brake connections: Open');
  await expect(card.getByTestId('review-prompt')).toHaveCount(0);

  // The truck starts to move (Driving comes from its motion): the driver is asked to acknowledge the defect by name.
  const uniqueId = `e2e-dvir-${Date.now().toString(36)}`;
  const gw = await request.post(`${api.org}/gateways`, { headers: api.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const paired = await request.post(`${api.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${truck.id}`, { headers: api.headers });
  expect(paired.ok(), await paired.text()).toBe(true);
  const start = Date.now() + 2_000;
  for (let s = 0; s <= 40; s += 20) {
    const r = await request.get(
      `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor((start + s * 1000) / 1000)}&lat=41.6&lon=${(-88 + s * 0.006).toFixed(5)}&speed=${(90 / 1.852).toFixed(2)}`,
    );
    expect(r.status()).toBe(200);
  }
  await page.reload();
  const warning = page.getByRole('dialog', { name: `${truck.unitNumber} has an open safety defect` });
  await expect(warning).toContainText('Service brakes, including trailer brake connections: Air leak at the rear axle');
  await warning.getByRole('button', { name: 'I understand' }).click();
  await expect(warning).toBeHidden();

  // The mechanic certifies the repair (the office's screen is another spec's).
  const cert = await request.put(`${api.org}/defects/${dvir.defects[0]!.id}`, {
    headers: api.headers,
    data: { status: 'REPAIRED', certification: 'Replaced the air line', signature: { name: 'Sam Mechanic' } },
  });
  expect(cert.status(), await cert.text()).toBe(200);
  await page.reload();
  await expect(card.getByTestId('unsafe-alert')).toHaveCount(0);
  const prompt = card.getByTestId('review-prompt');
  await expect(prompt).toContainText('Repaired');
  await expect(prompt).toContainText('Certified by Sam Mechanic');
  await expect(prompt).toContainText('Replaced the air line');
  await prompt.locator('label', { hasText: /^Type$/ }).click();
  await expect(prompt.getByTestId(`review-${dvir.id}-typed`)).toHaveText(`${me.driver.firstName} ${me.driver.lastName}`);
  await prompt.getByRole('button', { name: 'I reviewed the repair certification' }).click();
  await expect(card.getByTestId('review-prompt')).toHaveCount(0);
  await card.getByRole('button', { name: 'Read the report' }).click();
  await expect(card.getByTestId('dvir-review')).toContainText(`Repair certification reviewed by ${me.driver.firstName} ${me.driver.lastName}`);
});

test.describe('accessibility', () => {
  // axe is injected as a script tag, which the app's CSP would block.
  test.use({ bypassCSP: true, colorScheme: 'dark' });

  test('the review prompt, the inspection form, the signed report and the roadside reports are axe-clean in the dark theme on a phone', async ({
    page,
    request,
  }) => {
    const { api, me, truck } = await driverWithTruck(request);
    const dvir = await (await asDriver(request, me, api.org)).report(truck.id, { item: 'TIRES', note: 'Cut in the sidewall', safety: true });
    expect(
      (
        await request.put(`${api.org}/defects/${dvir.defects[0]!.id}`, {
          headers: api.headers,
          data: { status: 'REPAIRED', certification: 'Replaced the tire', signature: { name: 'Sam Mechanic' } },
        })
      ).status(),
    ).toBe(200);
    await driverLogin(page, me);
    const card = page.getByTestId('inspection-card');
    await expect(card.getByTestId('review-prompt')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Start pre-trip' }).click();
    const horn = page.getByRole('group', { name: 'Horn' });
    await horn.getByRole('button', { name: 'Defect' }).click();
    await horn.getByLabel('What is wrong').fill('Horn does not sound');
    await page.getByRole('button', { name: 'Rest pass' }).click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page
      .getByTestId('dvir-form')
      .locator('label', { hasText: /^Type$/ })
      .click();
    await page.getByRole('button', { name: 'Sign report' }).click();
    await expect(page.getByTestId('signed-report')).toBeVisible();
    await expect(page.getByTestId('signed-report').getByTestId('signature-typed')).toHaveText(`${me.driver.firstName} ${me.driver.lastName}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goto('/driver/inspection');
    await expect(page.getByTestId('vehicle-reports').getByTestId('dvir-report').first()).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
