import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ROUTES, type AppRoute } from '../src/app/routes.ts';
import { officeApi } from './driver-helpers.ts';
import { navigateInApp, screenSettled, screenText } from './helpers.ts';
import { ADMIN, freshVin, login, ORG, uniq } from './registry-helpers.ts';

/** The demo organization through the API, as the demo admin: what the screens saved, in metric. */
async function apiAs(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/authenticate', { data: ADMIN });
  expect(res.ok()).toBe(true);
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const org = `/api/v1/organizations/${user.organization.id}`;
  return {
    asset: async (unit: string) => {
      const page = await (await request.get(`${org}/assets?search=${encodeURIComponent(unit)}`, { headers })).json();
      expect(page.content).toHaveLength(1);
      return page.content[0] as { odometerKm: number | null; lengthM: number | null; make: string | null };
    },
    get: async <T>(path: string) => (await (await request.get(`${org}${path}`, { headers })).json()) as T,
    units: async () => ((await (await request.get(`${org}/settings`, { headers })).json()) as { units: string }).units,
    setUnits: async (units: 'IMPERIAL' | 'METRIC') => {
      const settings = await (await request.get(`${org}/settings`, { headers })).json();
      expect((await request.put(`${org}/settings`, { headers, data: { ...settings, units } })).ok()).toBe(true);
    },
  };
}

/** Picks the unit system on the organization account page and saves it. */
async function chooseUnits(page: Page, label: 'Imperial (mi, gal)' | 'Metric (km, L)') {
  await navigateInApp(page, `${ORG}/organization-account`);
  const settings = page.getByRole('form', { name: 'Organization settings' });
  await settings.getByText(label).click();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
}

/** Opens a vehicle's detail from the side menu: no reload, so the screens use what the app already holds. */
async function openVehicle(page: Page, unit: string) {
  await page.getByRole('navigation').getByRole('link', { name: 'Vehicles', exact: true }).click();
  await page.getByLabel('Search Vehicles').fill(unit);
  await page.getByRole('row', { name: new RegExp(unit) }).click();
  return page.getByRole('dialog', { name: `Vehicle ${unit}` });
}

test('odometers and trailer lengths follow the organization units on screen and are saved metric', async ({ page, request }) => {
  const api = await apiAs(request);
  expect(await api.units()).toBe('IMPERIAL'); // the demo organization's default
  const unit = `UNITS-${uniq()}`;
  const trailer = `UT-${uniq()}`;
  await login(page, ADMIN);
  try {
    // Imperial: the odometer is typed in miles and stored in km (250,000 mi = 402,336 km).
    await page.goto(`${ORG}/vehicle-add`);
    const form = page.getByRole('form', { name: 'Vehicle form' });
    await form.getByLabel('Unit number').fill(unit);
    await form.getByRole('textbox', { name: 'VIN' }).fill(freshVin());
    await form.getByLabel('Odometer (mi)').fill('250000');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect((await api.asset(unit)).odometerKm).toBe(402336);
    await page.getByLabel('Search Vehicles').fill(unit);
    await page.getByRole('row', { name: new RegExp(unit) }).click();
    let detail = page.getByRole('dialog', { name: `Vehicle ${unit}` });
    await expect(detail.getByText('250,000 mi')).toBeVisible();
    await expect(detail.getByText(/ km\b/)).toHaveCount(0);

    // A trailer's length in feet (53 ft = 16.15 m).
    await page.goto(`${ORG}/trailers?addTrailer=true`);
    const trailerForm = page.getByRole('form', { name: 'Trailer form' });
    await trailerForm.getByLabel('Unit number').fill(trailer);
    await trailerForm.getByLabel('Length (ft)').fill('53');
    await trailerForm.getByRole('button', { name: 'Save' }).click();
    await expect(trailerForm).toBeHidden();
    expect((await api.asset(trailer)).lengthM).toBe(16.15);
    await page.getByRole('row', { name: new RegExp(trailer) }).click();
    await expect(page.getByRole('dialog', { name: `Trailer ${trailer}` }).getByText('53 ft')).toBeVisible();
    await page.keyboard.press('Escape');

    // Metric: the same vehicle reads in km at once (no reload), and the form asks for km.
    await chooseUnits(page, 'Metric (km, L)');
    detail = await openVehicle(page, unit);
    await expect(detail.getByText('402,336 km')).toBeVisible();
    await detail.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('Odometer (km)')).toHaveValue('402336');
    await form.getByLabel('Odometer (km)').fill('100');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect((await api.asset(unit)).odometerKm).toBe(100);

    // Back to Imperial: 100 km shows as 62.1 mi; saving another field leaves the odometer exactly
    // as it was (62.1 mi typed back would be 99.9 km).
    await chooseUnits(page, 'Imperial (mi, gal)');
    detail = await openVehicle(page, unit);
    await expect(detail.getByText('62.1 mi')).toBeVisible();
    await detail.getByRole('button', { name: 'Edit' }).click();
    await expect(form.getByLabel('Odometer (mi)')).toHaveValue('62.1');
    await form.getByLabel('Make').fill('Peterbilt');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect(await api.asset(unit)).toMatchObject({ make: 'Peterbilt', odometerKm: 100 });
  } finally {
    // Other browser tests read speeds in mph: leave the demo organization Imperial whatever happened.
    await api.setUnits('IMPERIAL');
  }
});

// ------------------------------------------------------------------ every screen in both systems

type Units = 'IMPERIAL' | 'METRIC';

/**
 * Unit words of the other system. Tuned so ordinary words never match: "mi" only as a word, "m"
 * and "L" not at all (too short to tell from a name); the legitimate phrases below are removed first.
 */
const FOREIGN: Record<Units, RegExp> = {
  IMPERIAL: /\bkm\b|km\/h|L\/100|\blitres?\b|\bkilomet(?:re|er)s?\b/gi,
  METRIC: /\bmi\b|\bmph\b|\bmpg\b|\bgal\b|\bgallons?\b|\bmiles?\b|\bft\b/g,
};
const LEGIT = [
  /150 air-miles?/gi,
  // The organization account's choice between the systems names both.
  /Imperial \(mi, gal\)|Metric \(km, L\)/g,
  // The trailer form's help converts the common length for a Metric organization.
  /A 53 ft trailer is 16\.15 m/g,
  // An ELD event's location as recorded ("2 mi S of Lombard, IL"): the US ELD rule writes it in miles
  // (Appendix A 4.4.2) and a record of duty status is shown as it was recorded.
  /\b\d+(?:\.\d+)? ?mi [NSEW]{1,3} of\b/g,
  // Driver pay rates are per mile in every organization for now (decision 0294; per km for a metric
  // carrier is an open gap of issue 70).
  /\$\d+\.\d+\/mi (?:loaded|empty)/g,
];

/** What some screens must show in each system: the walk reads figures, not empty pages. */
const SHOWN: Record<string, Record<Units, RegExp>> = {
  [`${ORG}/organization-account`]: { IMPERIAL: /Speeding above \(mph\)/, METRIC: /Speeding above \(km\/h\)/ },
  // Distances, and the economy of this file's truck from its two fills (the first a second after the
  // tracker saw it leave: a receipt's clock is read loosely, decision 0280).
  '/analytics/fleet-performance': { IMPERIAL: /\d mi\b[\s\S]*\d mpg\b/, METRIC: /\d km\b[\s\S]*\d L\/100 km\b/ },
  '/map/history': { IMPERIAL: /\d mph/, METRIC: /\d km\/h/ },
  '/hos/logs/:id': { IMPERIAL: /\d\.\d mi\b/, METRIC: /\d\.\d km\b/ },
  [`${ORG}/vehicle-add`]: { IMPERIAL: /Odometer \(mi\)/, METRIC: /Odometer \(km\)/ },
  '/reports/trips': { IMPERIAL: /Distance by day \(mi\)/, METRIC: /Distance by day \(km\)/ },
  '/reports/summary': { IMPERIAL: /Distance by day \(mi\)/, METRIC: /Distance by day \(km\)/ },
  // Issue 33: a load's weight and distances, the form's weight, revenue per distance.
  '/dispatch/loads/:id': { IMPERIAL: /\d lb\b[\s\S]*\d mi\b/, METRIC: /\d kg\b[\s\S]*\d km\b/ },
  '/dispatch/loads/new': { IMPERIAL: /Weight \(lb\)/, METRIC: /Weight \(kg\)/ },
  '/analytics/revenue': { IMPERIAL: /total mile/, METRIC: /total km/ },
};

/** Office screens that are not walked, and why. Every other screen of the route table is. */
const NOT_WALKED: Record<string, string> = {
  '/ifta': 'IFTA reports in miles and gallons for US jurisdictions and km and litres for Canadian ones (tested by ifta.spec.ts)',
  '/help': 'help articles explain thresholds in both systems ("5 mph (8 km/h)")',
  '/search': 'search results are names; no quantity is shown',
  // Issue 70: opened from their lists (walked), with a record of their own tests' making.
  '/invoices/:id': 'an invoice is money, dates and load numbers; detention in minutes (tested by invoices.spec.ts)',
  '/settlements/:id': "a settlement pays miles at the profile's per-mile rates, with km beside them for a metric organization (tested by settlements.spec.ts)",
};

/** The screens of the route table a signed-in office user opens (no sign-in pages, driver app or administration). */
function officeRoutes(): string[] {
  const out: string[] = [];
  const walk = (rs: readonly AppRoute[]) => {
    for (const r of rs) {
      if (r.access === 'private' && r.page && !r.underDevelopment && !r.ownDriver && !r.path.startsWith('/administration')) out.push(r.path);
      if (r.children) walk(r.children);
    }
  };
  walk(ROUTES);
  return out;
}

function foreignWords(text: string, units: Units): string[] {
  let t = text;
  for (const l of LEGIT) t = t.replace(l, '');
  return [...t.matchAll(FOREIGN[units])].map((m) => t.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20).replace(/\s+/g, ' '));
}

interface WalkData {
  unitNumber: string;
  logId: string;
  logDay: string;
  /** A load (issue 33) with a weight, hauled by the walk's driver. */
  loadId: string;
}
let walkData: Promise<WalkData> | null = null;

/**
 * Something on every screen to read (the browser tests run without the simulator): a new truck
 * with its own driver and tracker drives 4 minutes at 90 km/h from now and stops (engine off), and buys fuel,
 * so the map, history, logs, dashboard and fleet performance show distances, speeds and economy.
 * Made once for both systems; a fresh truck and driver touch no other test's data.
 */
function walkDataOnce(request: APIRequestContext): Promise<WalkData> {
  walkData ??= (async () => {
    const office = await officeApi(request);
    const { org, headers } = office;
    const ok = async <T>(r: Awaited<ReturnType<APIRequestContext['get']>>, status = 200) => {
      expect(r.status(), await r.text()).toBe(status);
      return (await r.json()) as T;
    };
    const vehicle = await office.vehicle();
    const tag = uniq();
    const driver = await ok<{ id: string }>(
      await request.post(`${org}/drivers`, {
        headers,
        data: { firstName: 'Unit', lastName: `Walker${tag}`, licenseNumber: `UW${tag}`, licenseState: 'IL', homeTimeZone: 'America/Chicago' },
      }),
      201,
    );
    await office.assign(vehicle.id, driver.id);
    const uniqueId = `units-${tag.toLowerCase()}`;
    const gw = await ok<{ id: string }>(await request.post(`${org}/gateways`, { headers, data: { uniqueId, name: `Tracker ${uniqueId}` } }), 201);
    await ok<unknown>(await request.post(`${org}/gateways/${gw.id}/pair/${vehicle.id}`, { headers, data: {} }));
    const start = Date.now() + 2_000;
    let lon = -88;
    let odometerM = 100_000_000;
    const fixes: Array<[number, number]> = [];
    for (let s = 0; s <= 240; s += 20) fixes.push([start + s * 1000, 90]);
    for (let s = 260; s <= 420; s += 40) fixes.push([start + s * 1000, 0]);
    for (const [t, kmh] of fixes) {
      const r = await request.get(
        `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor(t / 1000)}&lat=41.85&lon=${lon.toFixed(5)}&speed=${(kmh / 1.852).toFixed(2)}&odometer=${odometerM}${kmh ? '' : '&ignition=false'}`,
      );
      expect(r.status()).toBe(200);
      lon += ((kmh / 3600) * 20) / 83;
      odometerM += (kmh / 3.6) * 20;
    }
    // Fuel economy from fill to fill (decision 0280): filled as it sets off and again once parked
    // (the engine off ends the trip), 0.6 gal for the 3.7 mi between.
    for (const [at, quantity, n] of [
      [start, 1, ''],
      [start + 400_000, 0.6, '-2'],
    ] as const) {
      await ok<unknown>(
        await request.post(`${org}/ifta/fuel-purchases`, {
          headers,
          data: {
            purchasedAt: new Date(at).toISOString(),
            assetId: vehicle.id,
            jurisdiction: 'IL',
            quantity,
            volumeUnit: 'GAL',
            pricePerUnit: 4,
            totalAmount: +(4 * quantity).toFixed(2),
            receiptNumber: `U-${tag}${n}`,
          },
        }),
        201,
      );
    }
    // The driver's log day (Chicago) once automatic duty status has recorded the drive.
    const logDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(start));
    let logId: string | null = null;
    await expect
      .poll(
        async () => {
          const rows = await ok<{ content: Array<{ logId: string | null }> }>(
            await request.get(`${org}/hos_log?date=${logDay}&search=Walker${tag}`, { headers }),
          );
          logId = rows.content[0]?.logId ?? null;
          return !!logId;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(start + 86_400_000));
    const load = await ok<{ id: string }>(
      await request.post(`${org}/loads`, {
        headers,
        data: {
          customer: `Unit Walk Foods ${tag}`,
          weightKg: 18000,
          stops: [
            {
              kind: 'PICKUP',
              latitude: 41.85,
              longitude: -87.65,
              windowStart: `${day}T08:00:00-06:00`,
              windowEnd: `${day}T10:00:00-06:00`,
              serviceMinutes: 60,
            },
            {
              kind: 'DELIVERY',
              latitude: 39.77,
              longitude: -86.16,
              windowStart: `${day}T16:00:00-05:00`,
              windowEnd: `${day}T20:00:00-05:00`,
              serviceMinutes: 45,
            },
          ],
          rate: { lineHaul: 900 },
          driverIds: [driver.id],
          assetId: vehicle.id,
        },
      }),
      201,
    );
    return { unitNumber: vehicle.unitNumber, logId: logId!, logDay, loadId: load.id };
  })();
  return walkData;
}

for (const units of ['IMPERIAL', 'METRIC'] as const) {
  test(`every office screen speaks ${units.toLowerCase()} units only`, async ({ page, request }) => {
    // About a minute a system on an idle machine; generous for the shared one.
    test.setTimeout(240_000);
    const api = await apiAs(request);
    await api.setUnits(units);
    try {
      const data = await walkDataOnce(request);
      type Page0<T> = { content: T[] };
      const device = (await api.get<Page0<{ id: string }>>('/gateways?size=1')).content[0]?.id;
      const group = (await api.get<Page0<{ id: string }>>('/groups?size=1')).content[0]?.id;
      const paths: Record<string, string | undefined> = {
        '/hos/logs': `/hos/logs?date=${data.logDay}`,
        '/hos/logs/:id': `/hos/logs/${data.logId}`,
        [`${ORG}/devices/:id`]: device && `${ORG}/devices/${device}`,
        [`${ORG}/groups/:id/members`]: group && `${ORG}/groups/${group}/members`,
        [`${ORG}/groups/:id/assets`]: group && `${ORG}/groups/${group}/assets`,
        '/map/history': '/map/history?type=assets',
        '/dispatch/loads/:id': `/dispatch/loads/${data.loadId}`,
        '/dispatch/loads/:id/edit': `/dispatch/loads/${data.loadId}/edit`,
        // A place's page (its list when there is none yet).
        '/places/:id': ((id) => (id ? `/places/${id}` : '/places'))((await api.get<Page0<{ id: string }>>('/places?size=1')).content[0]?.id),
        // The newest inspection report (its list when there is none).
        '/maintenance/inspections/:id': ((id) => (id ? `/maintenance/inspections/${id}` : '/maintenance/inspections'))(
          (await api.get<Page0<{ id: string }>>('/dvirs?size=1')).content?.[0]?.id,
        ),
      };
      await login(page, ADMIN);
      const problems: string[] = [];
      for (const route of officeRoutes()) {
        if (route in NOT_WALKED) continue;
        const path = route in paths ? paths[route] : route;
        expect(path, `a link to ${route}`).toBeTruthy();
        // An add form opens when its route loads, not when its list (the same screen) changes route.
        if (route.endsWith('-add')) await page.goto(path!);
        else await navigateInApp(page, path!);
        if (route === '/map/history') {
          await page.getByRole('combobox', { name: 'Vehicle' }).click();
          await page.getByRole('option', { name: data.unitNumber, exact: true }).click();
          await expect(page.getByTestId('history-summary')).toContainText('Distance');
        }
        await screenSettled(page);
        // A quantity the screen must show may come with a second query after the words settled
        // (the loaded machine showed it seconds later): up to 10 s for it, then the screen is read.
        const shown = SHOWN[route]?.[units];
        const found =
          !shown ||
          (await expect
            .poll(async () => shown.test(await screenText(page)), { timeout: 10_000 })
            .toBe(true)
            .then(
              () => true,
              () => false,
            ));
        const text = await screenText(page);
        for (const w of foreignWords(text, units)) problems.push(`${route}: …${w}…`);
        if (!found) problems.push(`${route}: no ${shown}`);
        if (route === '/analytics/fleet-performance') {
          // The export too: its header names the organization's units.
          const download = page.waitForEvent('download');
          await page.getByRole('button', { name: 'Export CSV' }).click();
          const csv = fs.readFileSync((await (await download).path())!, 'utf8');
          const header = csv.split(/\r?\n/)[0]!;
          expect(header).toContain(units === 'IMPERIAL' ? 'Distance (mi)' : 'Distance (km)');
          expect(header).toContain(units === 'IMPERIAL' ? 'Fuel economy (mpg)' : 'Fuel economy (L/100 km)');
          for (const w of foreignWords(header, units)) problems.push(`fleet performance CSV: …${w}…`);
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await api.setUnits('IMPERIAL');
    }
  });
}
