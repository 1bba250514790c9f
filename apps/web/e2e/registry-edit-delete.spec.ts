import { expect, test } from '@playwright/test';
import { ADMIN, confirm, ORG, signIn, uniq } from './registry-helpers.ts';
import { login as loginAs } from './helpers.ts';

test('a fleet manager edits a trailer, then deletes it after confirming', async ({ page }) => {
  const unit = `TR-${uniq()}`;
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/trailers?addTrailer=true`);
  const form = page.getByRole('form', { name: 'Trailer form' });
  await form.getByLabel('Unit number').fill(unit);
  await form.getByLabel('Trailer type').selectOption('REEFER');
  await form.getByLabel('Length (ft)').fill('53');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await page.getByLabel('Search Trailers').fill(unit);
  await page.getByRole('row', { name: new RegExp(unit) }).click();
  const detail = page.getByRole('dialog', { name: `Trailer ${unit}` });
  await detail.getByRole('button', { name: 'Edit' }).click();
  await form.getByLabel('Licence plate').fill(`P${unit.slice(3)}`);
  await form.getByLabel('Length (ft)').fill('abc');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeVisible(); // a length that is not a number is refused on the field
  await form.getByLabel('Length (ft)').fill('48');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(`${unit}.*P${unit.slice(3)}`) })).toBeVisible();

  // Delete asks first; cancelling keeps it, confirming removes it (nothing references a new trailer).
  await page.getByRole('row', { name: new RegExp(unit) }).click();
  await detail.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${unit}?` });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await detail.getByRole('button', { name: 'Delete' }).click();
  await confirm(page, 'Delete');
  await expect(page.getByText(`Trailer ${unit} was deleted`)).toBeVisible();
  await expect(page.getByText('No matches')).toBeVisible(); // the list is still searched for it
});

test('a fleet manager renames a device on its page, then deletes it after confirming', async ({ page }) => {
  const id = uniq();
  const imei = `86${Date.now()}`.slice(0, 15);
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/devices?addDevice=true`);
  const form = page.getByRole('form', { name: 'Device form' });
  await form.getByLabel('Unique id').fill(imei);
  await form.getByLabel('Name').fill(`Tracker ${id}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Done' }).click();

  await page.getByLabel('Search Devices').fill(imei);
  await page.getByRole('row', { name: new RegExp(imei) }).click();
  await expect(page).toHaveURL(/\/devices\/[0-9a-f-]{36}(\?|$)/);
  await expect(page.getByRole('heading', { name: `Tracker ${id}`, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await form.getByLabel('Name').fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeVisible(); // the name is required
  await form.getByLabel('Name').fill(`Cab tracker ${id}`);
  await form.getByLabel('Firmware').fill('4.2.1');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('heading', { name: `Cab tracker ${id}`, level: 1 })).toBeVisible();
  await expect(page.getByText('4.2.1')).toBeVisible();

  await page.getByRole('button', { name: 'Delete' }).click();
  await confirm(page, 'Delete');
  await expect(page.getByText(`Device Cab tracker ${id} was deleted`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${ORG}/devices$`));
  await page.getByLabel('Search Devices').fill(imei);
  await expect(page.getByText('No matches')).toBeVisible();
});

test('the super administrator adds, edits and deletes a device model', async ({ page }) => {
  const name = `Model ${uniq()}`;
  await loginAs(page, 'superAdmin');
  await page.goto('/administration/device-models');
  await page.getByRole('button', { name: 'Add device model' }).click();
  const form = page.getByRole('form', { name: 'Device model form' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeVisible(); // protocol is required
  await form.getByLabel('Protocol').fill('osmand');
  await form.getByLabel('Manufacturer').fill('Acme');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await page.getByLabel('Search Device models').fill(name);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  // The form fills itself with the model as it opens: typing before that would be overwritten.
  await expect(form.getByLabel('Manufacturer')).toHaveValue('Acme');
  await form.getByLabel('Manufacturer').fill('Acme Telematics');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(`${name}.*Acme Telematics`) })).toBeVisible();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await confirm(page, 'Delete');
  await expect(page.getByText(`${name} deleted`)).toBeVisible();
  await expect(page.getByText('No matches')).toBeVisible();
});
