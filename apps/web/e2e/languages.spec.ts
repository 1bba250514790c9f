import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { en, es, fr } from '../src/i18n/full-catalogues.ts';
import { fillLogin } from './helpers.ts';
import { clearOfMidnight, officeApi, periodsUntil } from './driver-helpers.ts';
import { englishWords, screenText } from './english-words.ts';

// Issue 44: a driver whose phone asks for Spanish or French gets the driver's side in that language
// at 375 px: sign-in, the driver's home with its tabs (today's log, Certify, Edits, Claim), the
// inspection card and the open pre-trip form, the loads card, messages, the roadside view and My
// account; the duty statuses in the words drivers know, and no English sentence of the catalogue
// left on screen, the graph grid and the log header included. My account switches the language on
// the spot. (What stays English is listed in decision 0183; the roadside view's records are in the
// driver's language, Spanish too, or in English on demand for an officer: decision 0247.)
// Issue 66: and no English word either, one word at a time, on screen or said to a screen reader:
// the menu ("Settings"), the ruleset's name, message times, the roadside header's date and digits,
// the Spanish roadside events; the roadside records switch to English for an officer on demand.

type Tree = { [k: string]: string | Tree };
const strings = (t: Tree): string[] => Object.values(t).flatMap((v) => (typeof v === 'string' ? [v] : strings(v)));
const translated = new Set([...strings(es as unknown as Tree), ...strings(fr as unknown as Tree)]);
type Section = keyof typeof en;
/** The English sentences of these catalogue sections (a single word like "Messages" may be French too). */
const englishOf = (...sections: Section[]) =>
  sections
    .flatMap((s) => strings(en[s] as unknown as Tree))
    .filter((s) => !s.includes('{{') && s.split(' ').length >= 2)
    .filter((s) => !translated.has(s));
const DRIVER_SIDE: Section[] = [
  'common',
  'duty',
  'nav',
  'driver',
  'messages',
  'account',
  'offline',
  'shell',
  'auth',
  'loads',
  'inspection',
  'roadside',
  'grid',
  'events',
  'fields',
  'validation',
  'server',
  'safety',
];
const english = englishOf(...DRIVER_SIDE);

const leftInEnglish = (text: string, list = english) => list.filter((s) => text.includes(s));

/** The text of `main`, the graph grid's accessible summary and tables included. */
const mainText = (page: Page) =>
  page.locator('main').evaluate((m) => {
    const copy = m.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('svg[role="img"]').forEach((n) => n.append(`\n${n.getAttribute('aria-label') ?? ''}\n`));
    // Block elements end their line, as innerText would.
    copy.querySelectorAll('p, div, li, h1, h2, h3, h4, button, label, span').forEach((n) => n.append('\n'));
    return copy.textContent ?? '';
  });

/** A driver with a truck, a past day to certify, an edit the office proposed, and a load. */
async function driverWithEverything(request: APIRequestContext) {
  const office = await officeApi(request);
  const account = await office.driverAccount();
  const truck = await office.vehicle();
  await office.assign(truck.id, account.driver.id);
  const { logs } = await office.importPeriods(
    account.driver.id,
    periodsUntil(Date.now() - 60_000, [
      ['OFF', 20],
      ['ON', 1],
      ['D', 4],
      ['OFF', 20],
    ]),
  );
  const days = await Promise.all(logs.map((l) => office.logDay(l.id)));
  // The last Off duty, whichever log day it starts in (after midnight it is today's, else yesterday's).
  const { day, off } = days.flatMap((d) => d.events.filter((e) => e.status === 'OFF').map((e) => ({ day: d, off: e }))).at(-1)!;
  await office.proposeEdit(account.driver.id, day.id, off.id, { status: 'ON', at: off.at, annotation: 'Unloading, not off duty' });
  const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });
  const load = await request.post(`${office.org}/loads`, {
    headers: office.headers,
    data: {
      customer: `E2E Cliente ${Date.now().toString(36)}`,
      driverIds: [account.driver.id],
      stops: [
        {
          kind: 'PICKUP',
          latitude: 41.85,
          longitude: -87.65,
          address: '1200 W 35th St, Chicago, IL 60609',
          windowStart: `${tomorrow}T08:00:00-06:00`,
          windowEnd: `${tomorrow}T10:00:00-06:00`,
          serviceMinutes: 60,
        },
        {
          kind: 'DELIVERY',
          latitude: 39.77,
          longitude: -86.16,
          address: '500 S Meridian St, Indianapolis, IN 46225',
          windowStart: `${tomorrow}T16:00:00-05:00`,
          windowEnd: `${tomorrow}T20:00:00-05:00`,
          serviceMinutes: 45,
        },
      ],
      rate: { lineHaul: 1234.56, fuelSurcharge: 100, accessorials: [] },
    },
  });
  expect(load.status(), await load.text()).toBe(201);
  const loadData = (await load.json()) as { number: string; customer: string };
  // A message from dispatch, so the conversation shows a time.
  const message = await request.post(`${office.org}/messages`, { headers: office.headers, data: { driverId: account.driver.id, body: 'Muelle 4 / quai 4' } });
  expect(message.status(), await message.text()).toBe(201);
  // The records' annotations are the records' own words (sent to FMCSA as written), not the screen's:
  // the import's "Imported from E2E" shows when the last Off duty starts today (just after midnight).
  return { office, account, truck, data: [loadData.number, loadData.customer, 'Muelle 4 / quai 4', 'Unloading, not off duty', 'Imported from E2E'] };
}

/**
 * The truck's tracker reports its engine: ignition off, on, driven, off, with the odometer at
 * 100,000.0 mi and up, so the day's header has a distance and odometers to write in the language.
 * The driver is signed in first: the records' totals never go below an earlier record's (as
 * eld-engine.spec.ts).
 */
async function engineDay(request: APIRequestContext, office: Awaited<ReturnType<typeof officeApi>>, truckId: string, driverId: string) {
  const uniqueId = `e2e-lang-${Date.now().toString(36)}`;
  const gw = await request.post(`${office.org}/gateways`, { headers: office.headers, data: { uniqueId, name: `Tracker ${uniqueId}` } });
  expect(gw.status(), await gw.text()).toBe(201);
  const pair = await request.post(`${office.org}/gateways/${((await gw.json()) as { id: string }).id}/pair/${truckId}`, { headers: office.headers });
  expect(pair.ok(), await pair.text()).toBe(true);
  await clearOfMidnight(90_000);
  const start = Date.now() + 2_000;
  for (const [s, ignition, odometer, hours] of [
    [0, false, 160_934_400, 4321.5],
    [20, true, 160_934_400, 4321.5],
    [40, true, 160_950_000, 4321.51],
    [80, false, 160_983_000, 4321.52],
  ] as const) {
    const r = await request.get(
      `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor((start + s * 1000) / 1000)}&lat=41.6&lon=-88.1&speed=0&ignition=${ignition}&vehicleOdometer=${odometer}&engineHours=${hours}`,
    );
    expect(r.status()).toBe(200);
  }
  let header: { carrier: { name: string; mainOffice: string }; homeTerminal: string; date: string } | null = null;
  await expect
    .poll(
      async () => {
        const day = (await (await request.get(`${office.org}/drivers/${driverId}/hos_log/current-day`, { headers: office.headers })).json()) as {
          header: NonNullable<typeof header>;
          events: Array<{ eventType: number }>;
        };
        header = day.header;
        return day.events.filter((e) => e.eventType === 6).length;
      },
      { timeout: 30_000 },
    )
    .toBe(2);
  return header!;
}

for (const [locale, catalogue, duty] of [
  ['es-MX', es, ['Fuera de servicio', 'Litera', 'En servicio', 'Conduciendo']],
  ['fr-CA', fr, ['Hors service', 'Couchette', 'En service', 'Conduite']],
] as const) {
  test.describe(`a phone in ${locale}`, () => {
    test.use({
      locale,
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      timezoneId: 'America/Chicago',
      geolocation: { latitude: 41.8781, longitude: -87.6298 },
      permissions: ['geolocation'],
    });

    test(`the driver's side speaks ${locale}, with no English sentence left`, async ({ page, request }) => {
      test.setTimeout(120_000);
      const { office, account, truck, data: made } = await driverWithEverything(request);
      const lng = locale.slice(0, 2) as 'es' | 'fr';
      // What the test made (names, the load, the office's message) and the carrier's own words are data.
      // The role's name is the organization's own word too (the avatar's title, My account's badge).
      const signedIn = await request.post('/api/v1/auth/authenticate', { data: { email: account.email, password: account.password } });
      const roleName = ((await signedIn.json()) as { user: { roleName: string } }).user.roleName;
      const data = [...made, account.email, account.driver.firstName, account.driver.lastName, account.driver.licenseNumber, truck.unitNumber, `(${roleName})`];
      const expectNoEnglish = async (extra: string[] = []) => expect(englishWords(await screenText(page), lng, [...data, ...extra])).toEqual([]);

      // Sign-in, its checks in the language too.
      await page.goto('/');
      await expect(page.getByRole('heading', { name: catalogue.auth.welcome })).toBeVisible();
      await page.getByRole('button', { name: catalogue.auth.logIn }).click();
      await expect(page.getByText(catalogue.validation.required.replace('{{label}}', catalogue.fields.email))).toBeVisible();
      expect(leftInEnglish(await page.locator('body').innerText())).toEqual([]);
      await expectNoEnglish();
      await page.getByLabel(catalogue.fields.email).fill(account.email);
      await page.getByPlaceholder(catalogue.auth.passwordPlaceholder).fill(account.password);
      await page.getByRole('button', { name: catalogue.auth.logIn }).click();
      await expect(page).toHaveURL('/driver');
      await expect(page.locator('html')).toHaveAttribute('lang', locale.slice(0, 2));
      const header = await engineDay(request, office, truck.id, account.driver.id);
      data.push(header.carrier.name, header.carrier.mainOffice, header.homeTerminal);

      // The driver's home: status, clocks, today's log, the inspection and loads cards.
      const buttons = page.getByRole('group', { name: catalogue.driver.changeGroup });
      for (const word of duty) await expect(buttons.getByRole('button', { name: word })).toBeVisible();
      await expect(page.getByText(catalogue.driver.clocks.title)).toBeVisible();
      await expect(page.getByRole('navigation', { name: catalogue.shell.quickNav })).toContainText(catalogue.nav.myDay);
      await expect(page.getByRole('button', { name: catalogue.shell.openProfile })).toBeVisible();
      await expect(page.getByRole('heading', { name: catalogue.driver.log.title })).toBeVisible();
      await expect(page.getByRole('heading', { name: catalogue.driver.trip.title })).toBeVisible();
      const inspection = page.getByTestId('inspection-card');
      await expect(inspection.getByRole('heading', { name: catalogue.inspection.titleUnit.replace('{{unit}}', truck.unitNumber) })).toBeVisible();
      const loads = page.getByTestId('driver-loads');
      await expect(loads.getByRole('heading', { name: catalogue.loads.title })).toBeVisible();
      await expect(loads.getByRole('button', { name: catalogue.loads.arrivedStop.replace('{{n}}', '1') })).toBeVisible();
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await expectNoEnglish();
      // The menu, opened: the driver's pages and Settings.
      await page.getByRole('button', { name: catalogue.shell.openMenu }).click();
      const menu = page.getByRole('navigation', { name: catalogue.shell.mainMenu });
      await expect(menu.getByText(catalogue.nav.settings, { exact: true })).toBeVisible();
      await expectNoEnglish();
      await page.getByRole('button', { name: catalogue.shell.closeMenu }).click();

      // The tabs: a past day to certify, the office's edit, nothing to claim.
      await page.getByRole('tab', { name: new RegExp(`^${catalogue.driver.tabs.certify}`) }).click();
      await expect(page.getByTestId('uncertified-day').first()).toBeVisible();
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await page.getByRole('tab', { name: new RegExp(`^${catalogue.driver.tabs.edits}`) }).click();
      await expect(page.getByTestId('proposal')).toBeVisible();
      await expect(page.getByTestId('proposal').getByRole('button', { name: catalogue.driver.edits.accept })).toBeVisible();
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await expectNoEnglish();
      await page.getByRole('tab', { name: catalogue.driver.tabs.claimLabel }).click();
      await expect(page.getByText(catalogue.driver.claim.emptyTitle)).toBeVisible();
      expect(leftInEnglish(await mainText(page))).toEqual([]);

      // A status change is asked and told in the language.
      await buttons.getByRole('button', { name: duty[1] }).click();
      const dialog = page.getByRole('dialog', { name: catalogue.driver.change.title.replace('{{status}}', duty[1]) });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: catalogue.common.confirm })).toBeVisible();
      await dialog.getByRole('button', { name: catalogue.common.cancel }).click();

      // The open pre-trip form, and its own checks.
      await inspection.getByRole('button', { name: catalogue.inspection.startPre }).click();
      const form = page.getByTestId('dvir-form');
      await expect(form.getByRole('heading', { name: catalogue.inspection.named.PRE_TRIP })).toBeVisible();
      await expect(form.getByRole('group', { name: catalogue.inspection.items.PARKING_BRAKE })).toBeVisible();
      await form.getByRole('button', { name: catalogue.inspection.signReport }).click();
      await expect(form.getByText(catalogue.inspection.choose).first()).toBeVisible();
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await form.getByRole('button', { name: catalogue.common.cancel }).click();

      await page.goto('/driver/messages');
      await expect(page.getByRole('heading', { name: catalogue.messages.title, level: 1 })).toBeVisible();
      await expect(page.getByRole('textbox', { name: catalogue.messages.toDispatch })).toBeVisible();
      // The office's message, its time in the language ("29 nov, 6:36 a.m. CST", "29 nov. 6 h 36 HNC").
      await expect(page.getByTestId('message')).toHaveCount(1);
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await expectNoEnglish();

      // The roadside view: what the driver works is in the language; the ELD file is not translated.
      await page.goto('/driver/inspection');
      await expect(page.getByRole('heading', { name: catalogue.roadside.title, level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: catalogue.roadside.file })).toBeVisible();
      await expect(page.getByRole('button', { name: catalogue.roadside.download })).toBeVisible();
      await expect(page.getByTestId('inspection-day')).toBeVisible();
      await expect(page.getByTestId('vehicle-reports')).toContainText(catalogue.inspection.reports);
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await expectNoEnglish();
      // The header's date, zone and digits in the language; the ruleset's name too.
      const day = page.getByTestId('inspection-day');
      const intl = locale === 'es-MX' ? 'es-US' : 'fr-CA';
      const [y, mo, d] = header.date.split('-').map(Number);
      await expect(day).toContainText(
        new Intl.DateTimeFormat(intl, { timeZone: 'UTC', year: '2-digit', month: '2-digit', day: '2-digit' }).format(new Date(Date.UTC(y!, mo! - 1, d!))),
      );
      await expect(day).toContainText(`${new Intl.NumberFormat(intl).format(100_000)} mi`);
      await expect(day).toContainText(catalogue.rulesets.US_PROPERTY_70_8);
      // An officer who reads English: the records switch, the buttons the driver works do not.
      await page
        .locator('label')
        .filter({ hasText: /^English$/ })
        .click();
      await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
      await expect(day.getByRole('list', { name: en.roadside.events })).toContainText(en.events.login);
      await expect(day).toContainText(en.rulesets.US_PROPERTY_70_8);
      await expect(page.getByRole('button', { name: catalogue.roadside.download })).toBeVisible();

      await page.goto('/my-account');
      await expect(page.getByRole('heading', { name: catalogue.account.title, level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: catalogue.account.changePassword })).toBeVisible();
      expect(leftInEnglish(await mainText(page))).toEqual([]);
      await expectNoEnglish([roleName]);
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
  await expect(page.getByRole('heading', { name: es.account.title, level: 1 })).toBeVisible();
  await page.goto('/driver');
  await expect(page.getByText(es.driver.currentStatus)).toBeVisible();
  await page.goto('/my-account');
  await page.getByRole('combobox', { name: es.account.language }).click();
  await page
    .getByRole('option', { name: /English|navegador/ })
    .first()
    .click();
  await page.goto('/driver');
  await expect(page.getByText(en.driver.currentStatus)).toBeVisible();
});
