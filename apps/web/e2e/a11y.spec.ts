import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { flattenRoutes, type AppRoute } from '../src/app/routes.ts';
import { ACCOUNTS, layoutSettled, navigateInApp, seriousA11yViolations, signIn, wordsStill } from './helpers.ts';

// Issue 28: axe finds no serious or critical issue on any route of the route table, in the light
// theme, the dark theme and on a 375 px phone. Each screen is opened by who uses it: the sign-in
// pages signed out, the driver's screens as the demo driver, administration as the super
// administrator, everything else as the organization's administrator. One sign-in per group (through
// the API: signing in is auth.spec.ts's subject), and one page load per group: the screens after the
// first are opened inside the app, as its links do, so axe is injected once (decision 0219).

// axe is injected as a script tag, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });
// About 20 screens a test, each checked three times (3-10 s a check under load).
test.describe.configure({ timeout: 900_000 });

type Who = 'signed out' | 'admin' | 'driver' | 'superAdmin';
/** The administrator's screens come in two runs (settings, the rest), each within the test timeout. */
type Part = Who | 'admin settings';
const DRIVER = { email: 'driver@demofreight.test', password: 'Driver#2026' };

function partOf(r: AppRoute): Part {
  if (r.access === 'public') return 'signed out';
  if (r.path.startsWith('/administration')) return 'superAdmin';
  if (r.ownDriver) return 'driver';
  return r.path.startsWith('/settings') ? 'admin settings' : 'admin';
}

/** Every screen of the table (parents without a page show their children, which are listed). */
const SCREENS = flattenRoutes()
  .map((x) => x.route)
  .filter((r) => r.page)
  .map((r) => ({ part: partOf(r), path: r.path === '*' ? '/no/such/page' : r.path }));

/**
 * The three looks of each screen, checked on one load of it: the light theme at 1280 px, the dark
 * theme at 1280 px (switched through the app's own colour-scheme store, as the toggle does), then the
 * light theme on a 375 px phone (the layout follows the viewport live). Loading each screen once
 * instead of three times keeps this spec's share of CI small.
 */
const DESKTOP = { width: 1280, height: 800 };
/**
 * The dark theme swaps colours only (Mantine's CSS variables under data-mantine-color-scheme): the
 * DOM, its roles, names and structure, are those the light check just passed. So the dark check
 * runs the rules that read colours; the full rule set runs on the light desktop and the phone.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
const PHONE = { width: 375, height: 812 };

/** Sets the colour scheme as the theme toggle does: the stored choice, announced to the app's store. */
async function setScheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((value) => {
    const key = 'fleet.colorScheme';
    localStorage.setItem(key, value);
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
  }, scheme);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  await layoutSettled(page);
}

/** Ids for the parameter routes, read through the API as the administrator. */
async function routeIds(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/authenticate', { data: ACCOUNTS.admin });
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: { organization: { id: string } } };
  const get = async (path: string) =>
    (
      (await (await request.get(`/api/v1/organizations/${user.organization.id}${path}`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as {
        content: { id: string }[];
      }
    ).content[0]!.id;
  // The browser tests' server has no demo places (no simulator): one is drawn through the API so a place's page is checked.
  const headers = { authorization: `Bearer ${accessToken}` };
  const places = `/api/v1/organizations/${user.organization.id}/places`;
  let place = ((await (await request.get(`${places}?size=1`, { headers })).json()) as { content?: { id: string }[] }).content?.[0]?.id;
  if (!place) {
    const made = await request.post(places, {
      headers,
      data: { name: 'Accessibility Dock', category: 'CUSTOMER', geometry: { type: 'Point', coordinates: [-87.65, 41.85] }, radiusMeters: 200 },
    });
    place = made.ok() ? ((await made.json()) as { id: string }).id : undefined;
  }
  // Nor demo loads (issue 33): one is made, so a load's page and its form are checked.
  const loads = `/api/v1/organizations/${user.organization.id}/loads`;
  let load = ((await (await request.get(`${loads}?size=1`, { headers })).json()) as { content?: { id: string }[] }).content?.[0]?.id;
  if (!load) {
    const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const stop = (kind: string, latitude: number, longitude: number, from: string, to: string) => ({
      kind,
      latitude,
      longitude,
      windowStart: `${day}T${from}:00Z`,
      windowEnd: `${day}T${to}:00Z`,
      serviceMinutes: 60,
    });
    const made = await request.post(loads, {
      headers,
      data: {
        customer: 'Accessibility Foods',
        stops: [stop('PICKUP', 41.85, -87.65, '14:00', '16:00'), stop('DELIVERY', 39.77, -86.16, '22:00', '23:59')],
        rate: { lineHaul: 800 },
      },
    });
    load = made.ok() ? ((await made.json()) as { id: string }).id : undefined;
  }
  return { device: await get('/gateways?size=1'), group: await get('/groups?size=1'), place: place ?? '', load: load ?? '' };
}

async function concretePath(page: Page, path: string, ids: { device: string; group: string; place: string; load: string }): Promise<string | null> {
  if (path.startsWith('/dispatch/loads/:id')) {
    if (ids.load) return path.replace(':id', ids.load);
    test.info().annotations.push({ type: 'skipped screen', description: `no load to open ${path}` });
    return null;
  }
  if (path === '/places/:id') {
    if (ids.place) return `/places/${ids.place}`;
    test.info().annotations.push({ type: 'skipped screen', description: 'no place to open /places/:id' });
    return null;
  }
  if (path.includes('/devices/:id')) return path.replace(':id', ids.device);
  if (path.includes('/groups/:id')) return path.replace(':id', ids.group);
  if (path.includes(':token')) return path.replace(':token', 'not-a-real-token');
  if (path === '/maintenance/inspections/:id') {
    // The newest inspection report, opened from its list (none yet: noted, not checked).
    await page.goto('/maintenance/inspections');
    const first = page.getByRole('table', { name: 'Inspection reports' }).locator('tbody tr').first();
    const empty = page.getByTestId('data-state-empty');
    await expect(first.or(empty)).toBeVisible();
    if (await empty.isVisible()) {
      test.info().annotations.push({ type: 'skipped screen', description: 'no inspection report to open /maintenance/inspections/:id' });
      return null;
    }
    await first.click();
    await page.waitForURL(/\/maintenance\/inspections\/[0-9a-f-]{36}$/);
    return new URL(page.url()).pathname;
  }
  if (path === '/safety/events/:id' || path.startsWith('/safety/scores/')) {
    // Issue 47: an event from the inbox, a driver's and a vehicle's score from the scores (none without safety events: noted).
    const vehicles = path.includes('/vehicles/');
    // The previous screen's phone check left a 375 px viewport: the lists are tables at 1280 px.
    await page.setViewportSize(DESKTOP);
    await page.goto(path === '/safety/events/:id' ? '/safety?status=ALL' : `/safety/scores${vehicles ? '?by=vehicle' : ''}`);
    // Loaded: its heading, nothing busy (a list, or its empty or error state).
    await expect(page.locator('main h1, main h2').first()).toBeAttached();
    await expect(page.locator('[aria-busy="true"], [role="status"][aria-label="Loading"]')).toHaveCount(0);
    const link = path === '/safety/events/:id' ? null : page.locator(`a[href^="/safety/scores/${vehicles ? 'vehicles' : 'drivers'}/"]`).first();
    if (link) {
      if (await link.count()) return await link.getAttribute('href');
    } else {
      const row = page.getByRole('table', { name: 'Safety events' }).locator('tbody tr').first();
      if (await row.count()) {
        await row.click();
        await page.waitForURL(/\/safety\/events\/[0-9a-f-]{36}$/);
        return new URL(page.url()).pathname;
      }
    }
    test.info().annotations.push({ type: 'skipped screen', description: `nothing to open ${path}` });
    return null;
  }
  if (path === '/settlements/:id') {
    // Issue 70: the newest settlement, from its list (none on a fresh database: noted, not checked).
    await page.setViewportSize(DESKTOP);
    await page.goto('/settlements');
    await expect(page.locator('main h1, main h2').first()).toBeAttached();
    await expect(page.locator('[aria-busy="true"], [role="status"][aria-label="Loading"]')).toHaveCount(0);
    const row = page.getByRole('table', { name: 'Settlements' }).locator('tbody tr').first();
    if (await row.count()) {
      await row.click();
      await page.waitForURL(/\/settlements\/[0-9a-f-]{36}$/);
      return new URL(page.url()).pathname;
    }
    test.info().annotations.push({ type: 'skipped screen', description: 'no settlement to open /settlements/:id' });
    return null;
  }
  if (path === '/invoices/:id') {
    // Issue 70: the newest invoice, from its list (none on a fresh database: noted, not checked).
    await page.setViewportSize(DESKTOP);
    await page.goto('/invoices');
    await expect(page.locator('main h1, main h2').first()).toBeAttached();
    await expect(page.locator('[aria-busy="true"], [role="status"][aria-label="Loading"]')).toHaveCount(0);
    const link = page.locator('main a[href^="/invoices/"]').filter({ hasText: /INV-/ }).first();
    if (await link.count()) return await link.getAttribute('href');
    test.info().annotations.push({ type: 'skipped screen', description: 'no invoice to open /invoices/:id' });
    return null;
  }
  if (path === '/hos/logs/:id') {
    // A day with a log: the logs list links it (a fresh database may have none today: then it is noted, not checked).
    await page.goto('/hos/logs');
    await expect(page.getByLabel('Driver logs', { exact: true }).first()).toBeVisible();
    const link = page.locator('a[href^="/hos/logs/"]').first();
    if (!(await link.count())) {
      test.info().annotations.push({ type: 'skipped screen', description: 'no driver log today to open /hos/logs/:id' });
      return null;
    }
    return await link.getAttribute('href');
  }
  return path;
}

/** Signs `who` in; either way the page is left on the app's origin (its icon), for localStorage. */
async function startAs(page: Page, who: Who) {
  if (who === 'signed out') await page.goto('/favicon.svg');
  else await signIn(page, who === 'driver' ? DRIVER : ACCOUNTS[who]);
}

/**
 * Opens a screen: the first of a group with a page load, the next ones inside the app, but for an
 * add form (it opens when its route loads, not when its list changes route).
 */
async function open(page: Page, path: string, first: boolean) {
  if (first || path.endsWith('-add')) await page.goto(path);
  else await navigateInApp(page, path);
}

for (const part of ['signed out', 'admin', 'admin settings', 'driver', 'superAdmin'] as const) {
  const who: Who = part === 'admin settings' ? 'admin' : part;
  test(`no serious or critical accessibility violations on every ${part} screen (light, dark, 375 px)`, async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
    // The dark theme needs the organization's flag; the stored copy lets the sign-in pages use it too.
    await startAs(page, who);
    await page.evaluate(() => {
      localStorage.setItem('fleet.darkModeFlag', JSON.stringify({ isEnabled: true, defaultTheme: 'light' }));
      localStorage.setItem('fleet.colorScheme', 'light');
    });
    const ids = who === 'admin' ? await routeIds(request) : { device: '', group: '', place: '', load: '' };
    let first = true;
    for (const screen of SCREENS.filter((s) => s.part === part)) {
      const path = await concretePath(page, screen.path, ids);
      if (!path) continue;
      await page.setViewportSize(DESKTOP);
      // Signed out, each screen is loaded: the sign-in page is its own bundle, with no router to
      // open the next screen inside it (decision 0270).
      await open(page, path, first || who === 'signed out');
      first = false;
      // Every screen has a heading once it has loaded; nothing busy; its words still (the previous
      // screen's stand while the next one's code loads).
      await expect(page.locator('main h1, main h2').first()).toBeAttached();
      await expect(page.locator('[aria-busy="true"], [role="status"][aria-label="Loading"]')).toHaveCount(0);
      await wordsStill(page);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
      // Soft: one screen's findings do not hide the next screens' (or the other looks').
      expect.soft(await seriousA11yViolations(page), `${path} (light)`).toEqual([]);
      await setScheme(page, 'dark');
      expect.soft(await seriousA11yViolations(page, COLOUR_RULES), `${path} (dark)`).toEqual([]);
      await setScheme(page, 'light');
      await page.setViewportSize(PHONE);
      await expect(page.locator('main h1, main h2').first()).toBeAttached();
      await layoutSettled(page);
      expect.soft(await seriousA11yViolations(page), `${path} (375 px)`).toEqual([]);
    }
  });
}
