import { expect, test } from '@playwright/test';
import { en } from '../src/i18n/en.ts';
import { es } from '../src/i18n/es.ts';
import { fr } from '../src/i18n/fr.ts';
import { fillLogin } from './helpers.ts';
import { officeApi } from './driver-helpers.ts';

// Issue 44: a driver whose phone asks for Spanish or French gets the driver's home and messages in
// that language at 375 px: the duty statuses in the words drivers know, and no English sentence of
// the catalogue left on screen; My account switches the language on the spot. (The screens still
// in English, certification, edits, inspections and loads, are listed in decision 0183.)

type Tree = { [k: string]: string | Tree };
const strings = (t: Tree): string[] => Object.values(t).flatMap((v) => (typeof v === 'string' ? [v] : strings(v)));
/** The English sentences of the screens walked here (a word like "Messages" is French too). */
const english = [...strings(en.driver as unknown as Tree), ...strings(en.duty as unknown as Tree), ...strings(en.messages as unknown as Tree)]
  .filter((s) => !s.includes('{{') && s.split(' ').length >= 2)
  .filter((s) => ![...strings(es as unknown as Tree), ...strings(fr as unknown as Tree)].includes(s));

for (const [locale, catalogue, duty] of [
  ['es-MX', es, ['Fuera de servicio', 'Litera', 'En servicio', 'Conduciendo']],
  ['fr-CA', fr, ['Hors service', 'Couchette', 'En service', 'Conduite']],
] as const) {
  test.describe(`a phone in ${locale}`, () => {
    test.use({ locale, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, timezoneId: 'America/Chicago' });

    test(`the driver's home and messages speak ${locale}, with no English sentence left`, async ({ page, request }) => {
      const office = await officeApi(request);
      const account = await office.driverAccount();
      await page.goto('/');
      await fillLogin(page, account.email, account.password);
      await expect(page).toHaveURL('/driver');
      await expect(page.locator('html')).toHaveAttribute('lang', locale.slice(0, 2));
      const buttons = page.getByRole('group', { name: catalogue.driver.changeGroup });
      for (const word of duty) await expect(buttons.getByRole('button', { name: word })).toBeVisible();
      await expect(page.getByText(catalogue.driver.clocks.title)).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Quick navigation' })).toContainText(catalogue.nav.myDay);
      const home = await page.locator('main').innerText();
      expect(english.filter((s) => home.includes(s))).toEqual([]);

      // A status change is asked and told in the language.
      await buttons.getByRole('button', { name: duty[1] }).click();
      const dialog = page.getByRole('dialog', { name: catalogue.driver.change.title.replace('{{status}}', duty[1]) });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: catalogue.common.confirm })).toBeVisible();
      await dialog.getByRole('button', { name: catalogue.common.cancel }).click();

      await page.goto('/driver/messages');
      await expect(page.getByRole('heading', { name: catalogue.messages.title, level: 1 })).toBeVisible();
      await expect(page.getByRole('textbox', { name: catalogue.messages.toDispatch })).toBeVisible();
      const messages = await page.locator('main').innerText();
      expect(english.filter((s) => messages.includes(s))).toEqual([]);
    });
  });
}

test('My account switches the language on the spot, and back to the browser’s', async ({ page, request }) => {
  const office = await officeApi(request);
  const account = await office.driverAccount();
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  await fillLogin(page, account.email, account.password);
  await expect(page).toHaveURL('/driver');
  await expect(page.getByText(en.driver.currentStatus)).toBeVisible();
  await page.goto('/my-account');
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.goto('/driver');
  await expect(page.getByText(es.driver.currentStatus)).toBeVisible();
  await page.goto('/my-account');
  await page.getByRole('combobox', { name: es.account.language }).click();
  await page.getByRole('option', { name: /English|navegador/ }).first().click();
  await page.goto('/driver');
  await expect(page.getByText(en.driver.currentStatus)).toBeVisible();
});
