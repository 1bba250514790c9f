import os from 'node:os';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../playwright.config.ts';
import { ACCOUNTS, fillLogin } from './helpers.ts';

// A carrier installs the server in the office and opens it from another computer over plain HTTP:
// http://<server-ip>:8080/. The browser then is not on localhost (no secure-context exemption), so
// an `upgrade-insecure-requests` policy or HSTS would make it fetch every script over HTTPS and show
// a blank page. This opens the app through the machine's own non-loopback address.
function lanAddress(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('this machine has no non-loopback IPv4 address to open the app through');
}

test('the app works when opened over plain HTTP through a LAN address', async ({ page }) => {
  const origin = `http://${lanAddress()}:${E2E_PORT}`;
  const failures: string[] = [];
  page.on('requestfailed', (r) => {
    // A navigation aborts what the page had under way: the favicon, the open event streams, API calls
    // and the screen's code still loading on a slow machine (net::ERR_ABORTED), not a load failure.
    // What this test is about fails otherwise: a request upgraded to HTTPS (an SSL or connection
    // error) or blocked by the policy (ERR_BLOCKED_BY_*).
    if (r.failure()?.errorText === 'net::ERR_ABORTED' && r.url().startsWith(`${origin}/`)) return;
    failures.push(`${r.url()}: ${r.failure()?.errorText}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Mixed Content/i.test(m.text())) failures.push(m.text());
  });

  const res = await page.goto(`${origin}/`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
  expect(res?.headers()['strict-transport-security']).toBeUndefined();
  // Rendered by the app's scripts: a blank page would not have the form.
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

  await fillLogin(page, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  await expect(page).toHaveURL(`${origin}/dashboard`);
  await page.goto(`${origin}/settings/organization-settings/vehicles`);
  await expect(page.getByRole('cell', { name: '101', exact: true })).toBeVisible();
  expect(new URL(page.url()).protocol).toBe('http:');
  expect(failures).toEqual([]);
});
