import { expect, test } from '@playwright/test';
import { ADMIN, DISPATCHER, login, ORG, signIn } from './registry-helpers.ts';

test('an administrator corrects the organization account and its telematics thresholds, and they persist', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/organization-account`);
  const account = page.getByRole('form', { name: 'Organization account' });
  const usdot = account.getByLabel('USDOT number');
  await expect(usdot).not.toHaveValue('');
  const original = await usdot.inputValue();

  // A USDOT number with letters is refused on the field and nothing is saved.
  await usdot.fill('27A8281');
  await account.getByRole('button', { name: 'Save account' }).click();
  await expect(account.getByText(/digits/i).first()).toBeVisible();
  const phone = `+1 312 555 ${String(Date.now()).slice(-4)}`;
  await usdot.fill(original);
  await account.getByLabel('Phone').fill(phone);
  await account.getByRole('button', { name: 'Save account' }).click();
  await expect(page.getByText('Organization account saved')).toBeVisible();

  const settings = page.getByRole('form', { name: 'Organization settings' });
  const idle = settings.getByLabel('Idle after (minutes)');
  const idleBefore = await idle.inputValue();
  const idleNew = idleBefore === '7' ? '8' : '7';
  await idle.fill(idleNew);
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();

  await page.reload();
  await expect(account.getByLabel('Phone')).toHaveValue(phone);
  await expect(account.getByLabel('USDOT number')).toHaveValue(original);
  await expect(idle).toHaveValue(idleNew);
  // Put the threshold back: the map's browser test reads vehicle statuses from it.
  await idle.fill(idleBefore);
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('button', { name: 'Save settings' })).toBeDisabled();
});

test('an administrator changes a retention period, never below the legal minimum; a dispatcher cannot open the screen', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/settings/data-retention');
  const form = page.getByRole('form', { name: 'Retention periods' });
  const positions = form.locator('.mantine-Card-root', { hasText: 'Vehicle positions' });
  const days = positions.getByLabel('Keep for (days)');
  await expect(days).toBeVisible();

  // Below the 30-day legal minimum the field snaps back to the minimum, which it names.
  await expect(positions.getByText(/legal minimum 30 days/)).toBeVisible();
  // Inspection reports (49 CFR 396.11): three months at least, a year unless changed.
  const inspections = form.locator('.mantine-Card-root', { hasText: 'Vehicle inspection reports' });
  await expect(inspections.getByText(/legal minimum 92 days/)).toBeVisible();
  await expect(inspections.getByLabel('Keep for (days)')).toHaveValue('365');
  await days.fill('10');
  await days.blur();
  await expect(days).toHaveValue('30');

  await days.fill('455');
  await days.blur();
  await form.getByRole('button', { name: 'Save periods' }).click();
  await expect(page.getByText('Retention periods saved')).toBeVisible();
  await page.reload();
  await expect(form.locator('.mantine-Card-root', { hasText: 'Vehicle positions' }).getByLabel('Keep for (days)')).toHaveValue('455');

  await page.getByRole('button', { name: 'Open profile' }).click();
  await page.getByRole('button', { name: /log out/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, DISPATCHER);
  await page.goto('/settings/data-retention');
  await expect(page).toHaveURL(/access-denied/);
});

test("the organization's default theme reaches a user who has not chosen one, and a user's own choice wins", async ({ page, browser }) => {
  // Two sign-ins and three saves on the shared machine.
  test.setTimeout(150_000);
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/organization-account`);
  const settings = page.getByRole('form', { name: 'Organization settings' });
  const setDefault = async (theme: 'Light' | 'Dark') => {
    await settings.getByLabel('Default theme', { exact: true }).click();
    await page.getByRole('option', { name: theme, exact: true }).click();
    // Already the organization's default: nothing to save.
    if (await settings.getByRole('button', { name: 'Save settings' }).isDisabled()) return;
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings.getByRole('button', { name: 'Save settings' })).toBeDisabled();
  };
  await expect(settings.getByLabel('Default theme', { exact: true })).toBeEnabled();
  await setDefault('Dark');
  try {
    // The administrator has not chosen a theme either: the saved default applies at once.
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    // A new browser (light system preference), nothing chosen: the organization's dark theme.
    const context = await browser.newContext({ colorScheme: 'light' });
    const user = await context.newPage();
    const scheme = () => user.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    await login(user, DISPATCHER);
    await expect.poll(scheme).toBe('dark');
    // The user's own choice is kept across reloads, whatever the organization's default.
    await user.getByTestId('theme-toggle').click();
    await expect.poll(scheme).toBe('light');
    await user.reload();
    await expect(user.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    expect(await scheme()).toBe('light');
    await context.close();
  } finally {
    // Other browser tests expect the demo organization's light default.
    await setDefault('Light');
  }
});
