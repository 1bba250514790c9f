import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fr } from '../src/i18n/full-catalogues.ts';
import { readOutbox, screenshotsLightDark, seriousA11yViolations } from './helpers.ts';
import { driverLogin, officeApi, periodsUntil, sinceMidnight } from './driver-helpers.ts';
import { ADMIN, login } from './registry-helpers.ts';

// The Canadian roadside view (issue 72): a driver on a Canadian ruleset opens the roadside view and
// sees Canada's daily log (header, day and cycle totals, graph, records) for today and the previous
// 14 days, downloads its PDF and sends it to an officer's address; the same on a phone in French.

test.use({ geolocation: { latitude: 43.6532, longitude: -79.3832 }, permissions: ['geolocation'] });

async function canadianDriver(request: Parameters<typeof officeApi>[0]) {
  const api = await officeApi(request);
  const me = await api.driverAccount({ homeTimeZone: 'America/Toronto', ruleset: 'CA_SOUTH_CYCLE_1', licenseState: 'ON', firstName: 'Émilie' });
  // Two days of work behind a 40-hour rest (a cycle-1 reset), off duty for the last hour.
  const imported = await api.importPeriods(
    me.driver.id,
    periodsUntil(Date.now() - 60_000, [
      ['OFF', 40],
      ['ON', 1],
      ['D', 6],
      ['OFF', 10],
      ['ON', 1],
      ['D', 4],
      ['ON', 1],
      ['OFF', 1],
    ]),
  );
  return { ...me, logs: imported.logs };
}

async function openRoadside(page: Page) {
  await page.goto('/driver/inspection');
  await expect(page.getByTestId('roadside-ca-header')).toBeVisible();
}

test.describe('on a desktop and a phone', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a Canadian driver shows the Canadian daily log with 14 previous days, downloads the PDF and sends it to an officer', async ({ page, request }) => {
    test.setTimeout(120_000);
    const me = await canadianDriver(request);
    await driverLogin(page, me);
    await openRoadside(page);

    const header = page.getByTestId('roadside-ca-header');
    await expect(header).toBeVisible();
    for (const label of [
      'Driver',
      'Co-driver',
      'Carrier',
      'Principal place of business',
      'Home terminal',
      'Cycle',
      'Day starts',
      'Odometer at start',
      'Odometer at end',
      'Distance driven',
    ]) {
      await expect(header.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(header).toContainText(`Émilie ${me.driver.lastName}`);
    await expect(header).toContainText('Canada south, cycle 1');
    const cycle = header.getByTestId('roadside-ca-cycle');
    await expect(cycle).toContainText('On duty in the cycle');
    await expect(cycle).toContainText('Left in the cycle');
    await expect(cycle).toContainText('Since the last cycle reset');
    // 13 h on duty since the reset, 57 h left of cycle 1's 70.
    await expect(cycle).toContainText('13:00');
    await expect(cycle).toContainText('57:00');
    await expect(page.getByTestId('inspection-day').getByRole('img', { name: /Record of duty status/ })).toBeVisible();
    // The list holds the records of the day, so a drive shows where it began: the last one began
    // 6 h ago (4 h of driving, ended 2 h ago), in today's log (Toronto's day) unless midnight came
    // since, and then in yesterday's, checked after the tap below (yesterday also holds the drive
    // that began 23 h ago). CI at 04:16 in Toronto failed when this counted from its end.
    const drivingToday = sinceMidnight('America/Toronto') > (6 * 60 + 5) * 60_000;
    if (drivingToday) await expect(page.getByTestId('inspection-day').getByRole('list', { name: 'Events' })).toContainText('Driving');
    // Not the US view: no ELD output file comment, no 8-day picker.
    await expect(page.getByLabel('Output file comment')).toHaveCount(0);

    // Today and the previous 14 days; a tap on yesterday shows yesterday.
    const days = page.getByTestId('roadside-ca-day');
    await expect(days).toHaveCount(15);
    await expect(page.getByRole('heading', { name: 'Today and the previous 14 days' })).toBeVisible();
    const yesterday = (await days.nth(1).getAttribute('data-date'))!;
    await days.nth(1).getByRole('button').click();
    await expect(page.getByTestId('inspection-day')).toHaveAttribute('data-date', yesterday);
    await expect(days.nth(1)).toHaveAttribute('data-selected', 'true');
    if (!drivingToday) await expect(page.getByTestId('inspection-day').getByRole('list', { name: 'Events' })).toContainText('Driving');
    await screenshotsLightDark(page, 'i72-roadside-ca');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`daily-log-ca-${me.driver.lastName}-Emilie-${yesterday}.pdf`);
    expect(
      fs
        .readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    await page.getByRole('button', { name: 'Send by e-mail' }).click();
    const send = page.getByRole('dialog', { name: 'Send the daily log PDF' });
    await send.getByLabel("Officer's e-mail").fill('agent-at-mto');
    await send.getByRole('button', { name: 'Send' }).click();
    await expect(send.getByText('Email must be a valid email address')).toBeVisible();
    const officer = `agent.${Date.now()}@mto.example`;
    await send.getByLabel("Officer's e-mail").fill(officer);
    await send.getByRole('button', { name: 'Send' }).click();
    await expect(send).toBeHidden();
    const mail = (await readOutbox(officer)) as { subject: string; attachments?: Array<{ filename: string; contentType: string }> };
    expect(mail.subject).toContain(me.driver.lastName);
    expect(mail.attachments?.map((f) => f.contentType)).toEqual(['application/pdf']);
    expect(mail.attachments?.[0]?.filename).toContain(yesterday);
  });
});

test('the office downloads a Canadian driver’s daily log PDF from the log page', async ({ page, request }) => {
  const me = await canadianDriver(request);
  const day = me.logs.at(-1)!;
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, ADMIN);
  await page.goto(`/hos/logs/${day.id}`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Canadian daily log (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`daily-log-ca-${me.driver.lastName}-Emilie-${day.date}.pdf`);
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
});

test.describe('a phone in fr-CA', () => {
  test.use({
    locale: 'fr-CA',
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    timezoneId: 'America/Toronto',
    bypassCSP: true,
    colorScheme: 'dark',
  });

  test('the Canadian daily log speaks French on a 375 px phone without scrolling sideways, axe-clean in the dark', async ({ page, request }) => {
    test.setTimeout(120_000);
    const me = await canadianDriver(request);
    await driverLogin(page, me);
    await openRoadside(page);
    const header = page.getByTestId('roadside-ca-header');
    await expect(header.getByText(fr.roadsideCa.header.principalPlace, { exact: true })).toBeVisible();
    await expect(header.getByTestId('roadside-ca-cycle')).toContainText(fr.roadsideCa.cycleTitle);
    await expect(header.getByTestId('roadside-ca-cycle')).toContainText(fr.roadsideCa.sinceReset);
    await expect(page.getByRole('heading', { name: fr.roadsideCa.days })).toBeVisible();
    await expect(page.getByTestId('roadside-ca-day')).toHaveCount(15);
    await expect(page.getByRole('button', { name: fr.roadsideCa.download })).toBeVisible();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Axe-clean in the dark theme, as the US view is (driver.spec.ts).
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotsLightDark(page, 'i72-roadside-ca-fr');
  });
});
