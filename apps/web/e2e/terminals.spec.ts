import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { driverLogin, officeApi } from './driver-helpers.ts';
import { ADMIN, ORG, signIn, uniq } from './registry-helpers.ts';

// Issue 46: logs with the right header. The organization's home terminals in settings; a driver
// picks one and the log's header shows its address in its zone; the safety manager downloads any
// driver's ELD file from the log page; a status change is located by the truck's recent fix.

const shots = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};
const scheme = async (page: Page, dark: boolean) => {
  const current = await page.locator('html').getAttribute('data-mantine-color-scheme');
  if ((current === 'dark') !== dark) await page.getByRole('button', { name: dark ? 'Switch to dark theme' : 'Switch to light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
};

test('an administrator adds a home terminal, gives it to a driver, whose log header shows its address and zone; a terminal in use is not deleted', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Reno ${uniq()} terminal`;
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/terminals`);
  await expect(page.getByRole('heading', { name: 'Home terminals' })).toBeVisible();
  // The demo's five terminals are there.
  for (const hub of ['Chicago terminal', 'Dallas terminal', 'Indianapolis terminal', 'Atlanta terminal', 'Los Angeles terminal'])
    await expect(page.getByText(hub, { exact: true })).toBeVisible();
  await shot(page, 'terminals-desktop-light');

  await page.getByRole('button', { name: 'Add terminal' }).click();
  const form = page.getByRole('form', { name: 'Terminal form' });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Name is a required field')).toBeVisible();
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Address').fill('1200 E Commercial Row');
  await form.getByLabel('City').fill('Reno');
  await form.getByLabel('State or province').selectOption('NV');
  await form.getByLabel('Postal code').fill('89512');
  await form.getByLabel('Time zone').selectOption('America/Los_Angeles');
  await shot(page, 'terminal-form-desktop-light');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('1200 E Commercial Row, Reno, NV 89512');
  await expect(row).toContainText('0 drivers');

  // A driver picks it: the zone is the terminal's.
  const api = await officeApi(request);
  const driver = (await (
    await request.post(`${api.org}/drivers`, {
      headers: api.headers,
      data: { firstName: 'Tess', lastName: `Okafor${uniq()}`, licenseNumber: `T${uniq()}${uniq()}`, licenseState: 'NV', homeTimeZone: 'America/Chicago' },
    })
  ).json()) as { id: string; lastName: string };
  await page.goto(`${ORG}/all-drivers?open=${driver.id}`);
  await page.getByRole('button', { name: 'Edit' }).first().click();
  const driverForm = page.getByRole('form', { name: 'Driver form' });
  await driverForm.getByLabel('Home terminal', { exact: true }).selectOption({ label: `${name} · Reno, NV` });
  await expect(driverForm.getByLabel('Home terminal time zone')).toHaveValue('America/Los_Angeles');
  await expect(driverForm.getByLabel('Home terminal time zone')).toBeDisabled();
  await expect(driverForm.getByText('1200 E Commercial Row, Reno, NV 89512')).toBeVisible();
  await shot(page, 'driver-form-terminal-desktop-light');
  await driverForm.getByRole('button', { name: 'Save' }).click();
  await expect(driverForm).toBeHidden();

  const day = (await (await request.get(`${api.org}/drivers/${driver.id}/hos_log/current-day`, { headers: api.headers })).json()) as { id: string };
  await page.goto(`/hos/logs/${day.id}`);
  const header = page.locator('section[aria-label="Log header"]');
  await expect(header).toContainText(`${name}, 1200 E Commercial Row, Reno, NV 89512`);
  await expect(header).toContainText('America/Los_Angeles');

  // The office downloads the driver's ELD file from the log page (HOS_READ): the file's carrier line has the terminal's offset.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download ELD file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^.{25}\.csv$/);
  const text = fs.readFileSync((await download.path())!, 'latin1');
  expect(text.startsWith('ELD File Header Segment:\r\n')).toBe(true);
  expect(text).toContain(`${driver.lastName},Tess,`);
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', timeZoneName: 'shortOffset' })
    .formatToParts(new Date())
    .find((p) => p.type === 'timeZoneName')!.value;
  const hours = String(Math.abs(Number(offset.replace('GMT', '')))).padStart(2, '0');
  expect(text.split('\r\n')[4]).toMatch(new RegExp(`^\\d+,[^,]+,[78],\\d{6},${hours},[0-9A-F]{2}$`));
  await shot(page, 'office-log-terminal-desktop-light');

  // In use: the delete asks first, and is refused in words.
  await page.goto(`${ORG}/terminals`);
  await expect(row).toContainText('1 driver');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirmDialog = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirmDialog).toContainText('1 driver belongs to it');
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} is the home terminal of 1 driver`).first()).toBeVisible();
  await expect(row).toBeVisible();
});

test('the terminals, the driver form and the office log page read well at 375 px and in the dark', async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await officeApi(request);
  const terminals = (await (await request.get(`${api.org}/terminals?size=50`, { headers: api.headers })).json()) as {
    content: Array<{ id: string; name: string }>;
  };
  const la = terminals.content.find((x) => x.name === 'Los Angeles terminal')!;
  const driver = (await (
    await request.post(`${api.org}/drivers`, {
      headers: api.headers,
      data: { firstName: 'Lupe', lastName: `Ibarra${uniq()}`, licenseNumber: `L${uniq()}${uniq()}`, licenseState: 'CA', homeTerminalId: la.id },
    })
  ).json()) as { id: string };
  const day = (await (await request.get(`${api.org}/drivers/${driver.id}/hos_log/current-day`, { headers: api.headers })).json()) as { id: string };
  await signIn(page, ADMIN);
  await page.goto(`${ORG}/terminals`);
  await expect(page.getByText('Los Angeles terminal', { exact: true })).toBeVisible();
  await scheme(page, true);
  await shot(page, 'terminals-desktop-dark');
  await page.getByRole('button', { name: /^Edit Los Angeles terminal/ }).click();
  await expect(page.getByRole('form', { name: 'Terminal form' })).toBeVisible();
  await shot(page, 'terminal-form-desktop-dark');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, 'terminals-375-dark');
  await scheme(page, false);
  await shot(page, 'terminals-375-light');
  await page.goto(`/hos/logs/${day.id}`);
  await expect(page.locator('section[aria-label="Log header"]')).toContainText('Los Angeles terminal, 2401 E Washington Blvd, Los Angeles, CA 90021');
  await expect(page.getByRole('button', { name: 'Download ELD file' })).toBeVisible();
  await shot(page, 'office-log-375-light');
  await scheme(page, true);
  await shot(page, 'office-log-375-dark');
  await page.goto(`${ORG}/all-drivers?open=${driver.id}`);
  await page.getByRole('button', { name: 'Edit' }).first().click();
  await expect(page.getByRole('form', { name: 'Driver form' }).getByLabel('Home terminal time zone')).toHaveValue('America/Los_Angeles');
  await shot(page, 'driver-form-375-dark');
});

test.describe('a driver whose truck reported seconds ago', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('changes status without typing a location: the record is located at the truck (the phone gives no position)', async ({ page, request }) => {
    const api = await officeApi(request);
    const me = await api.driverAccount();
    const truck = await api.vehicle();
    await api.assign(truck.id, me.driver.id);
    const uniqueId = `e2e-${uniq()}${Date.now().toString(36)}`;
    const gw = (await (await request.post(`${api.org}/gateways`, { headers: api.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } })).json()) as {
      id: string;
    };
    expect((await request.post(`${api.org}/gateways/${gw.id}/pair/${truck.id}`, { headers: api.headers })).ok()).toBe(true);
    // The tracker reports the parked truck (a fix may not predate its pairing).
    const fixAt = Math.ceil(Date.now() / 1000) + 1;
    expect((await request.get(`/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${fixAt}&lat=39.52960&lon=-119.81380&speed=0`)).status()).toBe(200);
    // The phone refuses its position, as when its owner does not share it.
    await page.addInitScript(() => {
      navigator.geolocation.getCurrentPosition = (_found, failed) =>
        failed?.({ code: 1, message: 'User denied Geolocation', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError);
    });
    await driverLogin(page, me);
    await page.getByRole('group', { name: 'Change duty status' }).getByRole('button', { name: 'On duty' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change to On duty' });
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Location' })).toHaveCount(0);
    await expect(dialog).toContainText("Your new status starts now, at the truck's position.");
    await shot(page, 'driver-change-truck-located-375-light');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('current-status')).toHaveText('On duty');
    const day = (await api.today(me.driver.id)) as unknown as {
      events: Array<{
        recordOrigin: string;
        status: string | null;
        latitude: number | null;
        longitude: number | null;
        locationDescription: string | null;
        vehicle: { id: string } | null;
      }>;
    };
    const mine = day.events.filter((e) => e.recordOrigin === 'DRIVER' && e.status === 'ON');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.latitude).toBeCloseTo(39.5296, 3);
    expect(mine[0]!.longitude).toBeCloseTo(-119.8138, 3);
    expect(mine[0]!.vehicle?.id).toBe(truck.id);
    expect(mine[0]!.locationDescription).toMatch(/NV/);
  });

  test('the roadside inspection view at 375 px keeps the avatar whole', async ({ page, request }) => {
    const api = await officeApi(request);
    const me = await api.driverAccount();
    await driverLogin(page, me);
    await page.getByRole('main').getByRole('link', { name: 'Roadside inspection' }).click();
    await expect(page).toHaveURL('/driver/inspection');
    await shot(page, 'roadside-375-light');
    const avatar = page.getByTestId('avatar-button');
    await expect(avatar).toBeVisible();
    const box = (await avatar.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(Math.abs(box.width - box.height)).toBeLessThan(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
