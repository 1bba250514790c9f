import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import type { SafetyEvent, SafetySeverity } from '@fleet/api-contract';
import { officeApi } from './driver-helpers.ts';
import { fillLogin, login, signIn } from './helpers.ts';

// Issue 47, the coaching loop in a browser. The browser tests' demo has no history (SIMULATOR=0), so
// each test drives a fresh truck with a fresh driver through ingest, as a phone reports it at 1 Hz:
// a harsh acceleration and two harsh brakings, estimated from GPS by the safety follower. The office's
// safety manager goes from the dashboard's card to the inbox (severity first), opens an event (its
// place, speed trace, source), asks for coaching with the keyboard, and follows the driver to their
// score, whose formula adds up from its parts, with the events behind the points; then a driver on a
// 375 px phone acknowledges that coaching and disputes another event.

const SEVERITY_RANK: Record<SafetySeverity, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };

/** km/h each second: 70, brake at about 6 m/s² to a stop, pull away at about 4 m/s² to 60, and brake again. */
const SPEEDS = [70, 70, 48, 26, 4, 0, 0, 0, 15, 30, 45, 60, 60, 38, 16, 0, 0];

/**
 * A fresh driver (with a sign-in) assigned to a fresh truck whose tracker reports SPEEDS at 1 Hz from
 * now on, in rural Illinois; waits for the three events the safety follower derives. `t0` is when the
 * track starts: its events lie in the future until it has been driven.
 */
async function drivenTrack(request: APIRequestContext) {
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const truck = await office.vehicle();
  await office.assign(truck.id, account.driver.id);
  const uniqueId = `e2e-safety-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Phone ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const paired = await request.post(`${office.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${truck.id}`, { headers: office.headers });
  expect(paired.ok(), await paired.text()).toBe(true);
  const t0 = Date.now() + 1_000;
  let lon = -89.9;
  for (const [i, kmh] of SPEEDS.entries()) {
    const r = await request.get(
      `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${((t0 + i * 1000) / 1000).toFixed(0)}&lat=40.5&lon=${lon.toFixed(6)}&speed=${(kmh / 1.852).toFixed(3)}`,
    );
    expect(r.status()).toBe(200);
    lon += kmh / 3.6 / (111_320 * Math.cos((40.5 * Math.PI) / 180));
  }
  let events: SafetyEvent[] = [];
  await expect
    .poll(
      async () => {
        const res = await request.get(`${office.org}/safety/events?driverId=${account.driver.id}&status=NEW&size=20`, { headers: office.headers });
        events = ((await res.json()) as { content: SafetyEvent[] }).content;
        return events.map((e) => e.type).sort();
      },
      { timeout: 15_000 },
    )
    .toEqual(['HARSH_ACCELERATION', 'HARSH_BRAKING', 'HARSH_BRAKING']);
  return { office, account, truck, events, t0, driven: t0 + SPEEDS.length * 1000 };
}

/** Waits until the track has been driven: the screens that end their period now count its events from then. */
const untilDriven = async (driven: number) => new Promise((r) => setTimeout(r, Math.max(0, driven + 1_000 - Date.now())));

/** "−9.98" or "0" of a table cell, as a number of points. */
const points = (text: string) => Number(text.replace('−', '-').trim());

test.describe('the office', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('reviews an event from the inbox, asks for coaching, and reads the score its formula explains', async ({ page, request }) => {
    const { account, events, driven } = await drivenTrack(request);
    const driverName = `${account.driver.firstName} ${account.driver.lastName}`;
    await login(page, 'admin');

    // The dashboard's card: the fleet's score (a dash under 100 miles) and the events waiting.
    const card = page.getByTestId('dashboard-safety');
    await expect(card.getByTestId('dashboard-safety-score')).toHaveText(/^(\d+|—)$/);
    await card.getByRole('link', { name: 'Open Safety' }).click();

    // The inbox: events needing review, the most severe first.
    await expect(page).toHaveURL(/\/safety$/);
    const table = page.getByRole('table', { name: 'Safety events' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const rank = async () =>
      ((await table.locator('[data-severity]').evaluateAll((els) => els.map((e) => e.getAttribute('data-severity')))) as SafetySeverity[]).map(
        (x) => SEVERITY_RANK[x],
      );
    expect(await rank()).toEqual([...(await rank())].sort((a, b) => b - a));

    // Filtered to the driver: their three events, each waiting for review.
    await page.getByRole('combobox', { name: 'Driver' }).selectOption({ label: driverName });
    await expect(table.locator('tbody tr')).toHaveCount(3);
    await expect(table.locator('[data-status="NEW"]')).toHaveCount(3);
    expect(await rank()).toEqual([...(await rank())].sort((a, b) => b - a));

    // An event: where it happened, its speed around it, who, and where the figures come from.
    await table.locator('tbody tr').first().click();
    await expect(page).toHaveURL(/\/safety\/events\/[0-9a-f-]{36}$/);
    const eventId = page.url().split('/').at(-1)!;
    expect(events.map((e) => e.id)).toContain(eventId);
    await expect(page.getByRole('region', { name: 'Where the event happened' })).toBeVisible();
    await expect(page.getByTestId('speed-trace')).toBeVisible();
    const facts = page.getByTestId('safety-event-facts');
    await expect(facts.getByTestId('safety-event-source')).toContainText('Estimated from GPS');
    await expect(facts.getByTestId('counts-in-score')).toHaveText('Counts in the score');
    await expect(facts).toContainText(/\d+ mph → \d+ mph/);

    // Needs coaching, from the keyboard: a coach (the reviewer by default), due in 14 days.
    const needsCoaching = page.getByRole('group', { name: 'Review actions' }).getByRole('button', { name: 'Needs coaching' });
    await needsCoaching.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Ask for coaching' });
    await expect(dialog.getByRole('combobox', { name: 'Coach' })).toHaveValue(/\S/);
    await expect(dialog).toContainText('Due in 14 days');
    await dialog.getByLabel('Note').fill('Talk through following distance in town');
    await dialog.getByRole('button', { name: 'Ask for coaching' }).click();
    await expect(dialog).toBeHidden();
    await expect(facts.locator('[data-status]')).toHaveText('Needs coaching');
    await expect(facts).toContainText('Coach');
    await expect(page.getByText('Talk through following distance in town')).toBeVisible();

    // The driver's score (once the track has been driven): the formula is its parts with their numbers.
    await untilDriven(driven);
    await facts.getByRole('link', { name: driverName }).click();
    await expect(page).toHaveURL(/\/safety\/scores\/drivers\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { name: driverName })).toBeVisible();
    const formula = page.getByTestId('score-formula');
    const text = (await formula.getByTestId('score-formula-text').textContent()) ?? '';
    expect(text).toMatch(/^100 − \(.+\) = ([\d.]+|—)$/);
    const rows = formula.locator('tbody tr');
    let sum = 0;
    for (const row of await rows.all()) {
      const cells = await row.locator('td').allTextContents();
      const p = points(cells.at(-1)!);
      sum += p;
      // Each behaviour that cost points is a term of the formula: weight × rate.
      if (p < 0) expect(text).toContain(`${cells[3]} × ${cells[2]!.split(' ')[0]}`);
    }
    const lost = points((await formula.locator('tfoot th').last().textContent()) ?? '');
    expect(Math.abs(sum - lost)).toBeLessThan(0.05);
    // The driver's events are counted by behaviour.
    await expect(formula.locator('tr[data-behaviour="HARSH_ACCELERATION"] td').nth(1)).toHaveText('1');
    await expect(formula.locator('tr[data-behaviour="HARSH_BRAKING"] td').nth(1)).toHaveText('2');
    // Three events in well under a mile: not scored under 100 miles, as the score says.
    await expect(page.getByTestId('score-summary').getByTestId('score-figure')).toHaveText('—');
    await expect(page.getByTestId('score-summary')).toContainText('under 100 mi in this period');

    // The events behind the points lead back to the event just coached.
    const behind = page.getByTestId('score-events');
    await expect(behind.locator('a[href^="/safety/events/"]')).toHaveCount(3);
    await behind.locator(`a[href="/safety/events/${eventId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/safety/events/${eventId}$`));

    // A notification's link to the event opens it.
    await page.goto(`/safety?event=${eventId}`);
    await expect(page).toHaveURL(new RegExp(`/safety/events/${eventId}$`));
    await expect(page.getByTestId('safety-event-facts').locator('[data-status]')).toHaveText('Needs coaching');

    // The scores: the fleet's, and every driver's.
    await page.getByRole('navigation', { name: 'Safety screens' }).getByRole('link', { name: 'Scores' }).click();
    await expect(page.getByTestId('fleet-score').getByTestId('score-figure')).toHaveText(/^(\d+|—)$/);
    // Found by name among the fleet's drivers (a full run has made hundreds; the table shows 30 a page).
    await page.getByLabel('Search Driver scores').fill(driverName);
    await expect(page.getByRole('table', { name: 'Driver scores' }).getByRole('link', { name: driverName })).toBeVisible();
  });
});

test.describe('the driver on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('acknowledges a coaching session and disputes an event', async ({ page, request }) => {
    // The office asks for coaching on one of the driver's events.
    const { office, account, events, driven } = await drivenTrack(request);
    const [coached, disputed] = events as [SafetyEvent, SafetyEvent];
    const me = (await (await request.get('/api/v1/users/me', { headers: office.headers })).json()) as { id: string };
    const review = await request.patch(`${office.org}/safety/events/${coached.id}`, {
      headers: office.headers,
      data: { status: 'NEEDS_COACHING', coachId: me.id, note: 'Speed through town' },
    });
    expect(review.status(), await review.text()).toBe(200);

    await page.goto('/');
    await fillLogin(page, account.email, account.password);
    await expect(page).toHaveURL(/\/driver$/);
    await untilDriven(driven);
    await page.reload();

    // The card on the driver's home: the score (a dash under 100 miles) and the coaching waiting.
    const card = page.getByTestId('driver-safety-card');
    await expect(card.getByTestId('driver-safety-to-acknowledge')).toHaveText('1 coaching to acknowledge');
    await card.getByRole('link', { name: 'See my events' }).click();
    await expect(page).toHaveURL(/\/driver\/safety$/);
    await expect(page.getByTestId('driver-safety-event')).toHaveCount(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // Acknowledge the coaching session.
    const coachedCard: Locator = page.locator(`[data-event-id="${coached.id}"]`);
    await expect(coachedCard.locator('[data-status]')).toHaveText('Needs coaching');
    await expect(coachedCard).toContainText('Speed through town');
    await coachedCard.getByRole('button', { name: 'Acknowledge coaching' }).click();
    await expect(coachedCard).toContainText('You acknowledged the coaching on');
    await expect(coachedCard.getByRole('button', { name: 'Acknowledge coaching' })).toHaveCount(0);

    // Dispute another event: a note is required.
    const disputedCard = page.locator(`[data-event-id="${disputed.id}"]`);
    await disputedCard.getByRole('button', { name: 'Dispute' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dispute this event' });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toContainText('Write why you dispute the event');
    await dialog.getByLabel('Your note').fill('Road works: a flagger stopped me');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toBeHidden();
    await expect(disputedCard).toContainText('You disputed this event on');
    await expect(disputedCard).toContainText('Road works: a flagger stopped me');

    // The office sees the dispute on the event.
    const seen = (await (await request.get(`${office.org}/safety/events/${disputed.id}`, { headers: office.headers })).json()) as SafetyEvent;
    expect(seen.disputeNote).toBe('Road works: a flagger stopped me');
  });
});

test('the safety manager schedules the weekly safety scores per vehicle by e-mail', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/reports/subscriptions');
  await page.getByRole('button', { name: 'Schedule a report' }).click();
  const form = page.getByRole('form', { name: 'Scheduled report form' });
  await form.getByLabel('Report').selectOption('SAFETY_SCORES');
  // Scores cover every driver or vehicle: the form asks which, and no vehicle or driver filter.
  await form.getByLabel('Scores per').selectOption('vehicle');
  await expect(form.getByRole('combobox', { name: 'Vehicle' })).toHaveCount(0);
  await form.getByText('Weekly', { exact: true }).click();
  await form.getByLabel('Day of the week').selectOption('1');
  await form.getByLabel('Time of day').fill('06:00');
  await form.getByRole('button', { name: 'Save' }).click();

  const row = page.getByRole('table', { name: 'Scheduled reports' }).getByRole('row', { name: /Safety scores/ });
  await expect(row).toContainText('Per vehicle');
  await expect(row).toContainText('Weekly on Monday at 06:00');
  await row.getByRole('button', { name: 'Delete scheduled Safety scores report' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});
