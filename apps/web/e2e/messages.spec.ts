import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fillLogin, layoutSettled, signIn } from './helpers.ts';
import { officeApi } from './driver-helpers.ts';

// Issue 44 as people use it: a dispatcher and a driver (on a phone) write to each other with a
// photo, live; each sees the other's read mark; the unread counts in the office's menu and on the
// driver's home follow. Two browsers at once, the driver's at 375 px.

const PHOTO = path.resolve(import.meta.dirname, '../public/pwa-192.png');

test('a dispatcher and a driver exchange messages with a photo, live, each seeing the other read them', async ({ page, browser, request }) => {
  // Two browsers and some thirty steps: on a loaded 2-core machine it ran out of the 60 s default
  // while waiting at a late step.
  test.slow();
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const name = `${account.driver.firstName} ${account.driver.lastName}`;

  // The driver signs in on a phone and opens the conversation from the home screen.
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, timezoneId: 'America/Chicago', hasTouch: true, isMobile: true });
  const driver = await phone.newPage();
  await driver.goto('/');
  await fillLogin(driver, account.email, account.password);
  await expect(driver).toHaveURL('/driver');
  await driver.getByRole('link', { name: 'Write to dispatch' }).click();
  await expect(driver).toHaveURL('/driver/messages');
  await expect(driver.getByText('No messages yet.')).toBeVisible();

  // The dispatcher writes to the driver from the inbox, with a photo.
  await signIn(page, 'dispatcher');
  await page.goto('/messages');
  await page.getByRole('combobox', { name: 'Write to a driver' }).fill(name);
  await page.getByRole('option', { name }).click();
  await expect(page).toHaveURL(/\/messages\?driverId=/);
  const photo = page.waitForResponse((r) => r.url().endsWith('/messages/images') && r.status() === 201);
  await page.locator('input[type="file"]').setInputFiles(PHOTO);
  await photo;
  await expect(page.getByRole('img', { name: 'Attached photo 1' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message to the driver' }).fill('Dock 4 at the pick-up, gate code 4471');
  await page.getByRole('button', { name: 'Send message' }).click();
  const sent = page.getByTestId('message').filter({ hasText: 'Dock 4 at the pick-up' });
  // Sent, or already Read: the driver's screen is open and may read it before this expectation looks.
  await expect(sent).toContainText(/Sent|Read/);

  // It reaches the driver's open screen live with its photo; shown, it is read, and the office sees the mark live.
  const received = driver.getByTestId('message').filter({ hasText: 'Dock 4 at the pick-up, gate code 4471' });
  await expect(received).toBeVisible();
  await expect(received.getByRole('img', { name: 'Photo 1 of the message' })).toBeVisible();
  await expect(sent.getByLabel(/^Read /)).toBeVisible();

  // The driver answers (Enter sends); the office's menu counts it unread until the dispatcher opens it.
  await page.goto('/dashboard');
  await driver.getByRole('textbox', { name: 'Message to dispatch' }).fill('On my way, 20 minutes out');
  await driver.getByRole('textbox', { name: 'Message to dispatch' }).press('Enter');
  const answer = driver.getByTestId('message').filter({ hasText: 'On my way, 20 minutes out' });
  await expect(answer).toContainText('Sent');
  await expect(page.getByRole('link', { name: /^Messages 1$/ })).toBeVisible();
  // Once in a CI run (at load 13), the menu's click left the dashboard showing for the test's 3
  // minutes, the link focused: click again if the inbox has not opened within 10 s.
  await expect(async () => {
    await page.getByRole('link', { name: /^Messages/ }).click();
    await expect(page).toHaveURL(/\/messages/, { timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('link', { name: new RegExp(name) })
    .click();
  await expect(page.getByTestId('message').filter({ hasText: 'On my way, 20 minutes out' })).toBeVisible();
  await expect(answer.getByLabel(/^Read /)).toBeVisible();
  await expect(page.getByRole('link', { name: /^Messages 1$/ })).toHaveCount(0);

  // A message the driver has not opened yet shows on their home screen.
  await driver.goto('/driver');
  await expect(driver.getByRole('link', { name: 'Write to dispatch' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message to the driver' }).fill('Thanks!');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(driver.getByTestId('driver-unread-messages')).toHaveText('1 new');
  await phone.close();
});

test.describe('the messages screens at 375 px and on a desktop, light and dark', () => {
  test('the inbox and the driver screen render without overflow', async ({ page }) => {
    await signIn(page, 'dispatcher');
    await page.goto('/messages');
    await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      // Measured once the screen has laid itself out at the new width; the elements that stick out are named.
      await layoutSettled(page);
      const { overflow, outside } = await page.evaluate(() => {
        const root = document.documentElement;
        const outside = [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}" to ${Math.round(e.getBoundingClientRect().right)} px`);
        return { overflow: root.scrollWidth - root.clientWidth, outside };
      });
      expect(overflow, `${width} px: ${outside.join('; ')}`).toBeLessThanOrEqual(0);
    }
  });
});
