import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { readOutbox, seriousA11yViolations } from './helpers.ts';
import { driverLogin, minutesOf, officeApi, periodsUntil } from './driver-helpers.ts';
import { ADMIN, login } from './registry-helpers.ts';

// The driver's side of the ELD (issue 16) on a 375 px phone: status, clocks, certification, the
// office's edit proposals, unidentified driving, the roadside inspection view and the ELD file.

// The phone gives its position to a status change (without one the driver types a location: driver-location.spec.ts).
test.use({
  viewport: { width: 375, height: 812 },
  hasTouch: true,
  isMobile: true,
  geolocation: { latitude: 41.8781, longitude: -87.6298 },
  permissions: ['geolocation'],
});

const HOUR = 3_600_000;

test('a driver signs in on a phone, changes status with a note, sees the clocks count down, and is refused the office screens', async ({ page, request }) => {
  const api = await officeApi(request);
  const me = await api.driverAccount({ yardMovesAllowed: false });
  // On duty for the last 2 hours (a pre-trip and loading), so the window has begun.
  await api.importPeriods(
    me.driver.id,
    periodsUntil(Date.now() - 60_000, [
      ['OFF', 10],
      ['ON', 2],
    ]),
  );
  await page.clock.install();
  await driverLogin(page, me);

  const status = page.getByTestId('current-status');
  await expect(status).toHaveText('On duty');
  const buttons = page.getByRole('group', { name: 'Change duty status' });
  await expect(buttons.getByRole('button', { name: 'Personal conveyance' })).toBeVisible();
  await expect(buttons.getByRole('button', { name: 'Yard moves' })).toHaveCount(0);
  await expect(buttons.getByRole('button', { name: 'Driving' })).toBeDisabled();
  // Big touch targets.
  const box = await buttons.getByRole('button', { name: 'Off duty' }).boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(64);

  await buttons.getByRole('button', { name: 'Off duty' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change to Off duty' });
  await dialog.getByLabel('Note (optional)').fill('no');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('A note must be at least 4 characters')).toBeVisible();
  await dialog.getByLabel('Note (optional)').fill('Lunch at the truck stop');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(status).toHaveText('Off duty');
  await expect(status).toHaveAttribute('data-status', 'OFF');

  await buttons.getByRole('button', { name: 'On duty' }).click();
  await page.getByRole('dialog', { name: 'Change to On duty' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(status).toHaveText('On duty');

  // The window counts down between two answers of the server (held here, so only the local clock moves).
  const windowLeft = page.locator('[data-clock="Window"] [data-testid="clock-left"]');
  const before = minutesOf(await windowLeft.innerText());
  expect(before).toBeLessThan(12 * 60);
  await page.route('**/hos_log/driver-status', () => undefined);
  await page.clock.fastForward('10:00');
  await expect.poll(async () => minutesOf(await windowLeft.innerText())).toBeLessThanOrEqual(before - 9);
  await page.unroute('**/hos_log/driver-status');

  // The graph grid of today shows the changes.
  await expect(page.getByRole('img', { name: /Record of duty status/ })).toBeVisible();

  // Only the driver's own screens: the office's are refused.
  for (const path of ['/hos/logs', '/hos/availability', '/hos/unidentified', '/map']) {
    await page.goto(path);
    await expect(page, path).toHaveURL('/access-denied');
  }
  // The dashboard, everyone's landing, sends a driver to their own home (3760a24).
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/driver');
  await page.goto('/driver');
  await page.getByTestId('hamburger').click();
  const menu = page.getByRole('navigation', { name: /menu/i }).first();
  await expect(menu.getByText('Roadside inspection')).toBeVisible();
  await expect(menu.getByText('Hours of Service')).toHaveCount(0);
});

test('a driver’s status change reaches the office’s availability screen within a second, without a reload', async ({ page, browser, request }) => {
  const api = await officeApi(request);
  const me = await api.driverAccount();
  await api.importPeriods(
    me.driver.id,
    periodsUntil(Date.now() - 60_000, [
      ['OFF', 10],
      ['ON', 1],
    ]),
  );
  // The office, on a desktop in another browser, watches the driver's row.
  const office = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const desk = await office.newPage();
  await login(desk, ADMIN);
  await desk.goto(`/hos/availability?search=${encodeURIComponent(me.driver.lastName)}`);
  const row = desk.getByRole('table', { name: 'Driver availability' }).getByRole('row').filter({ hasText: me.driver.lastName });
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'ON');
  let reloads = 0;
  desk.on('framenavigated', (f) => {
    if (f === desk.mainFrame()) reloads++;
  });

  await driverLogin(page, me);
  await page.getByRole('group', { name: 'Change duty status' }).getByRole('button', { name: 'Off duty' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change to Off duty' });
  const sent = Date.now();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  // The screen asks on its own only every minute: the push is what brings the change.
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'OFF', { timeout: 5_000 });
  const ms = Date.now() - sent;
  test.info().annotations.push({ type: 'status change → office screen', description: `${ms} ms` });
  expect(reloads).toBe(0);
  await office.close();
});

test('a driver certifies a past day with the statement, and accepts one office edit and rejects another', async ({ page, request }) => {
  const api = await officeApi(request);
  const me = await api.driverAccount();
  const dayStart = Date.now() - 2 * 24 * HOUR;
  const { logs } = await api.importPeriods(
    me.driver.id,
    periodsUntil(dayStart + 12 * HOUR, [
      ['OFF', 6],
      ['ON', 1],
      ['D', 4],
      ['OFF', 1],
    ]),
  );
  const days = await Promise.all(logs.map((l) => api.logDay(l.id)));
  const day = days.find((d) => d.events.some((e) => e.status === 'ON'))!;
  const off = day.events.filter((e) => e.status === 'OFF').at(-1)!;
  const on = day.events.find((e) => e.status === 'ON')!;
  await api.proposeEdit(me.driver.id, day.id, off.id, { status: 'ON', at: off.at, annotation: 'Unloading, not off duty' });
  await api.proposeEdit(me.driver.id, day.id, on.id, {
    status: 'ON',
    at: new Date(Date.parse(on.at) - 30 * 60_000).toISOString(),
    annotation: 'Pre-trip began earlier',
  });

  await driverLogin(page, me);
  await page.getByRole('tab', { name: /Certify/ }).click();
  const waiting = page.getByTestId('uncertified-day');
  // The tab's code loads when it is first opened (issue 67): its days show a moment after the tap.
  await expect(waiting.first()).toBeVisible();
  const count = await waiting.count();
  expect(count).toBeGreaterThan(0);
  await waiting
    .first()
    .getByRole('button', { name: /^Certify / })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Certify / });
  await expect(dialog.getByTestId('certification-statement')).toHaveText(
    'I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct.',
  );
  await dialog.getByRole('button', { name: 'Agree' }).click();
  await expect(dialog).toBeHidden();
  await expect(waiting).toHaveCount(count - 1);

  await page.getByRole('tab', { name: /Edits/ }).click();
  const proposals = page.getByTestId('proposal');
  await expect(proposals).toHaveCount(2);
  const unloading = proposals.filter({ hasText: 'Unloading, not off duty' });
  // The original and the proposed record side by side.
  await expect(unloading.locator('[data-side="original"]')).toContainText('Off duty');
  await expect(unloading.locator('[data-side="proposed"]')).toContainText('On duty');
  await unloading.getByRole('button', { name: 'Accept' }).click();
  await expect(proposals).toHaveCount(1);
  const early = proposals.filter({ hasText: 'Pre-trip began earlier' });
  await early.getByRole('button', { name: 'Reject' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reject this edit?' });
  await confirm.getByLabel('Why (optional)').fill('I started at the usual time');
  await confirm.getByRole('button', { name: 'Reject edit' }).click();
  await expect(page.getByText('No edits to review')).toBeVisible();

  const states = await api.proposals(me.driver.id);
  expect(states.map((p) => [p.annotation, p.state]).sort()).toEqual([
    ['Pre-trip began earlier', 'REJECTED'],
    ['Unloading, not off duty', 'ACCEPTED'],
  ]);
});

test('once today is certified, "Certify today" is no longer offered', async ({ page, request }) => {
  const me = await (await officeApi(request)).driverAccount();
  await driverLogin(page, me);
  await page.getByRole('tab', { name: /Certify/ }).click();
  await page.getByRole('button', { name: 'Certify today' }).click();
  const dialog = page.getByRole('dialog', { name: /^Certify / });
  await dialog.getByRole('button', { name: 'Agree' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Today is certified')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Certify today' })).toHaveCount(0);
});

test('a driver claims unidentified driving on their truck, opens the inspection view, downloads and e-mails the ELD output file', async ({ page, request }) => {
  const api = await officeApi(request);
  const me = await api.driverAccount();
  const truck = await api.vehicle();
  await api.unidentifiedDrive(truck.id);
  await api.assign(truck.id, me.driver.id);

  await driverLogin(page, me);
  await page.getByRole('tab', { name: /Claim/ }).click();
  const segment = page.getByTestId('unidentified-segment');
  await expect(segment).toHaveCount(1);
  await expect(segment).toContainText(`Truck ${truck.unitNumber}`);
  await segment.getByRole('button', { name: 'This was me' }).click();
  const dialog = page.getByRole('dialog', { name: 'Claim this driving?' });
  await dialog.getByLabel('Note (optional)').fill('Forgot to log in');
  await dialog.getByRole('button', { name: 'Claim driving' }).click();
  await expect(page.getByText('No unidentified driving')).toBeVisible();
  expect((await api.unidentified(truck.id)).map((s) => s.state)).toEqual(['ASSIGNED']);
  // The claimed records are the driver's now, with origin "assumed from unidentified driver profile".
  const claimed = (await api.today(me.driver.id)).events.filter((e) => e.recordOrigin === 'UNIDENTIFIED');
  expect(claimed.map((e) => [e.status, e.recordStatus])).toEqual([
    ['D', 'ACTIVE'],
    ['ON', 'ACTIVE'],
  ]);

  // The roadside inspection view: today and the 7 days before, read-only.
  // The screen's own link (the side menu's, off screen on a phone, comes first when its group is open).
  await page.getByRole('main').getByRole('link', { name: 'Roadside inspection' }).click();
  await expect(page).toHaveURL('/driver/inspection');
  const shown = page.getByTestId('inspection-day');
  await expect(shown).toBeVisible();
  await expect(shown.getByRole('region', { name: 'Log header' }).or(shown.locator('section[aria-label="Log header"]'))).toContainText(me.driver.lastName);
  await expect(shown.getByRole('img', { name: /Record of duty status/ })).toBeVisible();
  await expect(shown.getByRole('list', { name: 'Events' })).toContainText('Driving');
  await expect(page.getByTestId('inspection-certification')).toBeVisible();
  // Nothing to edit here.
  await expect(shown.getByRole('button')).toHaveCount(0);

  await page.getByLabel('Output file comment').fill('Officer 4471');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^.{25}\.csv$/);
  const text = fs.readFileSync((await download.path())!, 'latin1');
  expect(text.startsWith('ELD File Header Segment:\r\n')).toBe(true);
  expect(text).toContain(',Officer 4471,');
  expect(text).toContain(`\r\n${truck.unitNumber},`);

  await page.getByRole('button', { name: 'Send by e-mail' }).click();
  const send = page.getByRole('dialog', { name: 'Send the ELD output file' });
  await send.getByLabel("Officer's e-mail").fill('not-an-address');
  await send.getByRole('button', { name: 'Send' }).click();
  await expect(send.getByText('Email must be a valid email address')).toBeVisible();
  const officer = `officer.${Date.now()}@fmcsa.example`;
  await send.getByLabel("Officer's e-mail").fill(officer);
  await send.getByRole('button', { name: 'Send' }).click();
  await expect(send).toBeHidden();
  const mail = await readOutbox(officer);
  expect(mail.subject).toContain('ELD output file');
});

test('the office sees unidentified driving, annotates one segment as nobody\u2019s and proposes another to a driver', async ({ page, request }) => {
  const api = await officeApi(request);
  const me = await api.driverAccount();
  const truck = await api.vehicle();
  const spare = await api.vehicle();
  await Promise.all([api.unidentifiedDrive(truck.id), api.unidentifiedDrive(spare.id)]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByLabel('Email').fill('admin@demofreight.test');
  await page.getByPlaceholder('min 8 characters').fill('DemoAdmin#2026');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/hos/unidentified');
  const table = page.getByRole('table', { name: 'Unidentified driving' });
  const testDrive = table.locator('tbody tr').filter({ hasText: spare.unitNumber });
  const driven = table.locator('tbody tr').filter({ hasText: truck.unitNumber });
  await expect(testDrive).toHaveCount(1);
  await expect(driven).toHaveCount(1);
  await testDrive.getByRole('button', { name: /^Annotate/ }).click();
  const note = page.getByRole('dialog', { name: "Not a driver's driving" });
  await note.getByLabel('Reason').fill('no');
  await note.getByRole('button', { name: 'Save annotation' }).click();
  await expect(note.getByText('Reason must be at least 4 characters')).toBeVisible();
  await note.getByLabel('Reason').fill('Shop test drive after brakes');
  await note.getByRole('button', { name: 'Save annotation' }).click();
  await expect(testDrive).toContainText('Not a driver');
  await expect(testDrive).toContainText('Shop test drive after brakes');
  await driven.getByRole('button', { name: /^Propose/ }).click();
  const propose = page.getByRole('dialog', { name: 'Propose to a driver' });
  await propose.getByRole('combobox', { name: 'Driver' }).fill(me.driver.lastName);
  await page.getByRole('option', { name: new RegExp(me.driver.lastName) }).click();
  await propose.getByRole('button', { name: 'Propose' }).click();
  await expect(driven).toContainText('Proposed');
  await expect(driven).toContainText(me.driver.lastName);
  expect((await api.proposals(me.driver.id)).map((p) => p.state)).toEqual(['PENDING']);
});

test.describe('accessibility', () => {
  // axe is injected as a script tag, which the app's CSP would block.
  test.use({ bypassCSP: true, colorScheme: 'dark' });

  test('the driver screens and the inspection view are axe-clean in the dark theme on a phone', async ({ page, request }) => {
    const api = await officeApi(request);
    const me = await api.driverAccount();
    await api.importPeriods(
      me.driver.id,
      periodsUntil(Date.now() - 60_000, [
        ['OFF', 10],
        ['ON', 1],
        ['D', 3],
        ['ON', 1],
      ]),
    );
    await driverLogin(page, me);
    await expect(page.getByRole('img', { name: /Record of duty status/ })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: /Certify/ }).click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto('/driver/inspection');
    await expect(page.getByTestId('inspection-day')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Nothing wider than the phone but the grid and tables' own scrollers.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
