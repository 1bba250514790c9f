import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

test('at 375 px the menu is a hamburger that closes on navigation, with a sticky bottom navigation', async ({ page }) => {
  await login(page, 'admin');
  const bottom = page.getByTestId('bottom-nav');
  await expect(bottom).toBeVisible();
  await expect(bottom.getByRole('link')).toHaveText(['History Route', 'Map', 'Dashboard']);
  await expect(page.getByRole('navigation', { name: 'Header navigation' })).toHaveCount(0);

  const side = page.getByTestId('side-menu');
  await expect(side).not.toBeInViewport();
  await page.getByTestId('hamburger').click();
  await expect(side).toBeInViewport();
  await expect(page.locator('body')).toHaveClass(/fixed-scroll/);

  await side.getByText('Hours of Service').click();
  await side.getByRole('link', { name: 'HoS Logs' }).click();
  await expect(page).toHaveURL('/hos/logs');
  await expect(side).not.toBeInViewport();
  await expect(page.locator('body')).not.toHaveClass(/fixed-scroll/);

  await bottom.getByRole('link', { name: 'Map' }).click();
  await expect(page).toHaveURL('/map');
  await expect(page.getByRole('heading', { name: 'Map' })).toBeVisible();
});
