import { expect, test } from '@playwright/test';
import { fillLogin } from './helpers.ts';
import { officeApi } from './driver-helpers.ts';

// Issue 44: the driver's app is installable and opens with no network after the first visit: the
// service worker serves the app shell and the screens' code, and the driver's data comes from what
// the app last fetched.

test.use({ serviceWorkers: 'allow', viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, timezoneId: 'America/Chicago' });

test('the driver screen reloads and still works with the network gone', async ({ page, context, request }) => {
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
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: /Hello, Dana/ })).toBeVisible();
  await expect(page.getByText('Current status')).toBeVisible();
  // It says it is offline, once, instead of an error per request.
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByText('Oops, something happened')).toHaveCount(0);
  // The network returns: the banner goes.
  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});
