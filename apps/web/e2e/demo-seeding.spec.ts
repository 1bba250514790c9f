import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './registry-helpers.ts';

// Issue 46: on a first start the dashboard opens while the demo data is still being written; it says
// so with the server's progress, and the notice goes once seeding is done. The browser tests' server
// is seeded before they start, so the progress answer is the one thing stood in for here (the API
// test in web-config.test.ts drives the real one).

test('the dashboard says "Preparing demo data (n %)" while a first start seeds, and stops once done', async ({ page }) => {
  let answer = { seeding: true, percent: 42, step: 'demo history' as string | null };
  let asked = 0;
  // The clock is the subject at the end (does the polling stop?): a fake one that still runs on its own until then.
  await page.clock.install();
  await page.route('**/api/v1/startup-progress', async (route) => {
    asked++;
    await route.fulfill({ json: answer, headers: { 'cache-control': 'no-store' } });
  });
  await signIn(page, ADMIN);
  await page.goto('/dashboard');
  const notice = page.getByTestId('demo-seeding-notice');
  await expect(notice).toContainText('Preparing demo data (42 %)');
  await expect(notice.getByRole('progressbar', { name: 'Demo data prepared' })).toHaveAttribute('aria-valuenow', '42');
  // Asked again while seeding: the progress moves.
  answer = { seeding: true, percent: 87, step: 'demo history' };
  await expect(notice).toContainText('Preparing demo data (87 %)', { timeout: 10_000 });
  answer = { seeding: false, percent: 100, step: null };
  await expect(notice).toHaveCount(0, { timeout: 10_000 });
  // Done: no more asking, three polling periods later (the page's clock run forward at once).
  const after = asked;
  await page.clock.runFor(3 * 3_000);
  // A request of the test's own after those: the route sees the page's requests in order, so a poll
  // would have been counted before it.
  await page.evaluate(() => fetch('/api/v1/startup-progress').then((r) => r.text()));
  expect(asked).toBe(after + 1);
  await expect(page.getByRole('region', { name: 'Counters' })).toBeVisible();
});
