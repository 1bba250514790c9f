import { expect, test } from '@playwright/test';
import { ADMIN, DISPATCHER, login, ORG } from './registry-helpers.ts';

test('an administrator corrects the organization account and its telematics thresholds, and they persist', async ({ page }) => {
  await login(page, ADMIN);
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
  await login(page, ADMIN);
  await page.goto('/settings/data-retention');
  const form = page.getByRole('form', { name: 'Retention periods' });
  const positions = form.locator('.mantine-Card-root', { hasText: 'Vehicle positions' });
  const days = positions.getByLabel('Keep for (days)');
  await expect(days).toBeVisible();

  // Below the 30-day legal minimum the field snaps back to the minimum, which it names.
  await expect(positions.getByText(/legal minimum 30 days/)).toBeVisible();
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
  await login(page, DISPATCHER);
  await page.goto('/settings/data-retention');
  await expect(page).toHaveURL(/access-denied/);
});
