import { expect, test } from '@playwright/test';
import { login, signIn } from './helpers.ts';

// Issue 30 (decision 0154): an administrator creates the Traccar forwarding token, a forwarded
// unknown device is refused and listed, added in one click, and its engine data shows on the
// devices screen; the super administrator edits a device model's IO map as rows.

test.describe.configure({ timeout: 120_000 });

const ORG = '/settings/organization-settings';
const position = (uniqueId: string, attributes: Record<string, unknown>, secondsAgo: number) => ({
  position: {
    protocol: 'gt06',
    fixTime: new Date(Date.now() - secondsAgo * 1000).toISOString().replace('Z', '+00:00'),
    valid: true,
    latitude: 41.8781,
    longitude: -87.6298,
    altitude: 180,
    speed: 30,
    course: 90,
    accuracy: 0,
    attributes,
  },
  device: { id: 3, name: 'Forwarded', uniqueId, status: 'online' },
});

test('forwarding token, a refused id added in one click, engine data and GPS only on the devices screen', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const uniqueId = `86${Date.now()}`.slice(0, 15);
  const tcpId = `35${Date.now()}`.slice(0, 15);
  await login(page, 'admin');

  // The organization account: create the token, copy it once, with the traccar.xml lines.
  await page.goto(`${ORG}/organization-account`);
  await page.getByRole('button', { name: /Create forwarding token|Replace token/ }).click();
  const confirm = page.getByRole('button', { name: 'Replace token' }).last();
  const tokenBlock = page.getByTestId('forwarding-token');
  // A token made by an earlier test is replaced after a confirmation: wait for whichever comes (a bare
  // isVisible() right after the click raced the dialog's render and skipped the confirmation).
  const replace = page.getByRole('dialog').filter({ hasText: 'Replace the forwarding token?' });
  await expect(replace.or(tokenBlock)).toBeVisible();
  if (await replace.isVisible()) await confirm.click();
  await expect(tokenBlock).toBeVisible();
  const token = (await tokenBlock.textContent())!.trim();
  expect(token.length).toBeGreaterThan(30);
  const xml = page.getByTestId('traccar-xml');
  await expect(xml).toContainText(`<entry key='forward.header'>Authorization: ${token}</entry>`);
  await expect(xml).toContainText(/<entry key='forward.url'>http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ingest\/traccar<\/entry>/);
  await expect(xml).toContainText(`<entry key='forward.type'>json</entry>`);
  await expect(xml).toContainText(`<entry key='forward.retry.enable'>true</entry>`);

  // Traccar forwards a device nobody registered: refused, nothing stored, listed for this organization.
  const refused = await request.post('/api/v1/ingest/traccar', { headers: { authorization: token }, data: position(uniqueId, { ignition: true }, 120) });
  expect(refused.status()).toBe(404);
  // An id refused with no organization (the OsmAnd port, no token): never listed, only answered when typed in full.
  expect((await request.get(`/api/v1/ingest/osmand?id=${tcpId}&lat=41.1&lon=-87.1`)).status()).toBe(400);

  await page.goto(`${ORG}/devices`);
  const panel = page.getByRole('table', { name: 'Refused device ids' });
  await expect(panel.getByRole('row', { name: new RegExp(uniqueId) })).toContainText('traccar');
  await expect(panel).not.toContainText(tcpId);

  // The add form answers a typed id that tried to connect.
  await page.getByRole('button', { name: 'Add device' }).click();
  const form = page.getByRole('form', { name: 'Device form' });
  await form.getByLabel('Unique id (IMEI or serial)').fill(tcpId);
  await expect(form.getByTestId('tried-to-connect')).toContainText(/This id tried to connect at \d\d\/\d\d\/\d\d \d+:\d\d [AP]M [A-Z]{3}/);
  await form.getByRole('button', { name: 'Cancel' }).click();

  // One click adds the refused id with the form filled in.
  await panel.getByRole('button', { name: `Add ${uniqueId} as a device` }).click();
  await expect(form.getByLabel('Unique id (IMEI or serial)')).toHaveValue(uniqueId);
  await form.getByLabel('Name').fill(`Forwarded ${stamp}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('table', { name: 'Refused device ids' })).toBeHidden();

  // GPS only first: no engine odometer nor hours.
  expect(
    (
      await request.post('/api/v1/ingest/traccar', {
        headers: { authorization: `Bearer ${token}` },
        data: position(uniqueId, { motion: true, odometer: 12000 }, 90),
      })
    ).status(),
  ).toBe(200);
  await page.getByRole('textbox', { name: /Search/ }).fill(uniqueId);
  const row = page.getByRole('row', { name: new RegExp(`Forwarded ${stamp}`) });
  await expect(row).toContainText('GPS only: not an ELD');
  await row.click();
  const engine = page.getByLabel('Engine data', { exact: true });
  await expect(engine).toContainText('GPS only: not an ELD');
  await expect(page.getByTestId('engine-gpsOdometer')).toHaveAttribute('data-seen', 'yes');
  await expect(page.getByTestId('engine-engineHours')).toHaveAttribute('data-seen', 'no');

  // Then the engine's data: ignition, engine odometer and hours make it an ELD.
  const ecm = { ignition: true, obdOdometer: 250_000_000, hours: 3_600_000 * 4200, rpm: 1300, vin: '1FUJGLDR0NLBD1234', power: 27.5 };
  expect((await request.post('/api/v1/ingest/traccar', { headers: { authorization: token }, data: position(uniqueId, ecm, 60) })).status()).toBe(200);
  await page.reload();
  await expect(engine).toContainText('Engine connected');
  for (const n of ['ignition', 'vehicleOdometer', 'engineHours', 'rpm', 'vin', 'power'])
    await expect(page.getByTestId(`engine-${n}`)).toHaveAttribute('data-seen', 'yes');
  await expect(page.getByText('Protocol', { exact: true })).toBeVisible();
  await expect(page.getByText(/Last packet/)).toBeVisible();
});

test("the super administrator edits a device model's protocol and IO map as rows", async ({ page }) => {
  const name = `FMC650 ${Date.now().toString(36)}`;
  await signIn(page, 'superAdmin');
  await page.goto('/administration/device-models');
  await page.getByRole('button', { name: 'Add device model' }).click();
  const form = page.getByRole('form', { name: 'Device model form' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('combobox', { name: 'Protocol' }).fill('teltonika');
  await form.getByRole('combobox', { name: 'Protocol' }).press('Escape');
  await expect(form).toContainText('Teltonika FMB/FMC/FMM over TCP');
  await expect(form).toContainText('Empty: the Teltonika default map is used.');
  await form.getByRole('button', { name: 'Reset to the Teltonika default' }).click();
  const rows = form.getByRole('table', { name: 'IO map' }).getByRole('row');
  // The header and the default's 53 elements (the fault-code elements 30, 281 and 10493, issue 47's
  // safety elements 246-255, issue 68's fuel levels 48, 84 and 89, and issue 73's BLE, EYE and 1-Wire
  // sensors and driver cards among them).
  await expect(rows).toHaveCount(54);
  // A custom element, and a bad one refused before saving.
  await form.getByRole('button', { name: 'Add IO element' }).click();
  await form.getByLabel('IO id, row 54').fill('x1');
  await form.getByLabel('Attribute, row 54').fill('axleWeight');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toHaveText('Row 54: the IO id must be a number');
  await form.getByLabel('IO id, row 54').fill('390');
  await form.getByLabel('Multiplier, row 54').fill('0.1');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByRole('textbox', { name: /Search/ }).fill(name);
  await page.getByRole('row', { name: new RegExp(name) }).click();
  // Saved in IO id order: 390 comes after the 40 elements below it, before 10493 and the EYE sensors.
  await expect(form.getByLabel('IO id, row 41')).toHaveValue('390');
  await expect(form.getByLabel('Attribute, row 41')).toHaveValue('axleWeight');
  await expect(form.getByLabel('Multiplier, row 41')).toHaveValue('0.1');
  // The diagnostics list of refused ids is on this screen too.
  await expect(page.getByRole('heading', { name: 'Refused device ids (diagnostics)' })).toBeVisible();
});
