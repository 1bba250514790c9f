import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import type { DriverSafety, SafetyEvent, SafetySeverity } from '@fleet/api-contract';
import { login } from './helpers.ts';

// Issue 47, the coaching loop in a browser on the demo data: the office's safety manager goes from the
// dashboard's card to the inbox (severity first), opens an event (its place, speed trace, source), asks
// for coaching with the keyboard, and follows the driver to their score, whose formula adds up to the
// score shown, with the events behind the points; then the demo driver, on a 375 px phone,
// acknowledges that coaching and disputes another event.

const SEVERITY_RANK: Record<SafetySeverity, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };
const DRIVER = { email: 'driver@demofreight.test', password: 'Driver#2026' };

async function signIn(request: APIRequestContext, who: { email: string; password: string }) {
  const res = await request.post('/api/v1/auth/authenticate', { data: who });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { accessToken: string; user: { id: string; organization: { id: string } } };
  return { headers: { authorization: `Bearer ${body.accessToken}` }, org: `/api/v1/organizations/${body.user.organization.id}`, userId: body.user.id };
}

/** "−9.98" or "0" of a table cell, as a number of points. */
const points = (text: string) => Number(text.replace('−', '-').trim());

test.describe('the office', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('reviews an event from the inbox, asks for coaching, and reads the score its formula explains', async ({ page }) => {
    await login(page, 'admin');

    // The dashboard's card: the fleet's score and the drivers most in need of coaching.
    const card = page.getByTestId('dashboard-safety');
    await expect(card.getByTestId('dashboard-safety-score')).toHaveText(/^\d+$/);
    await expect(card.getByRole('table', { name: 'Most in need of coaching' }).getByRole('row').first()).toBeVisible();
    await card.getByRole('link', { name: 'Open Safety' }).click();

    // The inbox: events needing review, the most severe first.
    await expect(page).toHaveURL(/\/safety$/);
    const table = page.getByRole('table', { name: 'Safety events' });
    const rows = table.locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const severities = (await table.locator('[data-severity]').evaluateAll((els) => els.map((e) => e.getAttribute('data-severity')))) as SafetySeverity[];
    expect(severities.length).toBeGreaterThan(0);
    expect(severities.map((s) => SEVERITY_RANK[s])).toEqual([...severities.map((s) => SEVERITY_RANK[s])].sort((a, b) => b - a));
    await expect(table.locator('[data-status]').first()).toHaveText('Needs review');

    // An event: where it happened, its speed around it, who, and where the figures come from.
    await rows.first().click();
    await expect(page).toHaveURL(/\/safety\/events\/[0-9a-f-]{36}$/);
    const eventId = page.url().split('/').at(-1)!;
    await expect(page.getByRole('region', { name: 'Where the event happened' })).toBeVisible();
    await expect(page.getByTestId('speed-trace').or(page.getByTestId('speed-trace-empty'))).toBeVisible();
    const facts = page.getByTestId('safety-event-facts');
    await expect(facts.getByTestId('safety-event-source')).toContainText(/Posted speed limit|Estimated from GPS|Device accelerometer|Traccar alarm|Fleet maximum speed|Engine/);
    await expect(facts.getByTestId('counts-in-score')).toHaveText('Counts in the score');

    // Needs coaching, from the keyboard: a coach (the reviewer by default), due in 14 days.
    const needsCoaching = page.getByRole('group', { name: 'Review actions' }).getByRole('button', { name: 'Needs coaching' });
    await needsCoaching.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Ask for coaching' });
    await expect(dialog.getByLabel('Coach', { exact: true })).not.toHaveValue('');
    await expect(dialog).toContainText('Due in 14 days');
    await dialog.getByLabel('Note').fill('Talk through following distance in town');
    await dialog.getByRole('button', { name: 'Ask for coaching' }).click();
    await expect(dialog).toBeHidden();
    await expect(facts.locator('[data-status]')).toHaveText('Needs coaching');
    await expect(facts).toContainText('Coach');
    await expect(page.getByText('Talk through following distance in town')).toBeVisible();

    // The driver's score: the formula with their numbers adds up to the score shown.
    await facts.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/safety\/scores\/(drivers|vehicles)\/[0-9a-f-]{36}/);
    const formula = page.getByTestId('score-formula');
    const text = (await formula.getByTestId('score-formula-text').textContent()) ?? '';
    expect(text).toMatch(/^100 − \(.+\) = [\d.]+$/);
    const score = Number(text.split('= ').at(-1));
    await expect(page.getByTestId('score-summary').getByTestId('score-figure')).toHaveText(String(Math.round(score)));
    const lost = points((await formula.locator('tfoot th').last().textContent()) ?? '');
    const perBehaviour = (await formula.locator('tbody tr td:last-child').allTextContents()).map(points);
    expect(Math.abs(perBehaviour.reduce((a, b) => a + b, 0) - lost)).toBeLessThan(0.05);
    expect(Math.abs(Math.max(0, 100 + lost) - score)).toBeLessThan(0.06);

    // The events behind the points lead back to the event just coached.
    const events = page.getByTestId('score-events');
    for (const more of await events.getByRole('button', { name: /^Show all/ }).all()) await more.click();
    await events.locator(`a[href="/safety/events/${eventId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/safety/events/${eventId}$`));

    // The scores: the fleet's, its distribution, and every driver's.
    await page.getByRole('navigation', { name: 'Safety screens' }).getByRole('link', { name: 'Scores' }).click();
    await expect(page.getByTestId('fleet-score').getByTestId('score-figure')).toHaveText(/^\d+$/);
    await expect(page.getByTestId('score-distribution')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Driver scores' }).locator('tbody tr').first()).toBeVisible();
  });
});

test.describe('the driver on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('acknowledges a coaching session and disputes an event', async ({ page, request }) => {
    // The demo driver's events; the office asks for coaching on one of them.
    const driver = await signIn(request, DRIVER);
    const own = (await (await request.get(`${driver.org}/drivers/me/safety`, { headers: driver.headers })).json()) as DriverSafety;
    const open = own.events.filter((e) => !e.disputedAt && e.status === 'NEW');
    expect(open.length, 'the demo driver has events to review').toBeGreaterThanOrEqual(2);
    const [coached, disputed] = open as [SafetyEvent, SafetyEvent];
    const office = await signIn(request, { email: 'admin@demofreight.test', password: 'DemoAdmin#2026' });
    const review = await request.patch(`${office.org}/safety/events/${coached.id}`, { headers: office.headers, data: { status: 'NEEDS_COACHING', coachId: office.userId, note: 'Speed through town' } });
    expect(review.status(), await review.text()).toBe(200);

    await page.goto('/');
    await page.getByLabel('Email').fill(DRIVER.email);
    await page.getByPlaceholder('min 8 characters').fill(DRIVER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/driver$/);

    // The card on the driver's home: the score and the coaching waiting.
    const card = page.getByTestId('driver-safety-card');
    await expect(card.getByTestId('driver-safety-to-acknowledge')).toContainText(/coachings? to acknowledge/);
    await card.getByRole('link', { name: 'See my events' }).click();
    await expect(page).toHaveURL(/\/driver\/safety$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // Acknowledge the coaching session.
    const coachedCard: Locator = page.locator(`[data-event-id="${coached.id}"]`);
    await expect(coachedCard.locator('[data-status]')).toHaveText('Needs coaching');
    await coachedCard.getByRole('button', { name: 'Acknowledge coaching' }).click();
    await expect(coachedCard).toContainText('You acknowledged the coaching on');
    await expect(coachedCard.getByRole('button', { name: 'Acknowledge coaching' })).toHaveCount(0);

    // Dispute another event: a note is required.
    const disputedCard = page.locator(`[data-event-id="${disputed.id}"]`);
    await disputedCard.getByRole('button', { name: 'Dispute' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dispute this event' });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toContainText('Write why you dispute the event');
    await dialog.getByLabel('Your note').fill('Road works: the limit was lifted that day');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toBeHidden();
    await expect(disputedCard).toContainText('You disputed this event on');
    await expect(disputedCard).toContainText('Road works: the limit was lifted that day');

    // The office sees the dispute on the event.
    const seen = (await (await request.get(`${office.org}/safety/events/${disputed.id}`, { headers: office.headers })).json()) as SafetyEvent;
    expect(seen.disputeNote).toBe('Road works: the limit was lifted that day');
  });
});
