import { expect, test } from '@playwright/test';
import { driverLogin, officeApi, periodsUntil } from './driver-helpers.ts';
import { ADMIN, login, ORG, uniq } from './registry-helpers.ts';

// Issue 72: the Mexican and state rulesets in the driver form, and an oilfield driver marking waiting
// time at a well site (49 CFR 395.1(d)(2)) from the phone.

test('a fleet manager sets a driver to Mexico NOM-087 with the oilfield provisions', async ({ page }) => {
  const id = uniq();
  const last = `Oil${id}`;
  await login(page, ADMIN);
  await page.goto(`${ORG}/driver-add`);
  const form = page.getByRole('form', { name: 'Driver form' });
  await form.getByLabel('First name').fill('Mara');
  await form.getByLabel('Last name').fill(last);
  await form.getByLabel('Licence number').fill(`M${id}87`);
  await form.getByLabel('Issuing state or province').selectOption('TX');
  await form.getByLabel('HoS ruleset').selectOption({ label: 'Mexico NOM-087 (cargo)' });
  await form.getByLabel('Oilfield operations').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByLabel('Search Drivers').fill(last);
  await page.getByRole('row', { name: new RegExp(last) }).click();
  const detail = page.getByRole('dialog', { name: new RegExp(last) });
  await expect(detail.getByText('Mexico NOM-087 (cargo)')).toBeVisible();
  await expect(detail.getByText('Oilfield operations')).toBeVisible();
});

test.describe('an oilfield driver on the phone', () => {
  test.use({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
    geolocation: { latitude: 31.9973, longitude: -102.0779 },
    permissions: ['geolocation'],
  });

  test('marks waiting time at a well site, recorded as OFF with the WAITING category', async ({ page, request }) => {
    const api = await officeApi(request);
    const me = await api.driverAccount({ oilfield: true });
    const { logs } = await api.importPeriods(
      me.driver.id,
      periodsUntil(Date.now() - 60_000, [
        ['OFF', 10],
        ['ON', 1],
      ]),
    );
    await driverLogin(page, me);
    const status = page.getByTestId('current-status');
    await expect(status).toHaveText('On duty');
    await page.getByRole('group', { name: 'Change duty status' }).getByRole('button', { name: 'Waiting at well site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change to Waiting at well site' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(status).toHaveText('Waiting at well site');
    await expect(status).toHaveAttribute('data-status', 'OFF');
    if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/driver-waiting-375-light.png` });
    const day = (await api.logDay(logs.at(-1)!.id)) as unknown as { events: Array<{ status: string | null; special: string | null; recordOrigin: string }> };
    const mine = day.events.filter((e) => e.recordOrigin === 'DRIVER' && (e.status !== null || e.special !== null));
    expect(mine.map((e) => [e.status, e.special])).toEqual([
      ['OFF', null],
      [null, 'WAITING'],
    ]);
  });

  test('a driver without the exemption is not offered it', async ({ page, request }) => {
    const api = await officeApi(request);
    const me = await api.driverAccount();
    await api.importPeriods(
      me.driver.id,
      periodsUntil(Date.now() - 60_000, [
        ['OFF', 10],
        ['ON', 1],
      ]),
    );
    await driverLogin(page, me);
    await expect(page.getByTestId('current-status')).toHaveText('On duty');
    const choices = page.getByRole('group', { name: 'Change duty status' });
    await expect(choices.getByRole('button', { name: 'Off duty' })).toBeVisible();
    await expect(choices.getByRole('button', { name: 'Waiting at well site' })).toHaveCount(0);
  });
});
