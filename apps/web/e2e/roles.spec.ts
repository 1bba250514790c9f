import { expect, test, type Page } from '@playwright/test';
import { fillLogin, readOutbox, signIn } from './helpers.ts';

// Whole flows through several screens on a machine shared with other builds: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

const menuTexts = async (page: Page) => {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  for (let i = 0; i < 3; i++) {
    const closed = menu.locator('button[aria-expanded="false"]');
    const n = await closed.count();
    if (n === 0) break;
    for (let j = 0; j < n; j++) await closed.first().click();
  }
  return (await menu.innerText())
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
};

test('an admin creates a limited role and assigns it; that user sees only what it permits', async ({ page, browser }) => {
  const stamp = Date.now().toString(36);
  const roleName = `Yard checker ${stamp}`;
  const email = `yard-${stamp}@demofreight.test`;
  await signIn(page, 'admin');
  await page.goto('/settings/organization-settings/user-and-roles');
  await page.getByRole('tab', { name: 'Roles' }).click();

  // A role with only the vehicle list; ticking "Edit drivers" brings "List drivers", unticking the list takes both away.
  await page.getByRole('button', { name: 'New role' }).click();
  const editor = page.getByRole('form', { name: 'New role' });
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor.getByText('Name is a required field')).toBeVisible();
  await editor.getByLabel('Name').fill(roleName);
  await editor.getByRole('checkbox', { name: 'Edit drivers' }).check();
  await expect(editor.getByRole('checkbox', { name: 'List drivers' })).toBeChecked();
  await editor.getByRole('checkbox', { name: 'List drivers' }).uncheck();
  await expect(editor.getByRole('checkbox', { name: 'Edit drivers' })).not.toBeChecked();
  await editor.getByRole('checkbox', { name: 'List vehicles and trailers', exact: true }).check();
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor).toBeHidden();
  const roleRow = page.getByRole('row', { name: new RegExp(roleName) });
  await expect(roleRow).toBeVisible();
  await expect(roleRow.getByRole('cell').nth(2)).toHaveText('1');

  // Assign it: invite a user holding that role.
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Invite user' }).click();
  const form = page.getByRole('form', { name: 'Invite user' });
  await form.getByLabel('First name').fill('Yuri');
  await form.getByLabel('Last name').fill('Checker');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form.getByText('Role is a required field')).toBeVisible();
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: roleName }).click();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('row', { name: /Yuri Checker/ })).toContainText(roleName);

  // The user sets a password through the invitation e-mail, then signs in.
  const mail = await readOutbox(email);
  const link = /https?:\/\/\S+\/create-new-password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  const context = await browser.newContext();
  const user = await context.newPage();
  await user.goto(new URL(link!).pathname);
  await user.getByRole('textbox', { name: 'New password', exact: true }).fill('Yard-check#2026');
  await user.getByLabel('Confirm new password').fill('Yard-check#2026');
  await user.getByRole('button', { name: 'Save new password' }).click();
  await expect(user.getByText('Password changed')).toBeVisible();
  await user.goto('/');
  await fillLogin(user, email, 'Yard-check#2026');
  // No dashboard permission: home is denied, and the menus show only the vehicle screens.
  await expect(user).toHaveURL('/access-denied');
  const menu = user.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('button', { name: 'Settings', exact: true }).click();
  await menu.getByRole('button', { name: 'Organization Settings' }).click();
  await expect(menu.getByRole('link', { name: 'Vehicles' })).toBeVisible();
  const items = await menuTexts(user);
  expect(items).toEqual(expect.arrayContaining(['Settings', 'Organization Settings', 'Vehicles', 'Trailers']));
  for (const hidden of [
    'Users & Roles',
    'All Drivers',
    'Devices',
    'Groups',
    'Activity Log',
    'Data Retention',
    'Hours of Service',
    'HoS Logs',
    'Analytics',
    'Administration',
  ]) {
    expect(items).not.toContain(hidden);
  }
  await user.goto('/settings/organization-settings/user-and-roles');
  await expect(user).toHaveURL('/access-denied');
  await expect(user.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  await user.goto('/settings/activity-log');
  await expect(user).toHaveURL('/access-denied');
  await user.goto('/settings/organization-settings');
  // The hub shows a card for the permitted sub-area only (the side menu links it too).
  await expect(user.getByRole('link', { name: /^Vehicles Trucks/ })).toBeVisible();
  await expect(user.getByRole('link', { name: /Users & Roles/ })).toHaveCount(0);
  await context.close();
});
