import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, login } from './helpers.ts';

// The e2e server runs with SIMULATOR=0 (no live simulator, no 7-day backfill), so the test makes
// its own data the way a device would: OsmAnd requests to the real ingest endpoint for the seeded
// demo devices paired with tractors 101..125 (demo-truck-01..25, five of them Teltonika devices known
// by their IMEI: any registered id may speak OsmAnd).

const KNOTS_PER_KMH = 1 / 1.852;
let deviceOfTruck = new Map<number, string>();
const truckId = (i: number) => deviceOfTruck.get(100 + i) ?? `demo-truck-${String(i).padStart(2, '0')}`;

/** The devices' unique ids by the unit number of the tractor they are paired with, from the registry. */
async function loadDeviceIds(request: APIRequestContext): Promise<void> {
  const auth = await request.post('/api/v1/auth/authenticate', { data: ACCOUNTS.admin });
  expect(auth.status()).toBe(200);
  const { accessToken, user } = (await auth.json()) as { accessToken: string; user: { organization: { id: string } } };
  const res = await request.get(`/api/v1/organizations/${user.organization.id}/gateways?size=100`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(res.status()).toBe(200);
  const { content } = (await res.json()) as { content: Array<{ uniqueId: string; asset: { unitNumber: string } | null }> };
  deviceOfTruck = new Map(content.flatMap((g) => (g.asset && /^\d+$/.test(g.asset.unitNumber) ? [[Number(g.asset.unitNumber), g.uniqueId] as const] : [])));
}

async function post(request: APIRequestContext, q: Record<string, string | number | boolean>) {
  const res = await request.post(`/api/v1/ingest/osmand?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()}`);
  expect(res.status(), JSON.stringify(q)).toBe(200);
}

/** The list's rows of the demo tractors 101-125 (the driver tests add trucks of their own that also report). */
const demoRows = (page: Page) => page.getByTestId('vehicle-row').filter({ hasText: /^\s*1(0[1-9]|1\d|2[0-5])(?!\d)/ });
/** The count a status filter button shows. */
const shown = async (button: Locator) => Number(/(\d+)/.exec((await button.textContent()) ?? '')?.[1] ?? NaN);

let seeded = false;
async function seedPositions(request: APIRequestContext) {
  if (seeded) return;
  await loadDeviceIds(request);
  const now = Math.floor(Date.now() / 1000);
  // Truck 01: a track over the last 8 minutes heading north-east out of Dallas at highway speed,
  // so "today" has history whatever the hour (the first fixes may fall before midnight).
  for (let k = 0; k <= 32; k++) {
    const t = now - 480 + k * 15;
    await post(request, {
      id: truckId(1),
      lat: (32.78 + k * 0.004).toFixed(5),
      lon: (-96.8 + k * 0.004).toFixed(5),
      timestamp: t,
      speed: ((60 + (k % 8) * 8) * KNOTS_PER_KMH).toFixed(2),
      bearing: 45,
      ignition: true,
    });
  }
  // Trucks 02-15 moving, 16-25 parked with the ignition off, spread across the lower 48.
  for (let i = 2; i <= 25; i++) {
    const moving = i <= 15;
    await post(request, {
      id: truckId(i),
      lat: (30 + (i % 5) * 3.1).toFixed(4),
      lon: (-120 + i * 1.9).toFixed(4),
      timestamp: now - i,
      speed: moving ? (95 * KNOTS_PER_KMH).toFixed(2) : 0,
      bearing: (i * 37) % 360,
      ignition: moving,
    });
  }
  seeded = true;
}

test.describe('live map and history', () => {
  // The map, its worker and the offline outlines load on a shared 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test.beforeEach(async ({ page, request }) => {
    await seedPositions(request);
    await login(page, 'admin');
  });

  test('vehicles appear on the map and in the list, filter by status, open a card', async ({ page }) => {
    await page.goto('/map');
    const rows = demoRows(page);
    await expect(rows).toHaveCount(25);
    await expect(page.getByTestId('vehicle-list')).toContainText('101');

    // The sandbox has no internet: the street map fails, the notice shows and the offline map takes over.
    await expect(page.getByTestId('basemap-notice')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('radio', { name: 'Offline' })).toBeChecked();

    // Vehicles are drawn by the GPU layers: ask MapLibre what it rendered.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const canvas = document.querySelector('.maplibregl-canvas');
          return canvas ? (canvas as HTMLCanvasElement).width > 0 : false;
        }),
      )
      .toBe(true);

    const moving = page.getByTestId('status-filter-MOVING');
    await expect(moving).toHaveText(/Moving \d+/);
    await expect(page.getByTestId('status-filter-STOPPED')).toHaveText(/Stopped \d+/);
    await moving.click();
    await expect(moving).toHaveAttribute('aria-pressed', 'true');
    await expect(rows).toHaveCount(15);
    await page.getByTestId('status-filter-STOPPED').click();
    await expect(rows).toHaveCount(10);
    await page.getByTestId('status-filter-STOPPED').click();
    await expect(rows).toHaveCount(25);

    await page.getByLabel('Search vehicles').fill('101');
    await expect(rows).toHaveCount(1);
    await rows.first().click();
    const card = page.getByTestId('vehicle-card');
    await expect(card).toBeVisible();
    await expect(card).toContainText('101');
    await expect(card).toContainText('Moving');
    await expect(card).toContainText(/\d+ mph/);
    await expect(card).toContainText('32.9');
    await card.getByLabel('Follow').check();
    await expect(card.getByLabel('Follow')).toBeChecked();
  });

  test("clusters show their counts on the offline map, drawn from the app's own font", async ({ page, baseURL }) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (/glyph|font/i.test(m.text())) problems.push(m.text());
    });
    // MapLibre downloads a declared font file only when it has a character of it to draw: the
    // request is the cluster counts being rendered (the trucks are ~2 degrees apart, so at the
    // whole-country zoom they cluster).
    const font = page.waitForResponse((r) => /noto-sans-latin-700-normal[^/]*\.woff2$/.test(r.url()), { timeout: 45_000 });
    await page.goto('/map');
    await expect(demoRows(page)).toHaveCount(25);
    await expect(page.getByRole('radio', { name: 'Offline' })).toBeChecked({ timeout: 20_000 });
    const res = await font;
    expect(res.status()).toBe(200);
    expect(new URL(res.url()).origin).toBe(new URL(baseURL!).origin);
    expect(problems).toEqual([]);
  });

  test('live updates arrive over a stream opened with a single-use ticket, and a reconnect takes a new one', async ({ page, request }) => {
    // Every EventSource the page opens, so the test can see its URL and break its connection.
    await page.addInitScript(`
      window.__streams = [];
      const Orig = window.EventSource;
      window.EventSource = class extends Orig {
        constructor(url, init) {
          super(url, init);
          window.__streams.push(this);
        }
      };
    `);
    // The live map's streams (the bell has one of its own for notifications).
    const streamUrls = () =>
      page.evaluate(() => (window as unknown as { __streams: EventSource[] }).__streams.map((s) => s.url).filter((u) => u.includes('/assets/stream')));
    const tickets: string[] = [];
    page.on('response', async (r) => {
      if (/\/assets\/stream\/ticket$/.test(r.url()) && r.status() === 200) tickets.push(((await r.json()) as { ticket: string }).ticket);
    });
    await page.goto('/map');
    await expect(demoRows(page)).toHaveCount(25);
    await expect.poll(streamUrls).toHaveLength(1);
    const [first] = await streamUrls();
    expect(first).toMatch(/\/assets\/stream\?ticket=[\w-]{40,}$/);
    expect(first).not.toContain('access_token');
    expect(first).not.toContain('eyJ');

    // Truck 16 is parked; a new fix sets it moving, and only the stream can tell the page.
    const moving = page.getByTestId('status-filter-MOVING');
    const stopped = page.getByTestId('status-filter-STOPPED');
    await expect(moving).toHaveText(/Moving \d+/);
    const movingBefore = await shown(moving);
    const now = Math.floor(Date.now() / 1000);
    await post(request, { id: truckId(16), lat: 36.5, lon: -89.6, timestamp: now, speed: (80 * KNOTS_PER_KMH).toFixed(2), bearing: 90, ignition: true });
    await expect(moving).toHaveText(`Moving ${movingBefore + 1}`);

    // The connection breaks: the page closes it (its ticket is spent) and opens a new one with a new ticket.
    await page.evaluate(() =>
      (window as unknown as { __streams: EventSource[] }).__streams.filter((s) => s.url.includes('/assets/stream'))[0]!.dispatchEvent(new Event('error')),
    );
    await expect.poll(streamUrls, { timeout: 20_000 }).toHaveLength(2);
    const [, second] = await streamUrls();
    expect(second).toMatch(/\/assets\/stream\?ticket=[\w-]{40,}$/);
    expect(second).not.toBe(first);
    expect(tickets).toHaveLength(2);
    expect(first).toContain(tickets[0]);
    expect(second).toContain(tickets[1]);
    expect(
      await page.evaluate(() => (window as unknown as { __streams: EventSource[] }).__streams.filter((s) => s.url.includes('/assets/stream'))[0]!.readyState),
    ).toBe(2);

    // Still live after the reconnect: truck 16 parks again. Counted from just before: over a long run
    // another demo truck's last fix can age out of "moving" meanwhile (a run failed so, 18 against 16).
    const [movingNow, stoppedNow] = [await shown(moving), await shown(stopped)];
    await post(request, { id: truckId(16), lat: 36.5, lon: -89.6, timestamp: now + 5, speed: 0, bearing: 90, ignition: false });
    await expect(moving).toHaveText(`Moving ${movingNow - 1}`);
    await expect(stopped).toHaveText(`Stopped ${stoppedNow + 1}`);
    await expect(page.getByText('Reconnecting…')).toHaveCount(0);
  });

  test('history for a demo truck draws and plays', async ({ page }) => {
    await page.goto('/map/history');
    await expect(page.getByText('Pick a vehicle, driver or device')).toBeVisible();
    await page.getByRole('combobox', { name: 'Vehicle' }).click();
    await page.getByRole('option', { name: '101', exact: true }).click();
    await expect(page).toHaveURL(/asset=/);
    const summary = page.getByTestId('history-summary');
    await expect(summary).toContainText('Distance');
    await expect(summary).toContainText(/\d+\.\d mi/);
    await expect(page.getByTestId('speed-legend')).toBeVisible();
    await expect(page.getByTestId('speed-chart')).toBeVisible();

    const readout = page.getByTestId('playback-readout');
    const before = await readout.textContent();
    await page.getByRole('combobox', { name: 'Playback speed' }).click();
    await page.getByRole('option', { name: '16x' }).click();
    await page.getByTestId('play-button').click();
    // At 16x the 8-minute track plays in about half a second: the marker, slider and readout move to its end.
    await expect.poll(() => readout.textContent(), { timeout: 10_000 }).not.toBe(before);
    await expect(page.getByRole('slider', { name: 'Playback position' })).not.toHaveAttribute('aria-valuenow', '0');
    await expect(page.getByTestId('play-button')).toHaveText(/Play/);
    await expect(page.getByTestId('playback-marker')).toBeVisible();
  });
});
