import { expect, test, type Page } from '@playwright/test';
import { officeApi } from './driver-helpers.ts';
import { expectLastColumnShown, signIn } from './helpers.ts';

// Issue 32's screens as a dispatcher uses them: a place drawn on the map and found in the list and
// on its own page, a report narrowed by its filters against the demo data, and a scheduled report
// created, listed and deleted. One sign-in per test; the rest of each screen is covered by the a11y
// and units walks.

/** Draws a circle on the places map: click the centre, move out, click the edge. */
async function drawCircle(page: Page) {
  // The hint shows the mode the form asked for; the map says when its drawing has taken it.
  await expect(page.getByTestId('place-map')).toHaveAttribute('data-draw-mode', 'circle');
  const map = page.getByTestId('place-map').locator('canvas');
  await expect(map).toBeVisible();
  const box = (await map.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.click(x, y);
  await page.mouse.move(x + 30, y, { steps: 4 });
  await page.mouse.move(x + 60, y, { steps: 4 });
  await page.mouse.click(x + 60, y);
}

test('a place drawn on the map is saved, listed and has its own page', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/places');
  await page.getByRole('button', { name: 'Add place' }).click();
  await page.getByRole('menuitem', { name: 'Draw a circle' }).click();
  const form = page.getByRole('form', { name: 'Place form' });
  await expect(form.getByTestId('draw-hint')).toContainText('Click the centre');

  // Saving without a shape or a name names both problems.
  await form.getByRole('button', { name: 'Save place' }).click();
  await expect(form.getByText('Draw the place on the map, or click a point for a circle')).toBeVisible();
  await expect(form.getByText('Name is a required field')).toBeVisible();

  await drawCircle(page);
  // The drawn circle reads back as a centre and a radius in the organization's units (feet).
  await expect(form.getByLabel('Latitude')).not.toHaveValue('');
  await expect(form.getByLabel('Radius (ft)')).not.toHaveValue('');
  await expect(form.getByText('Draw the place on the map, or click a point for a circle')).toBeHidden();
  // Typing the radius redraws the circle (the keyboard's way to size it).
  await form.getByLabel('Radius (ft)').fill('800');
  await form.getByLabel('Name').fill('E2E Cross Dock');
  await form.getByLabel('Category').selectOption('TERMINAL');
  await form.getByRole('button', { name: 'Save place' }).click();

  const row = page.getByRole('table', { name: 'Places' }).getByRole('row', { name: /E2E Cross Dock/ });
  await expect(row).toContainText('Terminal');
  await expect(row).toContainText('Circle, 800 ft radius');
  await row.getByRole('link', { name: 'E2E Cross Dock' }).click();
  await expect(page.getByRole('heading', { name: 'E2E Cross Dock' })).toBeVisible();
  await expect(page.getByText('Detention counts at customer places only.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'E2E Cross Dock on the map' })).toBeVisible();
  // Beside the map at 1280 px the list still shows its last column.
  await expectLastColumnShown(page, '/places');
});

test('a circle drawn at the whole-country zoom is held to the largest radius a place may have', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/places');
  await page.getByRole('button', { name: 'Add place' }).click();
  await page.getByRole('menuitem', { name: 'Draw a circle' }).click();
  const form = page.getByRole('form', { name: 'Place form' });
  // Clicks before the drawing mode is on draw nothing (seen once under load in CI).
  await expect(form.getByTestId('draw-hint')).toContainText('Click the centre');
  // 60 px at the opening zoom (the whole country) is hundreds of kilometres.
  await drawCircle(page);
  const radius = form.getByLabel('Radius (ft)');
  await expect(radius).not.toHaveValue('');
  expect(Number(await radius.inputValue())).toBeLessThanOrEqual(164_042);
  await form.getByLabel('Name').fill('E2E Wide Region');
  await form.getByRole('button', { name: 'Save place' }).click();
  const row = page.getByRole('table', { name: 'Places' }).getByRole('row', { name: /E2E Wide Region/ });
  // Read in a rounded unit that fits the size: miles here, not 164,042 ft.
  await expect(row).toContainText('Circle, 31.1 mi radius');
});

/** The calendar day `daysAgo` days before today in Chicago (the demo organization's zone), YYYY-MM-DD. */
const chicagoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });

/**
 * A vehicle's drive imported as GPS history (the browser tests' server runs no simulator): 30 minute
 * fixes moving east at about 100 km/h from 10:00 Chicago time, then 10 minutes still, which the
 * trips follower takes as one trip of the day.
 */
function driveCsv(day: string): string {
  const rows = Array.from({ length: 41 }, (_, i) => {
    const moving = i <= 30;
    const lon = -88 + Math.min(i, 30) * 0.02;
    const time = `${day}T${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`;
    return `${time},41.6,${lon.toFixed(4)},${moving && i < 30 ? 100 : 0}`;
  });
  return ['time,latitude,longitude,speed', ...rows].join('\n');
}

test('a trips report narrowed to one vehicle and a day shows its drive, and the daily summary agrees', async ({ page, request }) => {
  const office = await officeApi(request);
  const vehicle = await office.vehicle();
  const day = chicagoDay(3);
  const imported = await request.post(`${office.org}/assets/${vehicle.id}/positions/import`, {
    headers: office.headers,
    data: { file: driveCsv(day), timeZone: 'America/Chicago' },
  });
  expect(imported.ok()).toBe(true);

  await signIn(page, 'admin');
  await page.goto(`/reports/trips?from=${day}&to=${day}`);
  await expect(page.getByLabel(/From \(C[SD]T\)/)).toHaveValue(day);
  const asked = page.waitForRequest((r) => r.url().includes('/reports/trips?') && r.url().includes(`assetId=${vehicle.id}`));
  await page.getByRole('combobox', { name: 'Vehicle' }).selectOption({ label: vehicle.unitNumber });
  const url = new URL((await asked).url());
  // The day is the viewer's (Chicago) day, whatever the browser's zone (Tokyo): decision 0140.
  const chicago = (iso: string) => new Date(iso).toLocaleString('sv-SE', { timeZone: 'America/Chicago' });
  expect(chicago(url.searchParams.get('from')!)).toBe(`${day} 00:00:00`);
  expect(chicago(url.searchParams.get('to')!)).toMatch(/ 00:00:00$/);

  // The trips follower takes the imported fixes behind the request: asked of the API (cheap on a
  // loaded machine, where reloading the page in a loop left few tries), then the page shows it.
  await expect
    .poll(
      async () => {
        const res = await request.get(`${office.org}/reports/trips?${url.searchParams}`, { headers: office.headers });
        return res.ok() ? (((await res.json()) as { content?: unknown[] }).content?.length ?? 0) : 0;
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);
  const table = page.getByRole('table', { name: 'Trips' });
  await page.reload();
  const row = table.getByRole('row', { name: new RegExp(vehicle.unitNumber) });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(row).toContainText(/10:00 AM C[SD]T/);
  const distance = (await row.getByRole('cell').filter({ hasText: / mi$/ }).first().textContent())!;
  expect(Number.parseFloat(distance)).toBeGreaterThan(25);
  expect(Number.parseFloat(distance)).toBeLessThan(35);

  // The filters travel to the other reports, and the day's summary counts the same distance.
  await page.getByRole('navigation', { name: 'Report screens' }).getByRole('link', { name: 'Daily summary' }).click();
  await expect(page).toHaveURL(new RegExp(`/reports/summary\\?.*asset=${vehicle.id}`));
  await expect(page.getByRole('combobox', { name: 'Vehicle' })).toHaveValue(vehicle.id);
  await expect(page.getByRole('table', { name: 'Daily summary' }).locator('tbody tr')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Daily summary' }).locator('tbody tr')).toContainText(distance);
  for (const report of ['trips', 'summary']) await expectLastColumnShown(page, `/reports/${report}?from=${day}&to=${day}&asset=${vehicle.id}`);
});

test('a scheduled report is created, listed and deleted', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/reports/subscriptions');
  await page.getByRole('button', { name: 'Schedule a report' }).click();
  const form = page.getByRole('form', { name: 'Scheduled report form' });
  await form.getByLabel('Report').selectOption('VISITS');
  await form.getByText('Weekly', { exact: true }).click();
  await form.getByLabel('Day of the week').selectOption('5');
  await form.getByLabel('Time of day').fill('06:30');
  await form.getByRole('button', { name: 'Save' }).click();

  const row = page.getByRole('table', { name: 'Scheduled reports' }).getByRole('row', { name: /Place visits/ });
  await expect(row).toContainText('Weekly on Friday at 06:30');
  await expect(row).toContainText('PDF, CSV');
  await expectLastColumnShown(page, '/reports/subscriptions');
  await row.getByRole('button', { name: 'Delete scheduled Place visits report' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No scheduled reports')).toBeVisible();
});
