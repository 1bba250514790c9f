import { expect, test, type APIRequestContext } from '@playwright/test';
import { ACCOUNTS, login, seriousA11yViolations, signIn } from './helpers.ts';

// The log screens of issue 15 on records imported through the API for a driver of our own (the demo
// fleet's records may overlap anything we would import for its drivers).
test.describe.configure({ timeout: 120_000 });
// axe is injected as a script tag, which the app's CSP would block.
test.use({ bypassCSP: true });

const H = 3_600_000;
type Part = [status: 'OFF' | 'SB' | 'D' | 'ON', hours: number];

/** Contiguous periods from a wall-clock start in Central Daylight Time (UTC-5). */
function periods(startLocal: string, ...parts: Part[]) {
  let ms = Date.parse(`${startLocal}:00-05:00`);
  return parts.map(([status, hours]) => ({ status, start: new Date(ms).toISOString(), end: new Date((ms += hours * H)).toISOString() }));
}

interface Setup {
  lastName: string;
  logs: Array<{ id: string; date: string }>;
}

/** A new driver in America/Chicago with two imported days: 12 October (clean) and 13 October (12 hours of driving). */
async function driverWithLogs(request: APIRequestContext): Promise<Setup> {
  const auth = await request.post('/api/v1/auth/authenticate', { data: { email: ACCOUNTS.admin.email, password: ACCOUNTS.admin.password } });
  expect(auth.ok()).toBe(true);
  const { accessToken, user } = (await auth.json()) as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const org = `/api/v1/organizations/${user.organization.id}`;
  const lastName = `Logtest${Date.now().toString(36)}`;
  const created = await request.post(`${org}/drivers`, {
    headers,
    data: { firstName: 'Rosa', lastName, licenseNumber: `L${Date.now().toString(36).toUpperCase()}`, licenseState: 'TX', homeTimeZone: 'America/Chicago' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const driver = (await created.json()) as { id: string };
  const body = {
    source: 'Playwright ELD',
    periods: periods(
      '2026-10-12T00:00',
      ['OFF', 6],
      ['ON', 1],
      ['D', 5],
      ['OFF', 0.5],
      ['D', 4],
      ['ON', 1],
      ['OFF', 6.5],
      // 13 October: 12 hours of driving, the 12th over the 11-hour limit (18:30-19:30).
      ['OFF', 6],
      ['ON', 1],
      ['D', 8],
      ['OFF', 0.5],
      ['D', 4],
      ['ON', 0.5],
      ['OFF', 4],
    ),
  };
  const imported = await request.post(`${org}/drivers/${driver.id}/hos_log/import`, { headers, data: body });
  expect(imported.status(), await imported.text()).toBe(201);
  const { logs } = (await imported.json()) as { logs: Array<{ id: string; date: string }> };
  return { lastName, logs };
}

test('the log list shows a driver day with hours and badges, and the log day reads as an inspector expects it', async ({ page, request }) => {
  const { lastName, logs } = await driverWithLogs(request);
  const oct13 = logs.find((l) => l.date === '2026-10-13')!;
  const oct12 = logs.find((l) => l.date === '2026-10-12')!;
  await login(page, 'admin');

  // The list for 13 October, searched to our driver: hours per status, one violation, problems.
  await page.goto(`/hos/logs?date=2026-10-13&search=${lastName}`);
  await expect(page.getByRole('heading', { name: 'HoS Logs' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Log day' })).toHaveValue('2026-10-13');
  const row = page.getByRole('row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  const cells = row.getByRole('cell');
  await expect(cells.nth(2)).toHaveText('10:30'); // off duty
  await expect(cells.nth(3)).toHaveText('0:00'); // sleeper
  await expect(cells.nth(4)).toHaveText('12:00'); // driving
  await expect(cells.nth(5)).toHaveText('1:30'); // on duty
  await expect(row.getByLabel('1 violation')).toBeVisible();
  await expect(row.getByText('Uncertified')).toBeVisible();
  await expect(row.getByText('No shipping document')).toBeVisible();
  await expect(row.getByText('No trailer')).toBeVisible();
  expect(await seriousA11yViolations(page), 'log list').toEqual([]);

  // The previous-day button moves the list (and the URL) to 12 October: no violation there.
  await page.getByRole('button', { name: 'Previous day' }).click();
  await expect(page).toHaveURL(/date=2026-10-12/);
  await expect(row.getByLabel('No violations')).toBeVisible();
  await expect(row.getByRole('cell').nth(4)).toHaveText('9:00');
  await page.goBack();
  await expect(page).toHaveURL(/date=2026-10-13/);

  // Sorting by driving (the menu phones use too) puts a 12-hour driving day first.
  await page.goto('/hos/logs?date=2026-10-13');
  await page.getByRole('combobox', { name: 'Sort by' }).click();
  await page.getByRole('option', { name: 'Most driving' }).click();
  await expect(page).toHaveURL(/sort=driving%2Cdesc|sort=driving,desc/);
  await expect(page.getByRole('row').nth(1).getByRole('cell').nth(4)).toHaveText('12:00');
  await expect(page.getByRole('columnheader', { name: 'Driving' })).toHaveAttribute('aria-sort', 'descending');
  await page.goto(`/hos/logs?date=2026-10-13&search=${lastName}`);

  // A row opens the log day.
  await row.getByRole('link', { name: `Rosa ${lastName}` }).click();
  await expect(page).toHaveURL(`/hos/logs/${oct13.id}`);
  await expect(page.getByRole('heading', { name: `Rosa ${lastName}, Tuesday, October 13, 2026` })).toBeVisible();
  const header = page.getByRole('region', { name: 'Log header' });
  await expect(header.getByText('America/Chicago (CDT), day starts 00:00')).toBeVisible();
  await expect(header.getByText('Demo Freight')).toBeVisible();
  await expect(page.getByText('Uncertified', { exact: true })).toBeVisible();

  // The grid's totals add up to the day.
  const grid = page.getByRole('img', { name: /Record of duty status, 2026-10-13/ });
  await expect(grid).toHaveAttribute(
    'aria-label',
    'Record of duty status, 2026-10-13: Off duty 10:30, Sleeper berth 0:00, Driving 12:00, On duty 1:30, total 24:00. 1 violation.',
  );
  await expect(grid.locator('text').filter({ hasText: /^24:00$/ })).toHaveCount(1);

  // The violation, and the events with their origin and annotation.
  const violations = page.getByRole('table', { name: 'Violation list' });
  await expect(violations.getByRole('row').filter({ hasText: 'Driving limit' })).toContainText('6:30 PM');
  const events = page.getByRole('table', { name: 'Events' });
  await expect(events.getByRole('row').filter({ hasText: '6:00:00 AM' })).toContainText('On duty');
  await expect(events.getByRole('row').filter({ hasText: '7:00:00 AM' })).toContainText('Driving');
  await expect(events.getByRole('row').filter({ hasText: '7:00:00 AM' })).toContainText('Imported from Playwright ELD');
  expect(await seriousA11yViolations(page), 'log day').toEqual([]);

  // Previous and next day.
  await page.getByRole('link', { name: 'Previous day' }).click();
  await expect(page).toHaveURL(`/hos/logs/${oct12.id}`);
  await expect(page.getByRole('heading', { name: /Monday, October 12, 2026/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /Record of duty status, 2026-10-12/ })).toHaveAttribute(
    'aria-label',
    /Driving 9:00, On duty 2:00, total 24:00\.$/,
  );
  await page.getByRole('link', { name: 'Next day' }).click();
  await expect(page).toHaveURL(`/hos/logs/${oct13.id}`);

  // A violation link (?at=) highlights the violation and the event in force.
  await page.goto(`/hos/logs/${oct13.id}?at=2026-10-13T23:45:00.000Z`);
  await expect(violations.locator('tr[aria-current="true"]')).toContainText('Driving limit');
  await expect(events.locator('tr[data-highlight]')).toContainText('3:30:00 PM');
});

test('an office edit is proposed to the driver and shown waiting beside the original, the server names a bad field, and a day prints on one Letter page', async ({
  page,
  request,
}) => {
  const { logs } = await driverWithLogs(request);
  const oct13 = logs.find((l) => l.date === '2026-10-13')!;
  await signIn(page, 'admin');
  await page.goto(`/hos/logs/${oct13.id}`);
  const events = page.getByRole('table', { name: 'Events' });

  // The on-duty event at 7:30 PM becomes off duty.
  await events.getByRole('button', { name: 'Edit On duty at 7:30:00 PM' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit duty status' });
  await expect(dialog.getByLabel(/^Time/)).toHaveValue('2026-10-13T19:30');
  await expect(dialog).toContainText('The change goes to the driver, who accepts or rejects it');
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Off duty' }).click();
  await dialog.getByLabel('Annotation').fill('no');
  await dialog.getByRole('button', { name: 'Propose edit' }).click();
  await expect(dialog.getByText('Annotation must be at least 4 characters')).toBeVisible();
  // A time before the previous status: the server's message shows on the field.
  await dialog.getByLabel('Annotation').fill('Unloaded early, went off duty');
  await dialog.getByLabel(/^Time/).fill('2026-10-13T05:00');
  await dialog.getByRole('button', { name: 'Propose edit' }).click();
  await expect(dialog.getByText('Time must stay between the previous and the next duty status')).toBeVisible();
  await dialog.getByLabel(/^Time/).fill('2026-10-13T19:30');
  await dialog.getByRole('button', { name: 'Propose edit' }).click();
  await expect(dialog).toBeHidden();

  // Appendix A 4.4.4.2.6: the proposal waits for the driver; the original stays in force, not struck through.
  const proposed = events.locator('tr[data-proposal="pending"]');
  await expect(proposed).toHaveCount(1);
  await expect(proposed).toContainText('Unloaded early, went off duty');
  await expect(proposed).toContainText('Off duty');
  await expect(proposed).toContainText('Other user');
  await expect(proposed).toContainText('Proposed');
  await expect(proposed.getByText('waiting for the driver')).toHaveCount(1);
  await expect(events.locator('tr[data-replaced]')).toHaveCount(0);
  // The proposal sits right under the record it would replace.
  const rows = events.locator('tbody tr');
  const at = (await rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-proposal')))).indexOf('pending');
  expect(await rows.nth(at - 1).textContent()).toContain('On duty');
  await expect(page.getByRole('img', { name: /Record of duty status/ })).toHaveAttribute(
    'aria-label',
    /Off duty 10:30, Sleeper berth 0:00, Driving 12:00, On duty 1:30, total 24:00/,
  );

  // Print: no app shell, no buttons, one Letter page.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('img', { name: /Record of duty status/ })).toBeVisible();
  const pdf = await page.pdf({ format: 'Letter', printBackground: false });
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? [];
  expect(pages.length).toBe(1);
});

test('an office edit that changes only the status keeps the time to the second, so two events in one minute stay apart', async ({ page, request }) => {
  const auth = await request.post('/api/v1/auth/authenticate', { data: { email: ACCOUNTS.admin.email, password: ACCOUNTS.admin.password } });
  const { accessToken, user } = (await auth.json()) as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const org = `/api/v1/organizations/${user.organization.id}`;
  const created = await request.post(`${org}/drivers`, {
    headers,
    data: {
      firstName: 'Omar',
      lastName: `Seconds${Date.now().toString(36)}`,
      licenseNumber: `S${Date.now().toString(36).toUpperCase()}`,
      licenseState: 'TX',
      homeTimeZone: 'America/Chicago',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const driver = (await created.json()) as { id: string };
  // On duty for 30 seconds at 6:00 AM, then driving from 6:00:30: two events in the same minute.
  const body = { source: 'Playwright ELD', periods: periods('2026-10-12T00:00', ['OFF', 6], ['ON', 30 / 3600], ['D', 2], ['OFF', 16 - 30 / 3600]) };
  const imported = await request.post(`${org}/drivers/${driver.id}/hos_log/import`, { headers, data: body });
  expect(imported.status(), await imported.text()).toBe(201);
  const { logs } = (await imported.json()) as { logs: Array<{ id: string; date: string }> };

  await signIn(page, 'admin');
  await page.goto(`/hos/logs/${logs.find((l) => l.date === '2026-10-12')!.id}`);
  await page.getByRole('table', { name: 'Events' }).getByRole('button', { name: 'Edit Driving at 6:00:30 AM' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit duty status' });
  await expect(dialog.getByLabel(/^Time/)).toHaveValue('2026-10-12T06:00:30');
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'On duty' }).click();
  await dialog.getByLabel('Annotation').fill('Fuelling, not driving');
  await dialog.getByRole('button', { name: 'Propose edit' }).click();
  await expect(dialog).toBeHidden();
  const proposed = page.getByRole('table', { name: 'Events' }).locator('tr[data-proposal="pending"]');
  await expect(proposed).toHaveCount(1);
  await expect(proposed).toContainText('Fuelling, not driving');
  await expect(proposed).toContainText('6:00:30');
});

test('the log screens are accessible in the dark theme and fit a 375 px phone', async ({ page, request }) => {
  const { lastName, logs } = await driverWithLogs(request);
  const oct13 = logs.find((l) => l.date === '2026-10-13')!;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' }));
    localStorage.setItem('fleet.colorScheme', 'dark');
  });
  await login(page, 'admin');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/hos/logs?date=2026-10-13&search=${lastName}`);
  await expect(page.getByRole('link', { name: `Rosa ${lastName}` })).toBeVisible();
  expect(await seriousA11yViolations(page), 'log list, dark, phone').toEqual([]);
  await page.getByRole('link', { name: `Rosa ${lastName}` }).click();
  await expect(page).toHaveURL(`/hos/logs/${oct13.id}`);
  await expect(page.getByRole('img', { name: /Record of duty status/ })).toBeVisible();
  expect(await seriousA11yViolations(page), 'log day, dark, phone').toEqual([]);
  // Nothing but the grid's and the tables' own scrollers is wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // The grid's box is no scroller at 375 px. On a screen narrower than the grid's least width it
  // scrolls, and takes the focus so that a keyboard can scroll it.
  const gridBox = page.getByRole('img', { name: /Record of duty status/ }).locator('xpath=..');
  await expect(gridBox).not.toHaveAttribute('tabindex');
  await page.setViewportSize({ width: 300, height: 800 });
  await expect(gridBox).toHaveAttribute('tabindex', '0');
  expect(await gridBox.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await seriousA11yViolations(page), 'log day, dark, 300 px').toEqual([]);
});
