import { expect, test } from '@playwright/test';
import { ADMIN, confirm, DISPATCHER, freshVin, login, ORG, pick, signIn, uniq } from './registry-helpers.ts';

test('a fleet manager adds, finds and edits a vehicle and a driver, assigns the driver, pairs a device and attaches a trailer', async ({ page }) => {
  const id = uniq();
  const unit = `E2E-${id}`;
  const vin = freshVin();
  await login(page, ADMIN);

  // Vehicle through vehicle-add: the list opens with the add form.
  await page.goto(`${ORG}/vehicle-add`);
  const vehicleForm = page.getByRole('form', { name: 'Vehicle form' });
  await expect(vehicleForm).toBeVisible();
  await vehicleForm.getByLabel('Unit number').fill(unit);
  await vehicleForm.getByRole('textbox', { name: 'VIN' }).fill('1M8GDM9AXKP04278'); // 16 characters
  await vehicleForm.getByRole('button', { name: 'Save' }).click();
  await expect(vehicleForm.getByText(/17 characters/)).toBeVisible();
  await vehicleForm.getByRole('textbox', { name: 'VIN' }).fill(vin);
  await vehicleForm.getByLabel('Make').fill('Freightliner');
  await vehicleForm.getByRole('button', { name: 'Save' }).click();
  await expect(vehicleForm).toBeHidden();

  // A second vehicle with the same unit number is refused on the field.
  await page.getByRole('button', { name: 'Add vehicle' }).first().click();
  await vehicleForm.getByLabel('Unit number').fill(unit);
  await vehicleForm.getByRole('textbox', { name: 'VIN' }).fill(freshVin());
  await vehicleForm.getByRole('button', { name: 'Save' }).click();
  await expect(vehicleForm.getByText(/already/i)).toBeVisible();
  await vehicleForm.getByRole('button', { name: 'Cancel' }).click();

  // Find it by search, open it and edit it.
  await page.getByLabel('Search Vehicles').fill(unit);
  const row = page.getByRole('row', { name: new RegExp(unit) });
  await expect(row).toHaveCount(1);
  await row.click();
  const detail = page.getByRole('dialog', { name: `Vehicle ${unit}` });
  await expect(detail.getByText('Freightliner')).toBeVisible();
  await detail.getByRole('button', { name: 'Edit' }).click();
  await vehicleForm.getByLabel('Make').fill('Kenworth');
  await vehicleForm.getByRole('button', { name: 'Save' }).click();
  await expect(vehicleForm).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(`${unit}.*Kenworth`) })).toBeVisible();

  // Driver through driver-add, found by search.
  const last = `Tester${id}`;
  await page.goto(`${ORG}/driver-add`);
  const driverForm = page.getByRole('form', { name: 'Driver form' });
  await driverForm.getByLabel('First name').fill('Ada');
  await driverForm.getByLabel('Last name').fill(last);
  await driverForm.getByLabel('Licence number').fill(`D${id}77`);
  await driverForm.getByLabel('Issuing state or province').selectOption('OH');
  await driverForm.getByLabel('Exempt from the ELD rule').check();
  await driverForm.getByRole('button', { name: 'Save' }).click();
  await expect(driverForm.getByText('Give the reason the driver is exempt from the ELD rule')).toBeVisible();
  await driverForm.getByLabel('Exempt from the ELD rule').uncheck();
  await driverForm.getByRole('button', { name: 'Save' }).click();
  await expect(driverForm).toBeHidden();
  await page.getByLabel('Search Drivers').fill(last);
  await expect(page.getByRole('row', { name: new RegExp(last) })).toHaveCount(1);

  // A device, its ingest token shown once.
  const imei = `35${Date.now()}`.slice(0, 15);
  await page.goto(`${ORG}/devices?addDevice=true`);
  const deviceForm = page.getByRole('form', { name: 'Device form' });
  await deviceForm.getByLabel('Unique id').fill(imei);
  await deviceForm.getByLabel('Name').fill(`Tracker ${id}`);
  await deviceForm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('ingest-token')).not.toBeEmpty();
  await page.getByRole('button', { name: 'Done' }).click();

  // Vehicle detail: assign the driver, pair the device, attach a trailer.
  await page.goto(`${ORG}/vehicles?search=${unit}`);
  await page.getByRole('row', { name: new RegExp(unit) }).click();
  await pick(page, 'Assign a driver', last);
  await detail.getByRole('button', { name: 'Assign', exact: true }).click();
  await confirm(page, 'Assign');
  await expect(detail.getByText(`Ada ${last}`).first()).toBeVisible();

  await pick(page, 'Pair a device', `Tracker ${id}`);
  await detail.getByRole('button', { name: 'Pair', exact: true }).click();
  await confirm(page, 'Pair');
  await expect(detail.getByRole('button', { name: 'Unpair device' })).toBeVisible();

  await pick(page, 'Attach a trailer', 'T');
  await detail.getByRole('button', { name: 'Attach', exact: true }).click();
  await confirm(page, 'Attach');
  await expect(detail.getByRole('button', { name: /Detach trailer/ })).toBeVisible();
  await expect(detail.getByText(/driver assign|assign driver/i).first()).toBeVisible();
});

test('a CSV with one bad row imports the valid rows and lists the bad one', async ({ page }) => {
  const id = uniq();
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/vehicles`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const csv = [
    'unit_number,vin,make,year',
    `CSV-${id}-1,${freshVin()},Volvo,2022`,
    `CSV-${id}-2,NOT-A-VIN,Mack,2021`,
    `CSV-${id}-3,${freshVin()},Peterbilt,2020`,
  ].join('\n');
  await page.locator('input[type=file]').setInputFiles({ name: 'fleet.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByText('2 valid', { exact: true })).toBeVisible();
  await expect(page.getByText('1 with errors')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Row errors' }).getByRole('cell', { name: '3', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Import 2 valid rows' }).click();
  await page.getByLabel('Search Vehicles').fill(`CSV-${id}`);
  await expect(page.getByRole('row', { name: new RegExp(`CSV-${id}`) })).toHaveCount(2);
});

test('quick-add from the profile drawer opens the add form', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/vehicles`);
  await page.getByRole('button', { name: 'Open profile' }).click();
  await page
    .getByRole('link', { name: 'Add trailer' })
    .or(page.getByRole('button', { name: 'Add trailer' }))
    .first()
    .click();
  await expect(page).toHaveURL(/addTrailer=true/);
  await expect(page.getByRole('form', { name: 'Trailer form' })).toBeVisible();
});

test('a user without ASSET_CREATE sees no add button and is denied vehicle-add', async ({ page }) => {
  await signIn(page, DISPATCHER);
  await page.goto(`${ORG}/vehicles`);
  await expect(page.getByRole('heading', { name: 'Vehicles' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add vehicle' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import CSV' })).toHaveCount(0);
  await page.goto(`${ORG}/vehicle-add`);
  await expect(page).toHaveURL(/access-denied/);
});
