import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';
import { confirm, ORG } from './registry-helpers.ts';

// Whole flows through several screens on a machine shared with other builds: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test('the activity log shows role changes as sentences with filters and the labelled before/after difference', async ({ page }) => {
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
  await page.getByRole('combobox', { name: 'Record type' }).click();
  await page.getByRole('option', { name: 'Role', exact: true }).click();
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Update', exact: true }).click();
  await expect(page).toHaveURL(/entity=ROLE/);
  const row = page.getByRole('row').filter({ hasText: `Dana Whitfield changed role ${roleName} (renamed): Name` });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: `Role ${roleName} (renamed)` })).toBeVisible();
  await row.click();
  const drawer = page.getByRole('dialog', { name: 'Activity detail' });
  const changes = drawer.getByRole('table', { name: 'Changes' });
  const nameRow = changes.getByRole('row').filter({ hasText: 'Name' });
  await expect(nameRow.getByRole('cell').nth(1)).toHaveText(roleName);
  await expect(nameRow.getByRole('cell').nth(2)).toHaveText(`${roleName} (renamed)`);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A date range that ends before today finds nothing; clearing the filters finds the creation too.
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2020-01-01');
  await expect(page.getByText('No activity matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`created role ${roleName}`) })).toBeVisible();
});

test('a driver assigned in a vehicle reads as a sentence whose record link opens the vehicle', async ({ page }) => {
  const last = `Ortiz${Date.now().toString(36)}`;
  await login(page, 'admin');

  // A new driver, assigned to vehicle 105 from its detail drawer.
  await page.goto(`${ORG}/driver-add`);
  const driverForm = page.getByRole('form', { name: 'Driver form' });
  await driverForm.getByLabel('First name').fill('Luis');
  await driverForm.getByLabel('Last name').fill(last);
  await driverForm.getByLabel('Licence number').fill(`L${Date.now().toString(36).toUpperCase()}`);
  await driverForm.getByLabel('Issuing state or province').selectOption('IL');
  await driverForm.getByRole('button', { name: 'Save' }).click();
  await expect(driverForm).toBeHidden();
  await page.goto(`${ORG}/vehicles?search=105`);
  await page.getByRole('row', { name: /^105 / }).click();
  const vehicle = page.getByRole('dialog', { name: 'Vehicle 105' });
  // "Assign another driver" while the demo driver drives it, "Assign a driver" if another test freed it.
  const driverPicker = vehicle.getByLabel(/^Assign (a|another) driver$/);
  await driverPicker.click();
  await driverPicker.fill(last);
  const assign = vehicle.getByRole('button', { name: 'Assign', exact: true });
  // The picker's options are drawn again when the server's search answers: a click that lands as
  // they are replaced picks nothing (once in 12 runs, the list left open and Assign disabled), so
  // pick again until the choice holds.
  // A chosen driver shows by name in the picker (before, it holds what was typed); picking the chosen
  // option again would clear it.
  await expect(async () => {
    if ((await driverPicker.inputValue()) === `Luis ${last}`) return;
    if ((await driverPicker.getAttribute('aria-expanded')) !== 'true') await driverPicker.click();
    await page
      .getByRole('option', { name: new RegExp(last) })
      .first()
      .click({ timeout: 2_000 });
    await expect(driverPicker).toHaveValue(`Luis ${last}`, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await assign.click();
  await confirm(page, 'Assign');
  await expect(vehicle.getByText(`Luis ${last}`).first()).toBeVisible();

  // The log says it in words, and its detail names the drivers before and after.
  await page.goto('/settings/activity-log');
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Assign driver', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: `Dana Whitfield assigned driver Luis ${last} to vehicle 105` });
  await expect(row).toHaveCount(1);
  await row.click();
  const drawer = page.getByRole('dialog', { name: 'Activity detail' });
  await expect(drawer.getByText(`Dana Whitfield assigned driver Luis ${last} to vehicle 105`)).toBeVisible();
  const driverRow = drawer.getByRole('table', { name: 'Changes' }).getByRole('row').filter({ hasText: 'Driver' });
  await expect(driverRow.getByRole('cell').nth(2)).toHaveText(`Luis ${last}`);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The record link opens vehicle 105 with its new driver, not the log entry.
  const link = row.getByRole('link', { name: 'Vehicle 105' });
  await expect(link).toHaveAttribute('href', new RegExp(`^${ORG}/vehicles\\?open=[0-9a-f-]{36}$`));
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${ORG}/vehicles$`));
  await expect(page.getByRole('dialog', { name: 'Vehicle 105' }).getByText(`Luis ${last}`).first()).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Activity detail' })).toHaveCount(0);
});
