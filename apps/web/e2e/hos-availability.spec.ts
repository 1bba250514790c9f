import { expect, test, type Locator } from '@playwright/test';
import { hosApi, periodsUntil } from './hos-clocks-helpers.ts';
import { seriousA11yViolations, signIn } from './helpers.ts';
import { ADMIN, login } from './registry-helpers.ts';

test.describe.configure({ timeout: 120_000 });
// axe-core is injected into the page.
test.use({ bypassCSP: true });

const clock = (row: Locator, name: string) => row.locator(`[data-clock="${name}"]`);

test('availability shows each driver’s clocks as coloured bars with the time left, sorts by driving time left and counts down', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const api = await hosApi(request);
  // Each driver is driving now (the last imported status goes on), after a full day off.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const green = await api.driver('Gina', `${stamp}Alpha`);
  await api.importPeriods(
    green.id,
    periodsUntil(now, [
      ['OFF', 24],
      ['D', 1],
    ]),
  );
  const red = await api.driver('Rita', `${stamp}Bravo`);
  await api.importPeriods(
    red.id,
    periodsUntil(now, [
      ['OFF', 24],
      ['D', 5],
      ['OFF', 1],
      ['D', 5 + 40 / 60],
    ]),
  );
  const amber = await api.driver('Amos', `${stamp}Charlie`);
  await api.importPeriods(
    amber.id,
    periodsUntil(now, [
      ['OFF', 24],
      ['D', 5],
      ['OFF', 1],
      ['D', 4.5],
    ]),
  );

  // The page's clock is Playwright's, so the countdown can be moved on without waiting.
  await page.clock.install({ time: new Date() });
  await signIn(page, ADMIN);
  await page.goto(`/hos/availability?search=${stamp}&sort=lastName,asc`);
  const table = page.getByRole('table', { name: 'Driver availability' });
  const rows = table.getByRole('row').filter({ hasText: stamp });
  const rowOf = (last: string) => table.getByRole('row').filter({ hasText: last });
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(`Gina ${stamp}Alpha`);

  // Green: 10 h of driving left (11 h less 1 h), its bar green; the break is the smallest clock.
  const g = rowOf(`${stamp}Alpha`);
  await expect(clock(g, 'Drive')).toHaveAttribute('data-level', 'ok');
  await expect(clock(g, 'Drive')).toHaveClass(/hos-clock-ok/);
  await expect(clock(g, 'Drive').getByTestId('clock-left')).toHaveText(/^(9:5\d|10:00)$/);
  await expect(clock(g, 'Break').getByTestId('clock-left')).toHaveText(/^(6:5\d|7:00)$/);
  await expect(g.getByTestId('available-now')).toHaveText(/^(6:5\d|7:00)$/);
  await expect(g.getByRole('progressbar', { name: /^Drive: / })).toBeVisible();
  await expect(g).toContainText('Driving');
  // Amber: 1 h 30 min of driving left.
  const a = rowOf(`${stamp}Charlie`);
  await expect(clock(a, 'Drive')).toHaveAttribute('data-level', 'low');
  await expect(clock(a, 'Drive')).toHaveClass(/hos-clock-low/);
  await expect(clock(a, 'Drive').getByTestId('clock-left')).toHaveText(/^(1:2\d|1:30)$/);
  await expect(clock(a, 'Drive')).toContainText('Low');
  // Red: 20 min left.
  const r = rowOf(`${stamp}Bravo`);
  await expect(clock(r, 'Drive')).toHaveAttribute('data-level', 'critical');
  await expect(clock(r, 'Drive')).toHaveClass(/hos-clock-critical/);
  await expect(clock(r, 'Drive').getByTestId('clock-left')).toHaveText(/^(0:1\d|0:20)$/);
  await expect(clock(r, 'Drive')).toContainText('Critical');
  await expect(r.getByTestId('available-now')).toHaveAttribute('data-level', 'critical');

  // Sorting by driving time left: least first, then most first.
  await table.getByRole('button', { name: 'Available now' }).click();
  // The screen's default order: the URL drops it.
  await expect(page).not.toHaveURL(/sort=/);
  await expect(rows.nth(0)).toContainText(`${stamp}Bravo`);
  await expect(rows.nth(1)).toContainText(`${stamp}Charlie`);
  await expect(rows.nth(2)).toContainText(`${stamp}Alpha`);
  await table.getByRole('button', { name: 'Available now' }).click();
  await expect(page).toHaveURL(/sort=availableDriveMs%2Cdesc/);
  await expect(rows.nth(0)).toContainText(`${stamp}Alpha`);
  await expect(rows.nth(2)).toContainText(`${stamp}Bravo`);

  expect(await seriousA11yViolations(page)).toEqual([]);

  // Ten minutes later the clocks of the drivers at the wheel have counted down locally, without a
  // reload: the list's refetch (it asks every minute) is held unanswered, so only the countdown moves.
  let refetches = 0;
  await page.route('**/api/v1/organizations/*/availability?*', () => {
    refetches++;
  });
  const before = await clock(r, 'Drive').getByTestId('clock-left').textContent();
  await page.clock.fastForward('10:00');
  await expect.poll(() => refetches).toBeGreaterThan(0);
  await expect(clock(r, 'Drive').getByTestId('clock-left')).toHaveText(/^0:0\d$/);
  expect(before).toMatch(/^0:[12]\d$/);
  await expect(clock(a, 'Drive').getByTestId('clock-left')).toHaveText(/^1:1\d$/);
  await expect(clock(g, 'Drive').getByTestId('clock-left')).toHaveText(/^9:[45]\d$/);
});

test('on a 375 px phone in the dark theme both HoS screens show cards that pass axe', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const api = await hosApi(request);
  const d = await api.driver('Milo', `${stamp}Phone`);
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  // Driving now with 20 min left, and a 1-hour breach of the 11-hour limit two days ago.
  await api.importPeriods(
    d.id,
    periodsUntil(now, [
      ['ON', 1],
      ['D', 12],
      ['OFF', 24],
      ['D', 5],
      ['OFF', 1],
      ['D', 5 + 40 / 60],
    ]),
  );
  await page.setViewportSize({ width: 375, height: 800 });
  await login(page, ADMIN);
  const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  if ((await scheme()) !== 'dark') await page.getByTestId('theme-toggle').click();
  await expect.poll(scheme).toBe('dark');

  await page.goto(`/hos/availability?search=${stamp}`);
  const card = page
    .getByRole('list', { name: 'Driver availability' })
    .getByRole('listitem')
    .filter({ hasText: `${stamp}Phone` });
  await expect(card).toBeVisible();
  await expect(clock(card, 'Drive')).toHaveAttribute('data-level', 'critical');
  await expect(card.getByRole('progressbar', { name: /^Cycle: / })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.goto(`/hos/violations?driver=${d.id}`);
  const item = page.getByRole('list', { name: 'Violations' }).getByRole('listitem').filter({ hasText: '11-hour driving limit' });
  await expect(item).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await seriousA11yViolations(page)).toEqual([]);
});
