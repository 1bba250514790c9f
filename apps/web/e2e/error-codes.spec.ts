import { expect, test } from '@playwright/test';
import { es } from '../src/i18n/full-catalogues.ts';

// Decision 0257: the web words the API's errors by their code, not their English. A phone in
// Spanish locked out of sign-in reads why in Spanish, the words the code `auth.too_many_sign_ins`
// names, however the server words it in English.

test.use({ locale: 'es-MX', viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

test('the login page words a refusal by its code in the phone’s language', async ({ page, request }, testInfo) => {
  // An address of its own: the lockout counts per address and e-mail, so no other test is locked out.
  const email = `locked-${Date.now()}-${testInfo.workerIndex}@nowhere.test`;
  let last;
  for (let i = 0; i < 11; i++) last = await request.post('/api/v1/auth/authenticate', { data: { email, password: 'Wrong#2026x' } });
  expect(((await last!.json()) as { code: string }).code).toBe('auth.too_many_sign_ins');

  // The server rewords its English: the phone still says it in Spanish, by the code.
  await page.route('**/api/v1/auth/authenticate', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), message: 'Locked out for now, says a newer server' } });
  });
  await page.goto('/');
  await page.getByLabel(es.fields.email).fill(email);
  await page.getByPlaceholder(es.auth.passwordPlaceholder).fill('Wrong#2026x');
  await page.getByRole('button', { name: es.auth.logIn }).click();
  await expect(page.getByRole('alert').filter({ hasText: es.server.tooManySignIns })).toBeVisible();
  await expect(page.getByText('Locked out for now')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('login-locked-es.png') });
});
