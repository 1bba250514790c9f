import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';
import { driverLogin, officeApi, periodsUntil } from './driver-helpers.ts';

// Issue 45: the driver hands today and the previous 7 days to an officer through FMCSA from the cab,
// by the web service (a local stand-in for FMCSA's service, HTTPS with a client certificate, started
// by playwright.config.ts) and by encrypted e-mail (the outbox without SMTP); the office does the same
// from a driver's log page. Each send is listed with its outcome.

const FMCSA_EMAIL = 'fmcsaeldsub@dot.gov';

/** The raw messages the API wrote to its outbox for FMCSA. */
function fmcsaMails(): Array<{ subject: string; raw: string }> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string; subject: string; raw?: string })
    .filter((m) => m.to === FMCSA_EMAIL && m.raw)
    .map((m) => ({ subject: m.subject, raw: m.raw! }));
}

async function send(page: Page, method: 'Web service' | 'E-mail', comment?: string) {
  await page.getByRole('button', { name: /Send to (an officer|FMCSA)/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Send to FMCSA for the officer' });
  if (comment !== undefined) await dialog.getByLabel('Output file comment').fill(comment);
  await dialog.getByText(method, { exact: true }).click();
  await expect(dialog.getByTestId('fmcsa-test-mode')).toBeVisible();
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  return dialog;
}

test.describe('from the cab at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, timezoneId: 'America/Chicago' });

  test('a driver sends the 8 days by web service and by e-mail; both outcomes are shown and listed', async ({ page, request }) => {
    const office = await officeApi(request);
    const account = await office.driverAccount();
    await office.importPeriods(
      account.driver.id,
      periodsUntil(Date.now() - 60_000, [
        ['OFF', 10],
        ['ON', 1],
        ['D', 3],
        ['OFF', 1],
      ]),
    );
    await driverLogin(page, account);
    await page.goto('/driver/inspection');
    await page.getByLabel('Output file comment').fill('OFFICER 7Q2X');

    // The web service: FMCSA's answer to a test submission it received is "Information", in words.
    const web = await send(page, 'Web service');
    const outcome = web.getByTestId('fmcsa-outcome');
    await expect(outcome).toHaveAttribute('data-status', 'INFORMATION');
    await expect(outcome).toContainText('Received by FMCSA (test)');
    await expect(outcome).toContainText('Comment "OFFICER 7Q2X"');
    await expect(outcome).toContainText(/Submission [0-9a-f-]{36}/);
    await web.getByRole('button', { name: 'Done' }).click();

    // E-mail: encrypted to FMCSA's certificate, "TEST" first in the subject.
    const before = fmcsaMails().length;
    const mail = await send(page, 'E-mail', 'OFFICER 7Q2X');
    await expect(mail.getByTestId('fmcsa-outcome')).toContainText('Sent by encrypted e-mail to FMCSA (test)');
    await mail.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => fmcsaMails().length).toBe(before + 1);
    const sent = fmcsaMails().at(-1)!;
    expect(sent.subject).toMatch(/^TEST/);
    expect(sent.raw).toMatch(/application\/(x-)?pkcs7-mime/);
    expect(sent.raw).not.toContain('ELD File Header Segment');

    // Both listed, newest first.
    const rows = page.getByTestId('fmcsa-history-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute('data-status', 'SENT');
    await expect(rows.nth(1)).toHaveAttribute('data-status', 'INFORMATION');
    await expect(rows.nth(1)).toContainText('Received by FMCSA (test)');

    // Without the officer's comment the send is not made.
    await page.getByLabel('Output file comment').fill('');
    await page.getByRole('button', { name: 'Send to an officer' }).click();
    const empty = page.getByRole('dialog', { name: 'Send to FMCSA for the officer' });
    await empty.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(empty.getByText("Type the officer's output file comment")).toBeVisible();
    await expect(rows).toHaveCount(2);
  });
});

test('the office sends a driver’s records from the log page; the account page shows the self-check', async ({ page, request }) => {
  test.setTimeout(180_000);
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const { logs } = await office.importPeriods(
    account.driver.id,
    periodsUntil(Date.now() - 60_000, [
      ['OFF', 10],
      ['ON', 1],
      ['D', 2],
    ]),
  );
  await signIn(page, 'admin');
  await page.goto(`/hos/logs/${logs.at(-1)!.id}`);
  await expect(page.getByRole('heading', { name: 'Graph grid' })).toBeVisible();
  const dialog = await send(page, 'Web service', 'OFFICE 55');
  await expect(dialog.getByTestId('fmcsa-outcome')).toContainText('Received by FMCSA (test)');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('fmcsa-history-row').first()).toContainText('Comment "OFFICE 55"');

  await page.goto('/settings/organization-settings/organization-account');
  const check = page.getByTestId('eld-transfer-check');
  await expect(check).toContainText('Web service');
  // The server's first self-check runs a minute after its start (a run of this file alone comes sooner).
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('eld-transfer-last-check')).toContainText(/Last self-check .*: passed \(Success/, { timeout: 3000 });
  }).toPass({ timeout: 90_000, intervals: [5000] });
});
