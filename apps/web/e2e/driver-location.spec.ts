import { expect, test } from '@playwright/test';
import { driverLogin, officeApi, periodsUntil } from './driver-helpers.ts';

// ELD rule (Appendix A 4.3.2.7): every duty-status change has a location; when neither the truck nor
// the phone gives a position, the driver types one. Here the phone refuses its position and the
// driver has no truck, so the status change asks for a typed location before it is recorded.

test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test(`a status change without a position asks for a typed location, and records it (${scheme})`, async ({ page, request }) => {
      const api = await officeApi(request);
      const me = await api.driverAccount();
      const { logs } = await api.importPeriods(
        me.driver.id,
        periodsUntil(Date.now() - 60_000, [
          ['OFF', 10],
          ['ON', 1],
        ]),
      );
      // The phone answers as when its owner refuses to share the position.
      await page.addInitScript(() => {
        navigator.geolocation.getCurrentPosition = (_found, failed) =>
          failed?.({ code: 1, message: 'User denied Geolocation', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError);
      });
      await driverLogin(page, me);
      if (scheme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const status = page.getByTestId('current-status');
      await expect(status).toHaveText('On duty');

      await page.getByRole('group', { name: 'Change duty status' }).getByRole('button', { name: 'Off duty' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change to Off duty' });
      const location = dialog.getByRole('textbox', { name: 'Location' });
      await expect(location).toBeVisible();
      await expect(dialog).toContainText('Your device gives no position');
      if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/driver-location-375-${scheme}.png` });

      // Nothing typed, then too little: refused in the dialog, nothing recorded.
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(dialog.getByText('Location is a required field')).toBeVisible();
      await location.fill('Bay');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(dialog.getByText('Location must be at least 5 characters')).toBeVisible();
      await expect(status).toHaveText('On duty');

      await location.fill('Pilot truck stop, Joliet IL');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(dialog).toBeHidden();
      await expect(status).toHaveText('Off duty');
      const day = (await api.logDay(logs.at(-1)!.id)) as unknown as {
        events: Array<{ status: string | null; latitude: number | null; locationDescription: string | null; recordOrigin: string }>;
      };
      expect(day.events.filter((e) => e.recordOrigin === 'DRIVER' && e.status !== null).map((e) => [e.status, e.latitude, e.locationDescription])).toEqual([
        ['OFF', null, 'Pilot truck stop, Joliet IL'],
      ]);
    });
  });
}

test.describe('a team driver', () => {
  test.use({ geolocation: { latitude: 41.8781, longitude: -87.6298 }, permissions: ['geolocation'] });

  test('after 8 h in the berth chooses the passenger seat, recorded as OFF with the PASSENGER category (49 CFR 395.1(g)(1))', async ({ page, request }) => {
    const api = await officeApi(request);
    const me = await api.driverAccount();
    const partner = await api.driverAccount();
    const { logs } = await api.importPeriods(
      me.driver.id,
      periodsUntil(Date.now() - 60_000, [
        ['OFF', 2],
        ['SB', 8],
      ]),
    );
    const today = logs.at(-1)!;
    // Today's log names the co-driver: the two drive as a team.
    const header = await request.put(`${api.org}/drivers/${me.driver.id}/hos_log/${today.id}`, {
      headers: api.headers,
      data: { shippingDocuments: [], trailerIds: [], coDriverId: partner.driver.id },
    });
    expect(header.status(), await header.text()).toBe(200);
    await driverLogin(page, me);
    const status = page.getByTestId('current-status');
    await expect(status).toHaveText('Sleeper berth');
    await page.getByRole('group', { name: 'Change duty status' }).getByRole('button', { name: 'Passenger seat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change to Passenger seat' });
    await expect(dialog.getByRole('textbox', { name: 'Location' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(status).toHaveText('Passenger seat');
    await expect(status).toHaveAttribute('data-status', 'OFF');
    const day = (await api.logDay(today.id)) as unknown as {
      events: Array<{ status: string | null; special: string | null; latitude: number | null; recordOrigin: string }>;
    };
    const mine = day.events.filter((e) => e.recordOrigin === 'DRIVER' && (e.status !== null || e.special !== null));
    expect(mine.map((e) => [e.status, e.special])).toEqual([
      ['OFF', null],
      [null, 'PASSENGER'],
    ]);
    expect(mine[0]!.latitude).toBeCloseTo(41.8781, 3);
  });
});
