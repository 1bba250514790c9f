import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { hosApi, HOUR, periodsFrom } from './hos-clocks-helpers.ts';
import { seriousA11yViolations, signIn } from './helpers.ts';
import { ADMIN, pick } from './registry-helpers.ts';

test.describe.configure({ timeout: 120_000 });
// axe-core is injected into the page.
test.use({ bypassCSP: true });

test('violations list the imported drivers in rule words, filter, open the log day and export every page as CSV', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const api = await hosApi(request);
  // Three days ago at a whole hour: inside the default range of the last 7 days.
  const start = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
  // 12 h of driving without a break: over the 11-hour limit by 1 h, the 30-minute break missed for 4 h.
  const long = await api.driver('Otto', `Longhaul${stamp}`);
  await api.importPeriods(
    long.id,
    periodsFrom(start, [
      ['ON', 1],
      ['D', 12],
      ['OFF', 20],
    ]),
  );
  // Driving 16 h after coming on duty, with a break: only the 14-hour window, for 2 h.
  const late = await api.driver('Wanda', `Window${stamp}`);
  await api.importPeriods(
    late.id,
    periodsFrom(start, [
      ['ON', 5],
      ['D', 5],
      ['OFF', 1],
      ['D', 5],
      ['OFF', 20],
    ]),
  );

  await signIn(page, ADMIN);
  await page.goto('/hos/violations');
  await expect(page.getByRole('heading', { name: 'HoS Violations' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Violations' });
  await expect(
    table
      .getByRole('row')
      .filter({ hasText: `Otto Longhaul${stamp}` })
      .filter({ hasText: '11-hour driving limit' }),
  ).toHaveCount(1);
  await expect(
    table
      .getByRole('row')
      .filter({ hasText: `Wanda Window${stamp}` })
      .filter({ hasText: '14-hour window' }),
  ).toHaveCount(1);

  expect(await seriousA11yViolations(page)).toEqual([]);

  // The driver filter narrows the list to Otto's two violations, newest first, in words with their severity.
  await pick(page, 'Driver', `Longhaul${stamp}`);
  await expect(page).toHaveURL(new RegExp(`driver=${long.id}`));
  const rows = table.getByRole('row').filter({ hasText: `Longhaul${stamp}` });
  await expect(rows).toHaveCount(2);
  await expect(table.getByRole('row').filter({ hasText: `Window${stamp}` })).toHaveCount(0);
  await expect(rows.nth(0)).toContainText('11-hour driving limit');
  await expect(rows.nth(0)).toContainText('1:00');
  await expect(rows.nth(0)).toContainText('Violation');
  await expect(rows.nth(1)).toContainText('30-minute break');
  await expect(rows.nth(1)).toContainText('4:00');
  await expect(rows.nth(1)).toContainText('Egregious');

  // The rule filter keeps only the missed break.
  await page.getByRole('combobox', { name: 'Rule' }).click();
  await page.getByRole('option', { name: '30-minute break' }).click();
  await expect(page).toHaveURL(/rule=BREAK_REQUIRED/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('30-minute break');

  // A row opens the log day at the violation's start.
  const [breakViolation] = await api.violations(`driverId=${long.id}&rule=BREAK_REQUIRED`);
  await rows.first().click();
  await expect(page).toHaveURL(`/hos/logs/${breakViolation!.logId}?at=${encodeURIComponent(breakViolation!.start)}`);

  // The export holds every page of the filtered list: one row a page on screen, both in the file.
  await page.goto(`/hos/violations?driver=${long.id}&size=1`);
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('1–1 of 2')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^violations-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync((await file.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r\n/);
  expect(lines[0]).toBe('Driver,Rule,Rule code,Start (UTC),End (UTC),Duration (H:MM),Severity,Log day (home terminal),Home time zone,Ruleset');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(`Otto Longhaul${stamp},11-hour driving limit,DRIVING_LIMIT,`);
  expect(lines[1]).toContain(',1:00,Violation,');
  expect(lines[2]).toContain(`Otto Longhaul${stamp},30-minute break,BREAK_REQUIRED,`);

  // The picker refuses a range over 31 days and says so; the list keeps the last good answer.
  const from = new Date(Date.now() - 40 * 24 * HOUR);
  const day = `${from.getFullYear()}-${String(from.getMonth() + 1).padStart(2, '0')}-${String(from.getDate()).padStart(2, '0')}`;
  await page.getByRole('textbox', { name: 'From', exact: true }).fill(day);
  await expect(page.getByText('The range may cover at most 31 days')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await expect(rows).toHaveCount(1);

  // Clearing the filters lists every driver's violations again (other specs add theirs, so the count is at least ours).
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/driver=/);
  const total = page.getByText(/^1–1 of \d+$/);
  await expect(total).not.toHaveText('1–1 of 2');
  expect(Number((await total.textContent())!.split(' of ')[1])).toBeGreaterThanOrEqual(3);
});
