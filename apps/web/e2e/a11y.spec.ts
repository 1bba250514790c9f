import { expect, test } from '@playwright/test';
import { login, seriousA11yViolations } from './helpers.ts';

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

for (const scheme of ['light', 'dark'] as const) {
  test(`no serious or critical accessibility violations on login, dashboard and my account (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    if (scheme === 'dark') {
      // The dark theme needs the organization's flag; the stored copy lets the login page use it too.
      await page.goto('/');
      await page.evaluate(() => {
        localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' }));
        localStorage.setItem('fleet.colorScheme', 'dark');
      });
    }
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe(scheme);
    expect(await seriousA11yViolations(page), 'login').toEqual([]);

    await login(page, 'admin');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    expect(await seriousA11yViolations(page), 'dashboard').toEqual([]);

    await page.goto('/my-account');
    await expect(page.getByLabel('Last name')).toHaveValue('Whitfield');
    expect(await seriousA11yViolations(page), 'my account').toEqual([]);
  });
}
