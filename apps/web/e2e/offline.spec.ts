import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { fillLogin } from './helpers.ts';
import { driverLogin, minutesOf, officeApi, periodsUntil } from './driver-helpers.ts';

// Issue 44: the driver's app is installable and opens with no network after the first visit: the
// service worker serves the app shell and the screens' code, and the driver's data comes from what
// the app last fetched.

/**
 * The network switched off or on for the page's context. Chromium 150 (Debian's, under Playwright
 * 1.65) forgets the emulated offline state for `navigator.onLine` in each new document while the
 * requests stay blocked, so a page reloaded offline thought it was online: after a reload offline
 * the page is told again (`tellOffline`), on a DevTools session of its own that going online clears.
 */
const told = new WeakMap<Page, CDPSession>();
async function tellOffline(page: Page): Promise<void> {
  let cdp = told.get(page);
  if (!cdp) told.set(page, (cdp = await page.context().newCDPSession(page)));
  await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}
async function setNetwork(page: Page, online: boolean): Promise<void> {
  await page.context().setOffline(!online);
  const cdp = told.get(page);
  if (online && cdp) await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}
async function reloadOffline(page: Page): Promise<void> {
  await page.reload();
  await tellOffline(page);
}

test.use({ serviceWorkers: 'allow', viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, timezoneId: 'America/Chicago' });

test('the driver screen reloads and still works with the network gone', async ({ page, request }) => {
  const office = await officeApi(request);
  const account = await office.driverAccount();
  await page.goto('/');
  // Installable: the manifest names the app, its icons and a standalone display.
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ name: 'Fleetline', display: 'standalone', start_url: '/' });
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  await fillLogin(page, account.email, account.password);
  await expect(page).toHaveURL('/driver');
  await expect(page.getByText('Current status')).toBeVisible();
  // The worker has the app cached and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  });
  await setNetwork(page, false);
  await reloadOffline(page);
  await expect(page.getByRole('heading', { name: /Hello, Dana/ })).toBeVisible();
  await expect(page.getByText('Current status')).toBeVisible();
  // It says it is offline, once, instead of an error per request.
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByText('Oops, something happened')).toHaveCount(0);
  // The app closed and opened again (the tab's cache gone), still offline: the last synced days
  // come back from the device.
  await page.evaluate(() => sessionStorage.clear());
  await reloadOffline(page);
  await expect(page.getByTestId('current-status')).toBeVisible();
  await expect(page.getByText('Current status')).toBeVisible();
  // The network returns: the banner goes.
  await setNetwork(page, true);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

// A 1x1 PNG: the photo of a defect.
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);

async function drawSignature(page: Page) {
  const pad = page.getByTestId('dvir-signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let x = 20; x <= 200; x += 20) await page.mouse.move(box.x + x, box.y + box.height / 2 + (x % 40 === 0 ? 25 : -25));
  await page.mouse.up();
}

/** A duty-status change through the buttons; answers the phone's time of the confirmation. */
async function changeStatus(page: Page, name: string, place: string): Promise<number> {
  await page.getByRole('group', { name: 'Change duty status' }).getByRole('button', { name }).click();
  const dialog = page.getByRole('dialog', { name: `Change to ${name}` });
  // No signal and no truck fix: the driver types where they are.
  const location = dialog.getByLabel('Location');
  if (await location.isVisible().catch(() => false)) await location.fill(place);
  const before = await page.evaluate(() => Date.now());
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  return before;
}

test.describe('records made without signal', () => {
  test.use({ geolocation: { latitude: 41.5, longitude: -88.1 }, permissions: ['geolocation'] });

  test('are kept at their times, counted in the clocks, and stored once when the network returns, a forced resend too', async ({ page, request }) => {
    test.setTimeout(120_000);
    const office = await officeApi(request);
    const me = await office.driverAccount();
    const truck = await office.vehicle();
    await office.assign(truck.id, me.driver.id);
    await office.importPeriods(me.driver.id, periodsUntil(Date.now() - 10 * 60_000, [['OFF', 10]]));
    // The phone's clock runs 6 minutes behind, so that jumping it forward later shows the clocks
    // counting while every record stays in the server's past.
    await page.clock.install({ time: Date.now() - 6 * 60_000 });
    await driverLogin(page, me);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    const todayId = (
      (await (await request.get(`${office.org}/drivers/${me.driver.id}/hos_log/current-day`, { headers: office.headers })).json()) as { id: string }
    ).id;

    // The network goes; the page reloads and still works.
    await setNetwork(page, false);
    await reloadOffline(page);
    const status = page.getByTestId('current-status');
    await expect(status).toHaveText('Off duty');
    const banner = page.getByTestId('offline-banner');

    // Two status changes: shown at once, kept on the phone.
    const sleeper = await changeStatus(page, 'Sleeper berth', 'Pilot truck stop, Joliet IL');
    await expect(status).toHaveText('Sleeper berth');
    await expect(banner).toContainText('Offline: 1 record waiting');
    const onDuty = await changeStatus(page, 'On duty', 'Pilot truck stop, Joliet IL');
    await expect(status).toHaveText('On duty');
    await expect(banner).toContainText('Offline: 2 records waiting');

    // A pre-trip inspection with a photographed defect and a drawn signature.
    const card = page.getByTestId('inspection-card');
    await card.getByRole('button', { name: 'Start pre-trip' }).click();
    const form = page.getByTestId('dvir-form');
    const horn = form.getByRole('group', { name: 'Horn' });
    await horn.getByRole('button', { name: 'Defect' }).click();
    await horn.getByLabel('What is wrong').fill('Horn weak');
    await horn.getByRole('switch', { name: /Affects safe operation/ }).click();
    await horn.locator('input[type="file"]').setInputFiles({ name: 'horn.png', mimeType: 'image/png', buffer: PNG });
    await expect(horn.getByRole('img', { name: 'Photo 1 of Horn' })).toBeVisible();
    await form.getByRole('button', { name: 'Rest pass' }).click();
    await drawSignature(page);
    const signedAt = await page.evaluate(() => Date.now());
    await form.getByRole('button', { name: 'Sign report' }).click();
    await expect(form).toHaveCount(0);
    await expect(banner).toContainText('Offline: 3 records waiting');

    // The clocks keep counting on the phone: On duty since the change, the 14-hour window runs.
    const windowLeft = page.locator('[data-clock="Window"] [data-testid="clock-left"]');
    await expect(windowLeft).toHaveText(/^1[34]:\d\d$/);
    const windowBefore = minutesOf(await windowLeft.innerText());
    expect(windowBefore).toBeGreaterThanOrEqual(13 * 60 + 55);
    await page.clock.fastForward('06:00');
    await expect.poll(async () => windowBefore - minutesOf(await windowLeft.innerText()), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    // A reload keeps them (IndexedDB), still offline.
    await reloadOffline(page);
    await expect(status).toHaveText('On duty');
    await expect(banner).toContainText('Offline: 3 records waiting');
    // The roadside view opens from what was last synced, and says when that was.
    await page.getByRole('main').getByRole('link', { name: 'Roadside inspection' }).click();
    await expect(page.getByTestId('roadside-synced')).toContainText('Offline: these records were last synced');
    await expect(page.getByRole('radio', { name: 'Today' })).toBeChecked();
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
    await page.getByRole('main').getByRole('link', { name: 'My day' }).click();
    await expect(status).toHaveText('On duty');

    // The network returns: sent in order, then "Sent".
    await setNetwork(page, true);
    await expect(banner).toContainText('Sent: 3 records', { timeout: 30_000 });
    const day = await office.logDay(todayId);
    const changes = day.events.filter((e) => e.eventType === 1 && (e.status === 'SB' || e.status === 'ON'));
    expect(changes.map((e) => [e.status, Math.abs(Date.parse(e.at) - (e.status === 'SB' ? sleeper : onDuty)) < 2_000])).toEqual([
      ['SB', true],
      ['ON', true],
    ]);
    const reports = (await (await request.get(`${office.org}/dvirs?assetId=${truck.id}`, { headers: office.headers })).json()) as {
      content: Array<{ inspectedAt: string; kind: string; defects: Array<{ imageIds: string[] }>; signature: { imageId: string | null } }>;
    };
    expect(reports.content).toHaveLength(1);
    expect(reports.content[0]).toMatchObject({ kind: 'PRE_TRIP', signature: { imageId: expect.any(String) } });
    expect(reports.content[0]!.defects[0]!.imageIds).toHaveLength(1);
    expect(Math.abs(Date.parse(reports.content[0]!.inspectedAt) - signedAt)).toBeLessThan(5_000);

    // A resend forced: the server stores the change, the answer is lost; the phone sends it again.
    await setNetwork(page, false);
    const off = await changeStatus(page, 'Off duty', 'Pilot truck stop, Joliet IL');
    let lost = 0;
    await page.route('**/hos_event', async (route) => {
      if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
      lost++;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await setNetwork(page, true);
    await expect(banner).toContainText('Sent: 1 record', { timeout: 40_000 });
    expect(lost).toBe(1);
    const after = (await office.logDay(todayId)).events.filter((e) => e.eventType === 1 && e.status === 'OFF' && Math.abs(Date.parse(e.at) - off) < 2_000);
    expect(after).toHaveLength(1);
  });
});

test.describe('messages without signal', () => {
  test('a conversation never opened says it loads when the signal returns, and a message written then keeps its time', async ({ page, request }) => {
    test.setTimeout(120_000);
    const office = await officeApi(request);
    const me = await office.driverAccount();
    // The phone's clock runs 4 minutes behind the server's: the message's time is the phone's, minutes
    // before it reaches the server (issue 66: written 10:27:56, stored 10:31:27).
    await page.clock.install({ time: Date.now() - 4 * 60_000 });
    await driverLogin(page, me);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });

    // No signal, and the conversation was never opened on this phone: it is not known, not empty.
    await setNetwork(page, false);
    await reloadOffline(page);
    await page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('link', { name: 'Messages' }).click();
    await expect(page.getByTestId('messages-offline')).toHaveText(
      'Offline: the messages will load when the signal returns. You can write to dispatch now: your message is kept on this phone and sent then.',
    );
    await expect(page.getByText('No messages yet.')).toHaveCount(0);

    // The driver writes all the same: kept on the phone, with the time it was written.
    await page.getByRole('textbox', { name: 'Message to dispatch' }).fill('Leaving the yard, no signal here');
    const writtenAt = await page.evaluate(() => Date.now());
    await page.getByRole('button', { name: 'Send message' }).click();
    const waiting = page.locator('[data-testid="message"][data-waiting]');
    await expect(waiting).toContainText('Waiting for signal');
    await expect(page.getByTestId('offline-banner')).toContainText('Offline: 1 record waiting');

    // The signal returns: the conversation loads, the message is sent once, at the time it was written.
    await setNetwork(page, true);
    const stored = page.locator('[data-testid="message"]:not([data-waiting])');
    await expect(stored).toContainText('Leaving the yard, no signal here', { timeout: 30_000 });
    await expect(waiting).toHaveCount(0);
    await expect(page.getByTestId('messages-offline')).toHaveCount(0);
    const res = await request.get(`${office.org}/messages?driverId=${me.driver.id}`, { headers: office.headers });
    expect(res.status(), await res.text()).toBe(200);
    const { content } = (await res.json()) as { content: Array<{ body: string; sentAt: string; receivedAt: string }> };
    expect(content.map((m) => m.body)).toEqual(['Leaving the yard, no signal here']);
    expect(Math.abs(Date.parse(content[0]!.sentAt) - writtenAt)).toBeLessThan(2_000);
    expect(Date.parse(content[0]!.receivedAt) - Date.parse(content[0]!.sentAt)).toBeGreaterThan(3 * 60_000);
    // It says when it reached dispatch.
    await expect(stored.getByTestId('message-received')).toContainText('Received');
  });
});
