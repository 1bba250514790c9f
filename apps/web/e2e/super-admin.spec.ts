import { expect, test } from '@playwright/test';
import { login, readOutbox, signIn } from './helpers.ts';

// Whole flows through several screens on a machine shared with other builds: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

test('a super administrator creates an organization, takes control, invites a user and closes the banner', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const orgName = `Prairie Haulers ${stamp}`;
  const adminEmail = `owner-${stamp}@prairie.test`;
  await login(page, 'superAdmin');

  // Create the organization with its first administrator; bad input is refused by the schema first.
  await page.getByRole('button', { name: 'New organization' }).click();
  const create = page.getByRole('form', { name: 'New organization' });
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(create.getByText('Legal name is a required field')).toBeVisible();
  await create.getByLabel('Legal name').fill(orgName);
  await create.getByLabel('USDOT number').fill('12ab');
  await create.getByLabel('USDOT number').blur();
  await expect(create.getByText('DOT number is not valid')).toBeVisible();
  await create.getByLabel('USDOT number').fill('3141592');
  await create.getByLabel('Admin first name').fill('Rosa');
  await create.getByLabel('Admin last name').fill('Delgado');
  await create.getByLabel('Admin email').fill(adminEmail);
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(create).toBeHidden();
  const mail = await readOutbox(adminEmail);
  expect(mail.text).toMatch(/create-new-password\//);

  // Find it, take control: the banner names it and the organization's screens open.
  await page.getByRole('textbox', { name: 'Search Organizations' }).fill(stamp);
  const row = page.getByRole('row', { name: new RegExp(orgName) });
  await expect(row).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await row.getByRole('button', { name: `Take control of ${orgName}` }).click();
  const banner = page.getByRole('region', { name: 'Control mode' });
  await expect(banner).toHaveText(new RegExp(`Control organization: ${orgName}`));
  await expect(page).toHaveURL('/settings/organization-settings');
  await page
    .getByRole('link', { name: /Users & Roles/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Users & Roles' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Rosa Delgado/ })).toContainText('Invited');

  // Invite a user into the controlled organization.
  const invitee = `dispatch-${stamp}@prairie.test`;
  await page.getByRole('button', { name: 'Invite user' }).click();
  const form = page.getByRole('form', { name: 'Invite user' });
  await form.getByLabel('First name').fill('Theo');
  await form.getByLabel('Last name').fill('Marsh');
  await form.getByLabel('Email').fill(invitee);
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Administrator' }).click();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('row', { name: /Theo Marsh/ })).toContainText('Invited');
  await readOutbox(invitee);

  // The success toasts sit over the header's right side; they close by themselves.
  await expect(page.getByTestId('notification')).toHaveCount(0, { timeout: 10_000 });
  // Closing the banner ends control: back on the list, organization screens are denied again.
  await banner.getByRole('button', { name: 'Stop controlling this organization' }).click();
  await expect(banner).toBeHidden();
  await expect(page).toHaveURL(/\/administration\/organizations/);
  await page.goto('/settings/organization-settings/user-and-roles');
  await expect(page).toHaveURL('/access-denied');
});

test('a super administrator deactivates an organization after confirming, and its status filter finds it', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const orgName = `Short Line ${stamp}`;
  await login(page, 'superAdmin');
  await page.getByRole('button', { name: 'New organization' }).click();
  const create = page.getByRole('form', { name: 'New organization' });
  await create.getByLabel('Legal name').fill(orgName);
  await create.getByLabel('Admin first name').fill('Ann');
  await create.getByLabel('Admin last name').fill('Lee');
  await create.getByLabel('Admin email').fill(`ann-${stamp}@shortline.test`);
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(create).toBeHidden();
  await page.getByRole('textbox', { name: 'Search Organizations' }).fill(stamp);
  const row = page.getByRole('row', { name: new RegExp(orgName) });
  await row.getByRole('button', { name: `More actions for ${orgName}` }).click();
  await page.getByRole('menuitem', { name: 'Deactivate' }).click();
  const dialog = page.getByRole('dialog', { name: `Deactivate ${orgName}?` });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: `More actions for ${orgName}` }).click();
  await page.getByRole('menuitem', { name: 'Deactivate' }).click();
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Inactive');
  await expect(row.getByRole('button', { name: `Take control of ${orgName}` })).toBeDisabled();
  // Filtered to active organizations it is gone; filtered to inactive ones it is back.
  await page.getByRole('radiogroup', { name: 'Status' }).getByText('Active', { exact: true }).click();
  await expect(page).toHaveURL(/status=ACTIVE/);
  await expect(row).toBeHidden();
  await page.getByRole('radiogroup', { name: 'Status' }).getByText('Inactive', { exact: true }).click();
  await expect(row).toContainText('Inactive');
});

test('the IFTA rate page names the official source of its rates', async ({ page }) => {
  await signIn(page, 'superAdmin');
  await page.goto('/administration/ifta-rates');
  await expect(page.getByText(/published by IFTA, Inc\. in its quarterly tax rate matrix/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'iftach.org' })).toHaveAttribute('href', 'https://www.iftach.org/taxmatrix4/Taxmatrix.php');
});
