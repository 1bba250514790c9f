import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { login } from './helpers.ts';

// Issue 48: an administrator creates an API token (its secret shown once), subscribes a receiver this
// test starts on loopback to webhooks, sends a test event, and sees the delivery; the receiver checks
// the signature with the Standard Webhooks library's own verifier.

const ORG = '/settings/organization-settings';

test('API token and a webhook endpoint that receives a signed test event', async ({ page, request }) => {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  try {
    await login(page, 'admin');

    // API tokens: create with a permission, copy the secret, see it listed.
    await page.goto(`${ORG}/api-tokens`);
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const form = page.getByRole('form', { name: 'Create token' });
    await form.getByLabel('Name').fill('E2E TMS');
    await form.getByRole('checkbox', { name: /^Loads/ }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('new-token').innerText()).trim();
    expect(secret).toMatch(/^fltk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByRole('table', { name: 'API tokens' }).getByText('E2E TMS')).toBeVisible();
    // The token reaches the API with its permission.
    const orgId = await page.evaluate(() => {
      for (const store of [localStorage, sessionStorage]) {
        for (let i = 0; i < store.length; i++) {
          const m = /"organization":\{"id":"([0-9a-f-]{36})"/.exec(store.getItem(store.key(i)!) ?? '');
          if (m) return m[1];
        }
      }
      return null;
    });
    expect(orgId).toBeTruthy();
    expect((await request.get(`/api/v1/organizations/${orgId}/loads`, { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(200);

    // Webhooks: an endpoint on the receiver, subscribed to load status changes.
    await page.goto(`${ORG}/webhooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const hookForm = page.getByRole('form', { name: 'Add endpoint' });
    await hookForm.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${port}/hooks`);
    await hookForm.getByLabel('Description').fill('E2E receiver');
    // The safety events are offered beside the others (issue 48 after issue 47).
    await expect(hookForm.getByRole('checkbox', { name: 'safety.event_created' })).toBeVisible();
    await hookForm.getByRole('checkbox', { name: 'load.status_changed' }).check();
    await hookForm.getByRole('button', { name: 'Save' }).click();
    const signing = (await page.getByTestId('webhook-secret').innerText()).trim();
    expect(signing).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    const card = page.getByRole('region', { name: `http://127.0.0.1:${port}/hooks` });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const got = received[0]!;
    const payload = new Webhook(signing).verify(got.body, got.headers as Record<string, string>) as { type: string };
    expect(payload.type).toBe('webhook.test');

    await card.getByRole('button', { name: 'Deliveries' }).click();
    const dialog = page.getByRole('dialog', { name: /Deliveries to/ });
    await expect(dialog.getByTestId('delivery').first()).toContainText('Delivered', { timeout: 15_000 });
    await expect(dialog.getByTestId('delivery').first()).toContainText('webhook.test');
    await expect(dialog.getByTestId('delivery').first()).toContainText('204');
  } finally {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
});
