import { expect, test } from '@playwright/test';
import { ACCOUNTS, fillLogin, loginThroughForm, readOutbox } from './helpers.ts';

test('an administrator logs in to the dashboard and logs out from the profile drawer', async ({ page }) => {
  await loginThroughForm(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Header navigation' }).getByRole('link')).toHaveText(['History Route', 'Map', 'Dashboard']);
  expect(await page.evaluate(() => localStorage.getItem('fleet.refreshToken'))).toBeTruthy();

  await page.getByRole('button', { name: 'Open profile' }).click();
  const drawer = page.getByRole('dialog', { name: 'Profile' });
  await expect(drawer.getByText('Dana Whitfield')).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Add driver' })).toHaveAttribute('href', '/settings/organization-settings/driver-add?addDriver=true');
  await expect(drawer.getByRole('link', { name: 'Add device' })).toHaveAttribute('href', '/settings/organization-settings/device-add?addDevice=true');
  await drawer.getByRole('button', { name: 'Log out' }).click();

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('fleet.accessToken'), localStorage.getItem('fleet.refreshToken')])).toEqual([null, null]);
  // The session is gone: a private page sends back to login.
  await page.goto('/my-account');
  await expect(page).toHaveURL('/');
});

test('a super administrator lands on the organizations list with only the Administration menu', async ({ page }) => {
  await loginThroughForm(page, 'superAdmin');
  await expect(page.getByRole('heading', { name: 'Organizations' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByText('Administration')).toBeVisible();
  await expect(menu.getByText('Settings')).toHaveCount(0);
  await expect(menu.getByText('Hours of Service')).toHaveCount(0);
});

test('a wrong password keeps the user signed out on the login page', async ({ page }) => {
  await page.goto('/');
  await fillLogin(page, ACCOUNTS.admin.email, 'not-the-password');
  await expect(page.getByRole('alert').filter({ hasText: 'incorrect' })).toBeVisible();
  await expect(page).toHaveURL('/');
  expect(await page.evaluate(() => localStorage.getItem('fleet.refreshToken'))).toBeNull();
  // No error toast for a failed login (spec section 8).
  await expect(page.getByTestId('notification')).toHaveCount(0);
});

test('login validates on input and hides the footer while the call runs', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Email').fill('nope');
  await expect(page.getByText('must be a valid email')).toBeVisible();
  await expect(page.getByTestId('login-footer')).toBeVisible();
  // The answer is held until the test has seen the form while the call runs.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/v1/auth/authenticate', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Email').fill(ACCOUNTS.admin.email);
  await page.getByPlaceholder('min 8 characters').fill(ACCOUNTS.admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-footer')).toHaveCount(0);
  release();
  await expect(page).toHaveURL('/dashboard');
});

test('a new company signs up, then resets its forgotten password through the e-mailed link', async ({ page }) => {
  const email = `owner-${Date.now()}@northwind.test`;
  await page.goto('/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL('/getting-started');
  await page.getByLabel('First name').fill('Olive');
  await page.getByLabel('Last name').fill('Northwind');
  await page.getByLabel('Company name').fill('Northwind Haulage');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
  await page.getByLabel('Confirm password').focus();
  await expect(page.getByText('must be at least 8 characters')).toBeVisible();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Northwind#2026');
  await page.getByLabel('Confirm password').fill('Northwind#2026');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL('/dashboard');

  await page.getByRole('button', { name: 'Open profile' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/');

  await page.getByRole('link', { name: 'Forgotten Password' }).click();
  await expect(page).toHaveURL('/reset-password');
  await expect(page.getByRole('link', { name: 'Log In' }).first()).toHaveAttribute('href', '/');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();

  const mail = await readOutbox(email);
  const link = /https?:\/\/\S+\/create-new-password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(new URL(link!).pathname);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Brand-new#2026');
  await page.getByLabel('Confirm new password').fill('Brand-new#2026');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Password changed')).toBeVisible();

  await page.getByRole('link', { name: 'Log In' }).first().click();
  await fillLogin(page, email, 'Brand-new#2026');
  await expect(page).toHaveURL('/dashboard');
});

test('an expired access token is refreshed transparently', async ({ page }) => {
  await loginThroughForm(page, 'admin');
  const before = await page.evaluate(() => localStorage.getItem('fleet.refreshToken'));
  // A token the server no longer accepts, as after its 15 minutes.
  await page.evaluate(() => localStorage.setItem('fleet.accessToken', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.expired'));
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/my-account');
  await expect(page.getByLabel('Last name')).toHaveValue('Whitfield');
  const after = await page.evaluate(() => [localStorage.getItem('fleet.accessToken'), localStorage.getItem('fleet.refreshToken')]);
  expect(after[0]).not.toContain('expired');
  expect(after[1]).not.toBe(before);
  await expect(page).toHaveURL('/my-account');
  await expect(page.getByTestId('notification')).toHaveCount(0);
});
