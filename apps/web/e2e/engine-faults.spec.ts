import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { ADMIN, login, ORG, signIn } from './registry-helpers.ts';

// Issue 46 (decision 0191): a truck's device reports engine fault codes through Traccar's forwarding;
// the vehicle's page lists the active and cleared ones with their standard words and times in the
// user's zone, and one click makes a fault a defect. The organization's grounding codes are set on
// the maintenance settings screen.

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 900 } });

const SHOTS = process.env.E2E_SHOTS_DIR;

/** A fresh truck with a tracker paired, the organization's forwarding token, and a way to forward what the tracker says. */
async function faultyTruck(request: APIRequestContext) {
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  const uniqueId = `86${Date.now()}${Math.floor(Math.random() * 10)}`.slice(0, 15);
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `FMC ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  expect((await request.post(`${office.org}/gateways/${(await gw.json()).id}/pair/${vehicle.id}`, { headers: office.headers })).ok()).toBe(true);
  const tokenRes = await request.post(`${office.org}/ingest-token`, { headers: office.headers });
  expect(tokenRes.ok()).toBe(true);
  const { token } = (await tokenRes.json()) as { token: string };
  const forward = async (secondsAgo: number, attributes: Record<string, unknown>) => {
    const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
    const res = await request.post('/api/v1/ingest/traccar', {
      headers: { authorization: token },
      data: {
        position: {
          protocol: 'teltonika',
          fixTime: at,
          valid: true,
          latitude: 41.8781,
          longitude: -87.6298,
          altitude: 180,
          speed: 0,
          course: 90,
          accuracy: 0,
          attributes,
        },
        device: { id: 9, name: 'FMC', uniqueId, status: 'online' },
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  return { office, vehicle, forward };
}

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.getByTestId('engine-faults').screenshot({ path: `${SHOTS}/${name}.png` });
}

test('the vehicle page lists active and cleared engine faults, and a fault becomes a defect in one click', async ({ page, request }) => {
  const { office, vehicle, forward } = await faultyTruck(request);
  // The coolant runs hot and cylinder 1 misfires; then the misfire is gone from the device's list.
  // Fixes a few seconds ahead: none may predate the tracker's pairing (it would belong to no vehicle).
  await forward(-2, { ignition: true, dtcs: 'P0301 SPN 110 FMI 16' });
  await forward(-4, { ignition: true, dtcs: 'SPN 110 FMI 16' });
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`${office.org}/assets/${vehicle.id}/engine-faults?status=CLEARED`, { headers: office.headers })).json()) as {
            totalElements: number;
          }
        ).totalElements,
    )
    .toBe(1);

  // The dark theme needs the organization's flag (as a11y.spec.ts sets it) for the dark look below.
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' })));
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
  const detail = page.getByRole('dialog', { name: `Vehicle ${vehicle.unitNumber}` });
  await expect(detail.getByRole('heading', { name: 'Engine faults' })).toBeVisible();
  const section = detail.getByTestId('engine-faults');
  const hot = section.getByTestId('engine-fault').filter({ hasText: 'SPN 110 FMI 16' });
  await expect(hot).toBeVisible();
  await expect(hot.getByText('Engine coolant temperature: data valid but above normal operating range (moderately severe)')).toBeVisible();
  // Times in the user's zone (the demo organization's Chicago), not the browser's (Tokyo).
  await expect(hot.getByText(/First seen \d\d\/\d\d\/\d\d \d{1,2}:\d\d [AP]M C[SD]T · last seen/)).toBeVisible();
  await expect(section.getByText('P0301')).toHaveCount(0);
  await hot.scrollIntoViewIfNeeded();
  await shoot(page, 'faults-light-desktop');

  // One click: the defect is opened, and the vehicle's open defects show it.
  await hot.getByRole('button', { name: 'Create defect' }).click();
  await expect(page.getByText('Defect opened for SPN 110 FMI 16')).toBeVisible();
  await expect(hot.getByRole('link', { name: 'Defect opened' })).toBeVisible();
  await expect(hot.getByRole('button', { name: 'Create defect' })).toHaveCount(0);
  await expect(detail.getByText('Engine fault SPN 110 FMI 16')).toBeVisible();
  const defects = (await (await request.get(`${office.org}/defects?assetId=${vehicle.id}`, { headers: office.headers })).json()) as {
    content: Array<{ label: string; dvirId: string | null }>;
  };
  expect(defects.content).toEqual([expect.objectContaining({ label: 'Engine fault SPN 110 FMI 16', dvirId: null })]);

  // The cleared one, with when it cleared.
  await section.getByText('Cleared', { exact: true }).click();
  const misfire = section.getByTestId('engine-fault').filter({ hasText: 'P0301' });
  await expect(misfire).toBeVisible();
  await expect(misfire.getByText('Cylinder 1 misfire detected')).toBeVisible();
  await expect(misfire.getByText(/ · cleared \d\d\/\d\d\/\d\d/)).toBeVisible();

  // Dark, and a phone's width.
  // A user who never picked a theme follows the device's (the organization's default is light).
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await section.getByText('Active', { exact: true }).click();
  await expect(hot).toBeVisible();
  await shoot(page, 'faults-dark-desktop');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(hot).toBeVisible();
  // Nothing wider than the phone.
  expect(await section.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await shoot(page, 'faults-dark-phone');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await shoot(page, 'faults-light-phone');
});

test('a vehicle without faults says so, and a failed load says so with a retry', async ({ page, request }) => {
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  await login(page, ADMIN);
  let fail = true;
  await page.route(`**/assets/${vehicle.id}/engine-faults?**`, (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Something went wrong', technicalMessage: 'test', status: 500, timestamp: new Date().toISOString() }),
        })
      : route.fallback(),
  );
  await page.goto(`${ORG}/vehicles?open=${vehicle.id}`);
  const section = page.getByRole('dialog', { name: `Vehicle ${vehicle.unitNumber}` }).getByTestId('engine-faults');
  await expect(section.getByRole('alert')).toBeVisible();
  fail = false;
  await section.getByRole('button', { name: 'Try again' }).click();
  await expect(section.getByText('No active engine fault')).toBeVisible();
  await shoot(page, 'faults-empty');
  await section.getByText('Cleared', { exact: true }).click();
  await expect(section.getByText('No cleared engine fault')).toBeVisible();
});

test('grounding codes are set beside the inspection items, and a code that is none is refused', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/maintenance/settings');
  const form = page.getByRole('form', { name: 'Grounding codes form' });
  const input = form.getByLabel('Codes');
  await input.fill('coolant');
  await input.press('Enter');
  await form.getByRole('button', { name: 'Save codes' }).click();
  await expect(form.getByRole('alert')).toContainText('"coolant" is not a code');
  // Backspace in the empty field takes the bad one off; then real ones, in the spellings people use.
  await input.press('Backspace');
  const code = `P02${String(10 + Math.floor(Math.random() * 9))}`;
  for (const c of [code, '100/1']) {
    await input.fill(c);
    await input.press('Enter');
  }
  await form.getByRole('button', { name: 'Save codes' }).click();
  await expect(page.getByText('Grounding codes saved')).toBeVisible();
  await expect(form.getByText('SPN 100 FMI 1')).toBeVisible();
  if (SHOTS)
    await page
      .locator('form[aria-label="Grounding codes form"]')
      .locator('xpath=..')
      .screenshot({ path: `${SHOTS}/grounding-codes.png` });
  await page.reload();
  await expect(page.getByRole('form', { name: 'Grounding codes form' }).getByText(code)).toBeVisible();
});
