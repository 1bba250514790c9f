import { expect, test } from '@playwright/test';
import { hosApi, HOUR, periodsFrom } from './hos-clocks-helpers.ts';
import { signIn } from './helpers.ts';
import { ADMIN } from './registry-helpers.ts';

test.describe.configure({ timeout: 120_000 });

/** The instant of Chicago's local midnight `daysAgo` days before today (the log day's start, period start 00:00). */
function chicagoMidnight(daysAgo: number): number {
  const now = new Date();
  const offset = /GMT([+-]\d+)/.exec(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', timeZoneName: 'shortOffset' }).format(now))![1]!;
  const local = new Date(now.getTime() + Number(offset) * HOUR);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - daysAgo) - Number(offset) * HOUR;
}

test('a Canadian day short of its 10 hours off (s. 14) is a row of the violations list and a finding on its log day', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const api = await hosApi(request);
  const driver = await api.driver('Cora', `Short${stamp}`, { ruleset: 'CA_SOUTH_CYCLE_1' });
  // 8 h off, 10 h driving, then 5 h on duty after the last driving and 1 h off: 9 h off, no driving past a limit.
  await api.importPeriods(
    driver.id,
    periodsFrom(chicagoMidnight(3), [
      ['OFF', 8],
      ['D', 10],
      ['ON', 5],
      ['OFF', 11],
    ]),
  );

  await signIn(page, ADMIN);
  await page.goto(`/hos/violations?driver=${driver.id}`);
  const table = page.getByRole('table', { name: 'Violations' });
  const rows = table.getByRole('row').filter({ hasText: `Short${stamp}` });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Less than 10 h off in the day (Canada)');
  await expect(rows.first()).toContainText('1:00 short');

  // The row opens the log day, which lists the finding above its (empty) violation table.
  await rows.first().click();
  await expect(page).toHaveURL(/\/hos\/logs\//);
  const findings = page.getByRole('list', { name: 'Findings of the day' });
  await expect(findings).toContainText('Less than 10 hours off duty in the day (Canada)');
  await expect(findings).toContainText('short by 1:00');
  await expect(page.getByRole('heading', { name: 'Violations (1)' })).toBeVisible();
});
