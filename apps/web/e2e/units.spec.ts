import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, freshVin, login, ORG, uniq } from './registry-helpers.ts';

/** The demo organization through the API, as the demo admin: what the screens saved, in metric. */
async function apiAs(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/authenticate', { data: ADMIN });
  expect(res.ok()).toBe(true);
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const org = `/api/v1/organizations/${user.organization.id}`;
  return {
    asset: async (unit: string) => {
      const page = await (await request.get(`${org}/assets?search=${encodeURIComponent(unit)}`, { headers })).json();
      expect(page.content).toHaveLength(1);
      return page.content[0] as { odometerKm: number | null; lengthM: number | null; make: string | null };
    },
    units: async () => ((await (await request.get(`${org}/settings`, { headers })).json()) as { units: string }).units,
    setUnits: async (units: 'IMPERIAL' | 'METRIC') => {
      const settings = await (await request.get(`${org}/settings`, { headers })).json();
      expect((await request.put(`${org}/settings`, { headers, data: { ...settings, units } })).ok()).toBe(true);
    },
  };
}

/**
 * Goes to `path` inside the running app, as a link would: no reload, so every screen works from what
 * the app already holds (a reload would fetch everything again and hide a stale copy).
 */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Picks the unit system on the organization account page and saves it. */
async function chooseUnits(page: Page, label: 'Imperial (mi, gal)' | 'Metric (km, L)') {
  await navigateInApp(page, `${ORG}/organization-account`);
  const settings = page.getByRole('form', { name: 'Organization settings' });
  await settings.getByText(label).click();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
}

/** Opens a vehicle's detail from the side menu: no reload, so the screens use what the app already holds. */
async function openVehicle(page: Page, unit: string) {
  await page.getByRole('navigation').getByRole('link', { name: 'Vehicles', exact: true }).click();
  await page.getByLabel('Search Vehicles').fill(unit);
  await page.getByRole('row', { name: new RegExp(unit) }).click();
  return page.getByRole('dialog', { name: `Vehicle ${unit}` });
}

test('odometers and trailer lengths follow the organization units on screen and are saved metric', async ({ page, request }) => {
  const api = await apiAs(request);
  expect(await api.units()).toBe('IMPERIAL'); // the demo organization's default
  const unit = `UNITS-${uniq()}`;
  const trailer = `UT-${uniq()}`;
  await login(page, ADMIN);
  try {
    // Imperial: the odometer is typed in miles and stored in km (250,000 mi = 402,336 km).
    await page.goto(`${ORG}/vehicle-add`);
    const form = page.getByRole('form', { name: 'Vehicle form' });
    await form.getByLabel('Unit number').fill(unit);
    await form.getByRole('textbox', { name: 'VIN' }).fill(freshVin());
    await form.getByLabel('Odometer (mi)').fill('250000');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect((await api.asset(unit)).odometerKm).toBe(402336);
    await page.getByLabel('Search Vehicles').fill(unit);
    await page.getByRole('row', { name: new RegExp(unit) }).click();
    let detail = page.getByRole('dialog', { name: `Vehicle ${unit}` });
    await expect(detail.getByText('250,000 mi')).toBeVisible();
    await expect(detail.getByText(/ km\b/)).toHaveCount(0);

    // A trailer's length in feet (53 ft = 16.15 m).
    await page.goto(`${ORG}/trailers?addTrailer=true`);
    const trailerForm = page.getByRole('form', { name: 'Trailer form' });
    await trailerForm.getByLabel('Unit number').fill(trailer);
    await trailerForm.getByLabel('Length (ft)').fill('53');
    await trailerForm.getByRole('button', { name: 'Save' }).click();
    await expect(trailerForm).toBeHidden();
    expect((await api.asset(trailer)).lengthM).toBe(16.15);
    await page.getByRole('row', { name: new RegExp(trailer) }).click();
    await expect(page.getByRole('dialog', { name: `Trailer ${trailer}` }).getByText('53 ft')).toBeVisible();
    await page.keyboard.press('Escape');

    // Metric: the same vehicle reads in km at once (no reload), and the form asks for km.
    await chooseUnits(page, 'Metric (km, L)');
    detail = await openVehicle(page, unit);
    await expect(detail.getByText('402,336 km')).toBeVisible();
    await detail.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('Odometer (km)')).toHaveValue('402336');
    await form.getByLabel('Odometer (km)').fill('100');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect((await api.asset(unit)).odometerKm).toBe(100);

    // Back to Imperial: 100 km shows as 62.1 mi; saving another field leaves the odometer exactly
    // as it was (62.1 mi typed back would be 99.9 km).
    await chooseUnits(page, 'Imperial (mi, gal)');
    detail = await openVehicle(page, unit);
    await expect(detail.getByText('62.1 mi')).toBeVisible();
    await detail.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('Odometer (mi)')).toHaveValue('62.1');
    await form.getByLabel('Make').fill('Peterbilt');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect(await api.asset(unit)).toMatchObject({ make: 'Peterbilt', odometerKm: 100 });
  } finally {
    // Other browser tests read speeds in mph: leave the demo organization Imperial whatever happened.
    await api.setUnits('IMPERIAL');
  }
});
