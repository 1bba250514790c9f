import { expect, test, type Page } from '@playwright/test';
import { login } from './helpers.ts';

// Issue 32's screens as a dispatcher uses them: a place drawn on the map and found in the list and
// on its own page, a report narrowed by its filters against the demo data, and a scheduled report
// created, listed and deleted. One sign-in per test; the rest of each screen is covered by the a11y
// and units walks.

/** Draws a circle on the places map: click the centre, move out, click the edge. */
async function drawCircle(page: Page) {
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
  await login(page, 'admin');
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
});

test('a trips report narrowed to one vehicle and a week asks for exactly that and shows only it', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/reports/trips?from=2026-01-05&to=2026-01-11');
  await expect(page.getByLabel('From (CST)')).toHaveValue('2026-01-05');
  const vehicle = page.getByRole('combobox', { name: 'Vehicle' });
  const option = vehicle.locator('option').nth(1);
  const [unit, chosen] = [(await option.textContent())!, (await option.getAttribute('value'))!];
  const asked = page.waitForRequest((r) => r.url().includes('/reports/trips?') && r.url().includes('assetId='));
  await vehicle.selectOption({ label: unit });
  const url = new URL((await asked).url());
  // The week is the viewer's (Chicago) week, whatever the browser's zone (Tokyo): decision 0140.
  expect(url.searchParams.get('from')).toBe('2026-01-05T06:00:00.000Z');
  expect(url.searchParams.get('to')).toBe('2026-01-12T06:00:00.000Z');
  await expect(page).toHaveURL(/asset=/);
  const table = page.getByRole('table', { name: 'Trips' });
  await expect(table.or(page.getByText('No trips'))).toBeVisible();
  for (const cell of await table.locator('tbody tr td:first-child').allTextContents()) expect(cell).toBe(unit);
  // The filters travel to the other reports.
  await page.getByRole('navigation', { name: 'Report screens' }).getByRole('link', { name: 'Daily summary' }).click();
  await expect(page).toHaveURL(/\/reports\/summary\?.*asset=/);
  await expect(page.getByRole('combobox', { name: 'Vehicle' })).toHaveValue(chosen);
});

test('a scheduled report is created, listed and deleted', async ({ page }) => {
  await login(page, 'admin');
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
  await row.getByRole('button', { name: 'Delete scheduled Place visits report' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No scheduled reports')).toBeVisible();
});
