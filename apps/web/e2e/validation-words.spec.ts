import { expect, test } from '@playwright/test';
import { ADMIN, DISPATCHER, freshVin, ORG, signIn } from './registry-helpers.ts';

// The forms use the API's zod contracts: the same words show under the inputs as in a 400, and a
// 409 lands under the field it names. The Save buttons are submitted with a click event, not a
// pointer press: pressing first blurs the autofocused field, whose message moves the button away.

test('the vehicle form names every bad field in words, and a taken unit number under its input', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/vehicle-add`);
  const form = page.getByRole('form', { name: 'Vehicle form' });
  await form.getByLabel('Make').fill('M'.repeat(61));
  await form.getByRole('button', { name: 'Save' }).dispatchEvent('click');
  await expect(form.getByText('Unit number is a required field')).toBeVisible();
  await expect(form.getByText('VIN must be exactly 17 characters')).toBeVisible();
  await expect(form.getByText('Make must be at most 60 characters')).toBeVisible();
  await expect(form.getByText(/Invalid input|Too (small|big)/)).toHaveCount(0);

  await form.getByLabel('Unit number').fill('117');
  await form.getByRole('textbox', { name: 'VIN' }).fill(freshVin());
  await form.getByLabel('Make').fill('Volvo');
  await form.getByRole('button', { name: 'Save' }).dispatchEvent('click');
  await expect(form.getByText('Unit number 117 is already used by another vehicle or trailer')).toBeVisible();
  await expect(page.getByText(/assets_org_unit_uq|unitNumber:/)).toHaveCount(0);
});

test('inviting a taken e-mail shows the clash under the Email input', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/user-and-roles`);
  await page.getByRole('button', { name: 'Invite user' }).first().click();
  const form = page.getByRole('form', { name: 'Invite user' });
  await form.getByLabel('Email').fill('not-an-email');
  await form.getByRole('button', { name: 'Send invitation' }).dispatchEvent('click');
  await expect(form.getByText('First name is a required field')).toBeVisible();
  await expect(form.getByText('Email must be a valid email address')).toBeVisible();
  await expect(form.getByText('Role is a required field')).toBeVisible();

  await form.getByLabel('First name').fill('Dup');
  await form.getByLabel('Last name').fill('Licate');
  await form.getByLabel('Email').fill(DISPATCHER.email);
  await form.getByPlaceholder('Pick a role').click();
  await page.getByRole('option').first().click();
  await form.getByRole('button', { name: 'Send invitation' }).dispatchEvent('click');
  await expect(form.getByText('An account with this email already exists')).toBeVisible();
});
