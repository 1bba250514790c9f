import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

// Issue 28: Ctrl+K's Enter opens the first result, and every result says why it matched.

test('Ctrl+K: each result says why it matched, and Enter opens the first result', async ({ page }) => {
  await login(page, 'admin');
  await page.keyboard.press('Control+k');
  const box = page.getByPlaceholder(/Search vehicles, VINs/);
  await expect(box).toBeFocused();
  await box.fill('117');
  const truck = page.getByTestId('spotlight-hit').filter({ has: page.getByText('Vehicle 117', { exact: true }) });
  await expect(truck.getByTestId('match-reason')).toHaveText('Matched unit number: 117');
  // Every result carries its reason.
  const hits = page.getByTestId('spotlight-hit');
  const n = await hits.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) await expect(hits.nth(i).getByTestId('match-reason')).toContainText(/^Matched .+: .*117/);
  // Enter without the arrow keys opens the first result listed.
  const firstTitle = (await hits.first().locator('p').first().innerText()).trim();
  await page.keyboard.press('Enter');
  // The list takes `?open=<id>` out of the URL once its drawer opens (useOpenParam), so the URL is
  // checked without it; the drawer shows the record.
  await expect(page).toHaveURL(/\/settings\/organization-settings\/(vehicles|trailers)(\?open=|$)/);
  await expect(
    page
      .getByRole('dialog')
      .getByText(firstTitle.replace(/^(Vehicle|Trailer) /, ''))
      .first(),
  ).toBeVisible();
});

test('Ctrl+K: Enter pressed before the results arrive opens the first result when they do', async ({ page }) => {
  await login(page, 'admin');
  await page.keyboard.press('Control+k');
  const box = page.getByPlaceholder(/Search vehicles, VINs/);
  await expect(box).toBeFocused();
  // Typed and entered at once, as a person who knows the device id does.
  await box.pressSequentially('demo-truck-05', { delay: 0 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings\/organization-settings\/devices\/[0-9a-f-]{36}$/);
  await expect(page.getByText('demo-truck-05').first()).toBeVisible();
});
