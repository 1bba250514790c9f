import { expect, test } from '@playwright/test';
import { chicagoClock, chicagoInput, clearOfMidnight, driverLogin, officeApi, periodsUntil, sinceMidnight } from './driver-helpers.ts';
import { login, screenshotsLightDark } from './helpers.ts';

// Issue 72 (decisions 0314, 0315): what a driver declares on the log. A driver on Canada's cycle 1
// declares on the phone a switch to cycle 2 at the end of a 37-hour rest and adverse driving
// conditions an hour ago, each with the annotation the form asks for; the graph grid marks them and
// the office's log page lists them.
test.describe.configure({ timeout: 120_000 });

const MIN = 60_000;
const H = 60 * MIN;

test('a Canadian driver declares a cycle switch and adverse conditions; the office log shows them', async ({ page, request }) => {
  // The rest ends today: up to 3 h of work after it, less early in the day; done before midnight.
  await clearOfMidnight(15 * MIN);
  if (sinceMidnight() < 30 * MIN) await new Promise((r) => setTimeout(r, 30 * MIN - sinceMidnight()));
  // Whole minutes in each third, as the form's times are.
  const work = (Math.floor(Math.min(3 * H, sinceMidnight() - 10 * MIN) / (3 * MIN)) * 3 * MIN) / H;
  const office = await officeApi(request);
  const me = await office.driverAccount({ ruleset: 'CA_SOUTH_CYCLE_1', licenseState: 'ON', homeTimeZone: 'America/Chicago' });
  // 37 h off, then a third of the work on duty and the rest driving, ending now.
  const now = Math.floor(Date.now() / MIN) * MIN;
  await office.importPeriods(
    me.driver.id,
    periodsUntil(now, [
      ['OFF', 37],
      ['ON', work / 3],
      ['D', (2 * work) / 3],
    ]),
  );
  const restEnd = now - work * H;
  const adverseAt = now - (work / 3) * H;

  await driverLogin(page, me);
  await page.getByTestId('declare-open').click();
  let form = page.getByRole('form', { name: 'Declare on the log' });
  await form.getByText('Cycle switch', { exact: true }).click();
  await form.getByText('Cycle 2', { exact: true }).click();
  await form.getByLabel(/^Time/).fill(chicagoInput(restEnd));
  await form.getByRole('button', { name: 'Declare' }).click();
  // The annotation is required (4 to 60 characters): nothing is sent without it.
  await expect(form.getByText('The annotation must be 4 to 60 characters')).toBeVisible();
  await form.getByLabel('Annotation').fill('Two weeks of long runs north');
  await form.getByRole('button', { name: 'Declare' }).click();
  await expect(form).toBeHidden();
  const list = page.getByTestId('log-declarations');
  await expect(list.getByTestId('declaration-line')).toHaveCount(1);
  await expect(list.getByTestId('declaration-line').first()).toContainText(`${chicagoClock(restEnd)}`);
  await expect(list.getByTestId('declaration-line').first()).toContainText('Switch to cycle 2');
  await expect(list.getByTestId('declaration-line').first()).toContainText('Two weeks of long runs north');

  await list.getByRole('button', { name: 'Declare' }).click();
  form = page.getByRole('form', { name: 'Declare on the log' });
  await form.getByText('Adverse driving conditions', { exact: true }).click();
  await expect(form.getByText(/up to 2 h more driving/)).toBeVisible();
  await form.getByLabel(/^Time/).fill(chicagoInput(adverseAt));
  await form.getByLabel('Annotation').fill('Whiteout on the 401 near Kingston');
  await form.getByRole('button', { name: 'Declare' }).click();
  await expect(form).toBeHidden();
  await expect(list.getByTestId('declaration-line')).toHaveCount(2);
  await expect(list.getByTestId('declaration-line').nth(1)).toContainText('Adverse driving conditions');
  await expect(page.getByTestId('grid-marker')).toHaveCount(2);
  await screenshotsLightDark(page, 'i72-driver-declarations');

  // The office's log page: marked on the grid, listed with the annotations.
  const today = await office.today(me.driver.id);
  const logId = (today as unknown as { id: string }).id;
  await login(page, 'admin', `/hos/logs/${logId}`);
  const officeLines = page.getByTestId('log-declarations').getByTestId('declaration-line');
  await expect(officeLines).toHaveCount(2);
  await expect(officeLines.first()).toContainText('Switch to cycle 2');
  await expect(officeLines.nth(1)).toContainText('Whiteout on the 401 near Kingston');
  await expect(page.getByTestId('grid-marker')).toHaveCount(2);
  await screenshotsLightDark(page, 'i72-office-declarations');

  // The office withdraws the adverse claim with an annotation; the driver's list follows.
  await officeLines.nth(1).getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('form', { name: 'Withdraw the declaration' });
  await withdraw.getByLabel('Annotation').fill('Roads were clear per dispatch');
  await withdraw.getByRole('button', { name: 'Withdraw' }).click();
  await expect(withdraw).toBeHidden();
  await expect(officeLines).toHaveCount(1);
});
