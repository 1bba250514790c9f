import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { hosApi, periodsUntil } from './hos-clocks-helpers.ts';
import { ADMIN, pick, signIn } from './registry-helpers.ts';

// Issue 28, decision 0140: the office browser is in Tokyo, the organization and its drivers in
// Chicago. "Today" is the user's day (profile zone, else the organization's), HoS times are the
// driver's home-terminal times, and every time says its zone; none of it follows the browser.

test.use({ timezoneId: 'Asia/Tokyo' });
test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** The admin's profile through the API: the spec restores the zone it changes. */
async function adminProfile(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/authenticate', { data: ADMIN });
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: { id: string; organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const url = `/api/v1/organizations/${user.organization.id}/users/${user.id}`;
  const read = async () =>
    (await (await request.get(url, { headers })).json()) as {
      firstName: string;
      lastName: string;
      email: string;
      position: string | null;
      phone: string | null;
      timeZone: string | null;
    };
  return {
    read,
    setZone: async (timeZone: string | null) => {
      const p = await read();
      const r = await request.put(url, {
        headers,
        data: { firstName: p.firstName, lastName: p.lastName, email: p.email, position: p.position ?? '', phone: p.phone ?? '', timeZone: timeZone ?? '' },
      });
      expect(r.ok(), await r.text()).toBe(true);
    },
  };
}

/** Today's calendar date in a zone (YYYY-MM-DD). */
const dayIn = (zone: string, now = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

test('with the browser in Tokyo, the dashboard counts Chicago’s today, opens the same list, and a violation reads the same with its zone in the list and on its log day', async ({
  page,
  request,
}) => {
  const profile = await adminProfile(request);
  const original = (await profile.read()).timeZone;
  // No profile zone: the organization's (Chicago) applies.
  await profile.setZone(null);
  try {
    await violationsAgree(page, request);
  } finally {
    await profile.setZone(original);
  }
});

async function violationsAgree(page: Page, request: APIRequestContext) {
  const stamp = Date.now().toString(36);
  const api = await hosApi(request);
  // Driving for 11.5 hours until now: over the 11-hour limit for the last half hour, today in Chicago.
  const d = await api.driver('Tomo', `Zone${stamp}`);
  await api.importPeriods(
    d.id,
    periodsUntil(Date.now(), [
      ['ON', 0.5],
      ['D', 11.5],
    ]),
  );
  const [v] = await api.violations(`driverId=${d.id}&rule=DRIVING_LIMIT`);
  expect(v).toBeTruthy();

  await signIn(page, ADMIN);
  await page.goto('/dashboard?group=all');
  const counter = page.getByTestId('counter-violationsToday');
  await expect(counter).toBeVisible();
  const chicagoToday = dayIn('America/Chicago');
  // The header names the day and zone the counters use: the organization's, not the browser's.
  await expect(page.getByText(`in America/Chicago`).first()).toBeVisible();
  await expect(page.getByText(/As of \d{1,2}:\d{2} [AP]M C[SD]T/).first()).toBeVisible();
  const n = Number(await counter.getAttribute('data-value'));
  expect(n).toBeGreaterThan(0);
  await counter.click();
  await expect(page).toHaveURL(new RegExp(`/hos/violations\\?from=${chicagoToday}&to=${chicagoToday}`));
  await expect(page.getByText(new RegExp(`of ${n}\\b`)).first()).toBeVisible();

  // The driver's violation in the list: its start in Chicago time, said so.
  await page.goto(`/hos/violations?from=${chicagoToday}&to=${chicagoToday}&driver=${d.id}&rule=DRIVING_LIMIT`);
  const row = page
    .getByRole('table', { name: 'Violations' })
    .getByRole('row')
    .filter({ hasText: `Tomo Zone${stamp}` });
  await expect(row).toHaveCount(1);
  const listStart = (await row.getByRole('cell').nth(2).innerText()).trim();
  expect(listStart).toMatch(/\d{1,2}:\d{2} [AP]M C[SD]T$/);
  const chicagoClock = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', minute: '2-digit', hour12: true }).format(
    new Date(v!.start),
  );
  expect(listStart).toContain(chicagoClock);

  // The same violation on the log day reads the same clock and zone.
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/hos/logs/${v!.logId}`));
  const dayRow = page.getByRole('table', { name: 'Violation list' }).getByRole('row').filter({ hasText: 'Driving limit' }).first();
  await expect(dayRow).toBeVisible();
  const dayStart = (await dayRow.getByRole('cell').nth(2).innerText()).trim();
  expect(dayStart).toMatch(/C[SD]T$/);
  expect(listStart.endsWith(dayStart)).toBe(true);
}

test('a changed profile zone changes the times shown, and HoS times stay the driver’s', async ({ page, request }) => {
  const profile = await adminProfile(request);
  const original = (await profile.read()).timeZone;
  await profile.setZone(null);
  try {
    await signIn(page, ADMIN);
    await page.goto('/my-account');
    await pick(page, 'Time zone', 'New York');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved').first()).toBeVisible();
    expect((await profile.read()).timeZone).toBe('America/New_York');

    // The dashboard's day and clock are New York's now.
    await page.goto('/dashboard?group=all');
    await expect(page.getByText('in America/New_York').first()).toBeVisible();
    await expect(page.getByText(/As of \d{1,2}:\d{2} [AP]M E[SD]T/).first()).toBeVisible();
    // The activity log shows the profile change in New York time.
    await page.goto('/settings/activity-log');
    await expect(page.getByText(/\d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2} [AP]M E[SD]T/).first()).toBeVisible();
    // The violations list keeps the drivers' home-terminal times (demo drivers are in Chicago or
    // Denver), never the viewer's New York.
    await page.goto('/hos/violations');
    const starts = page.getByRole('table', { name: 'Violations' }).getByRole('row').nth(1).getByRole('cell').nth(2);
    await expect(starts).toHaveText(/ [CMP][SD]T$/);
  } finally {
    await profile.setZone(original);
  }
});
