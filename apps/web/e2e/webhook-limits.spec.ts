import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

// Issue 66: an organization has at most WEBHOOK_MAX_PER_ORG (50) webhook endpoints. At the limit the
// webhooks screen turns "Add endpoint" off and says why; an endpoint whose receiver does not answer
// in time shows as timing out, with what that means. A fresh organization, so the demo's is untouched.

const SCREEN = '/settings/organization-settings/webhooks';

test('at the limit "Add endpoint" is off and says why; an endpoint that does not answer shows as timing out', async ({ page, request }) => {
  test.setTimeout(150_000);
  // A receiver that never answers: the server gives up after its timeout (10 s).
  const silent = http.createServer((req) => void req.resume());
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const slowUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow`;
  const stamp = Date.now();
  const account = { email: `hooks${stamp}@limit-hooks.test`, password: 'Str0ngPassword!' };
  const reg = await request.post('/api/v1/auth/register', {
    data: { firstname: 'Lena', lastname: 'Limit', organizationName: `Limit Hooks ${stamp}`, ...account },
  });
  expect(reg.status(), await reg.text()).toBe(200);
  const session = (await reg.json()) as { accessToken: string; user: { organization: { id: string } } };
  const hooks = `/api/v1/organizations/${session.user.organization.id}/webhooks`;
  const headers = { authorization: `Bearer ${session.accessToken}` };
  const add = (url: string) => request.post(hooks, { headers, data: { url, events: ['load.status_changed'] } });
  try {
    const slow = (await (await add(slowUrl)).json()) as { id: string };
    expect((await request.post(`${hooks}/${slow.id}/test`, { headers })).status()).toBe(201);
    for (let i = 1; i < 50; i++) expect((await add(`https://tms.example.com/hooks/${i}`)).status()).toBe(201);
    // The 51st is refused by the API with its reason.
    const refused = await add('https://tms.example.com/hooks/51');
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'This organization already has 50 webhook subscriptions, the most allowed. Delete one before adding another.',
    );
    // The first attempt to the silent receiver times out.
    await expect
      .poll(async () => ((await (await request.get(`${hooks}/${slow.id}`, { headers })).json()) as { consecutiveTimeouts: number }).consecutiveTimeouts, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);

    if (process.env.E2E_SHOTS) {
      // A new organization has dark mode off: on for the dark screenshots.
      const settingsPath = `/api/v1/organizations/${session.user.organization.id}/settings`;
      const settings = (await (await request.get(settingsPath, { headers })).json()) as Record<string, unknown>;
      expect((await request.put(settingsPath, { headers, data: { ...settings, darkMode: { isEnabled: true, defaultTheme: 'light' } } })).status()).toBe(200);
    }
    await signIn(page, account);
    await page.goto(SCREEN);
    const reason = page.getByText('This organization has 50 endpoints, the most allowed. Delete one to add another.');
    await expect(reason).toBeVisible();
    const addButton = page.getByRole('button', { name: 'Add endpoint' });
    await expect(addButton).toBeDisabled();
    await expect(addButton).toHaveAccessibleDescription('This organization has 50 endpoints, the most allowed. Delete one to add another.');

    const card = page.getByRole('region', { name: slowUrl });
    const badge = card.getByText('Timing out', { exact: true });
    await expect(badge).toBeVisible();
    await card.locator('[aria-label^="Timing out:"]').focus();
    await expect(page.getByRole('tooltip')).toContainText(/The endpoint did not answer in time \(\d+ attempts? in a row\)/);
    if (process.env.E2E_SHOTS) await shots(page, 'i66-webhooks-limit');

    // One deleted: "Add endpoint" is on again, and the count says how many are left.
    expect((await request.delete(`${hooks}/${slow.id}`, { headers })).status()).toBe(204);
    await page.reload();
    await expect(page.getByText('49 of 50 endpoints')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add endpoint' })).toBeEnabled();
    await expect(reason).toHaveCount(0);
  } finally {
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
  }
});

/** Screenshots in the test's output folder (E2E_SHOTS=1): the top (the limit) and the timing-out card, light and dark, 1280 and 375 px wide. */
async function shots(page: Page, name: string) {
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    // The user's own choice of theme, as the toggle stores it, applied by a reload.
    await page.evaluate((value) => {
      localStorage.setItem('fleet.colorScheme', value);
      localStorage.removeItem('fleet.colorSchemeFromOrganization');
    }, scheme);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    for (const width of [size?.width ?? 1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : (size?.height ?? 800) });
      await expect(page.getByText('Timing out', { exact: true })).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-${width}-top.png`) });
      await page.locator('[aria-label^="Timing out:"]').first().focus();
      await expect(page.getByRole('tooltip')).toBeVisible();
      await expect(page.getByRole('tooltip')).toHaveCSS('opacity', '1');
      await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-${width}-card.png`) });
      await page.locator('[aria-label^="Timing out:"]').first().blur();
    }
    if (size) await page.setViewportSize(size);
  }
}
