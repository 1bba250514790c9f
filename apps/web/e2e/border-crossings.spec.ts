import { expect, test } from '@playwright/test';
import { chicagoClock, chicagoInput, clearOfMidnight, driverLogin, officeApi, periodsUntil, sinceMidnight } from './driver-helpers.ts';
import { login, screenshotsLightDark } from './helpers.ts';

// Issue 72: a border crossing on the log. The office enters one on a driver's log; the driver sees it
// on today's grid and in the list with the rules of each side, and moves it with an annotation; the
// office's log page shows the correction.
test.describe.configure({ timeout: 120_000 });

const MIN = 60_000;

test('a crossing shows on the log, and the driver moves it with an annotation', async ({ page, request }) => {
  // The crossing and its move fall today (the Today screen and the log day show them): at most 90
  // minutes back, less early in the day; the test done before midnight.
  await clearOfMidnight(15 * MIN);
  if (sinceMidnight() < 10 * MIN) await new Promise((r) => setTimeout(r, 10 * MIN - sinceMidnight()));
  const back = Math.floor(Math.min(90 * MIN, sinceMidnight() - 5 * MIN) / (3 * MIN)) * 3 * MIN;
  const office = await officeApi(request);
  const me = await office.driverAccount();
  // Two hours of driving ending now, after an hour on duty and two off.
  const now = Math.floor(Date.now() / MIN) * MIN;
  await office.importPeriods(
    me.driver.id,
    periodsUntil(now, [
      ['OFF', 2],
      ['ON', 1],
      ['D', 2],
    ]),
  );
  const crossedAt = now - back;
  const added = await request.post(`${office.org}/drivers/${me.driver.id}/hos_crossings`, {
    headers: office.headers,
    data: { at: new Date(crossedAt).toISOString(), to: 'CA', annotation: 'Crossed at the Ambassador Bridge' },
  });
  expect(added.status(), await added.text()).toBe(201);

  await driverLogin(page, me);
  const list = page.getByTestId('log-crossings');
  const line = list.getByTestId('crossing-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(chicagoClock(crossedAt));
  await expect(line).toContainText('Crossed into Canada');
  await expect(line).toContainText('US property, 70 h / 8 days before, Canada south, cycle 1 (70 h / 7 days) from here');
  await expect(line).toContainText('Crossed at the Ambassador Bridge');
  // The grid marks it.
  await expect(page.getByTestId('grid-marker')).toHaveCount(1);
  await screenshotsLightDark(page, 'driver-crossing');

  // The driver crossed later than entered: moved, with an annotation.
  const movedAt = now - (back * 2) / 3;
  const movedTo = chicagoInput(movedAt);
  await line.getByRole('button', { name: 'Move', exact: true }).click();
  const form = page.getByRole('form', { name: 'Move the border crossing' });
  await form.getByLabel(/Time/).fill(movedTo);
  await form.getByRole('button', { name: 'Save' }).click();
  // The annotation is required (4 to 60 characters): nothing is sent without it.
  await expect(form.getByText('The annotation must be 4 to 60 characters')).toBeVisible();
  await form.getByLabel('Annotation').fill('Waited at customs on the bridge');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(chicagoClock(movedAt));
  await expect(line).toContainText('Entered');
  await expect(line).toContainText('Waited at customs on the bridge');

  // The office's log page shows the corrected crossing on the grid and in its list.
  const today = await office.today(me.driver.id);
  const logId = (today as unknown as { id: string }).id;
  await login(page, 'admin', `/hos/logs/${logId}`);
  const officeLine = page.getByTestId('log-crossings').getByTestId('crossing-line');
  await expect(officeLine).toHaveCount(1);
  await expect(officeLine).toContainText(chicagoClock(movedAt));
  await expect(officeLine).toContainText('Crossed into Canada');
  await expect(page.getByTestId('grid-marker')).toHaveCount(1);
  await screenshotsLightDark(page, 'office-crossing');
});
