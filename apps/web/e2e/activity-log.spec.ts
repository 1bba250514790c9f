import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

// Whole flows through several screens on a machine shared with other builds: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test('the activity log shows role and user changes with filters and the before/after difference', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const roleName = `Night dispatch ${stamp}`;
  await login(page, 'admin');

  // Make two changes: create a role, then rename it.
  await page.goto('/settings/organization-settings/user-and-roles?tab=roles');
  await page.getByRole('button', { name: 'New role' }).click();
  const editor = page.getByRole('form', { name: 'New role' });
  await editor.getByLabel('Name').fill(roleName);
  await editor.getByRole('checkbox', { name: 'HoS logs', exact: true }).check();
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: `Edit role ${roleName}` }).click();
  const edit = page.getByRole('form', { name: 'Edit role' });
  await edit.getByLabel('Name').fill(`${roleName} (renamed)`);
  await edit.getByRole('button', { name: 'Save role' }).click();
  await expect(edit).toBeHidden();

  await page.goto('/settings/activity-log');
  await expect(page.getByRole('heading', { name: 'Activity Log' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Entity type' }).click();
  await page.getByRole('option', { name: 'ROLE', exact: true }).click();
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Update', exact: true }).click();
  await expect(page).toHaveURL(/entity=ROLE/);
  const row = page.getByRole('row').filter({ hasText: 'Dana Whitfield' }).first();
  await expect(row).toContainText('Update');
  await expect(row).toContainText('name');
  await row.click();
  const drawer = page.getByRole('dialog', { name: 'Activity detail' });
  const changes = drawer.getByRole('table', { name: 'Changes' });
  await expect(changes.getByRole('row', { name: /name/ })).toContainText(roleName);
  await expect(changes.getByRole('row', { name: /name/ })).toContainText(`${roleName} (renamed)`);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A date range that ends before today finds nothing; clearing the filters finds the creation too.
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2020-01-01');
  await expect(page.getByText('No activity matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('row', { name: /Create/ }).first()).toBeVisible();
});
