import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

// Issue 67: the JavaScript a page makes the browser download, compressed as the server sends it
// (scripts/precompress.mjs writes .gz and .br beside each file; the server picks by Accept-Encoding).
// Counted in gzip, the encoding every browser takes (Chromium is given only gzip here; with brotli
// it is about a tenth less): the compressed bodies of every script the page loads before it is
// idle, headers not counted. Bytes, not timing: the same build gives the same figures on any machine.
// docs/benchmarks/web-bundle.md keeps the figures.

const KB = 1024;
// Issue 67 asks for 150 KB (sign-in) and 250 KB (driver's home): both pages are held to their targets
// (docs/benchmarks/web-bundle.md keeps the steps).
/** The sign-in page, a first visit: its own bundle (decision 0270); 252.9 KB before it, 359.6 before that. */
const LOGIN_BUDGET = 150 * KB;
/**
 * The driver's home screen (/driver), a first visit signed in: 248.1 KB since the loads card reads
 * its list from loads-query.ts, not the dispatch screens' calls (issue 72's additions had taken it to
 * 251.7 KB); 246.8 KB without preload lists and the shell's scroll library (decision 0297); 270.1
 * before (decision 0277), 450.3 before that.
 */
const DRIVER_HOME_BUDGET = 250 * KB;
const DRIVER = { email: 'driver@demofreight.test', password: 'Driver#2026' };

interface Script {
  path: string;
  bytes: number;
}

/** Opens `path` (a fresh context: an empty cache, no service worker) and lists the scripts it loads until idle, with their compressed bodies. */
async function scriptsOf(page: Page, path: string, ready: () => Promise<void>): Promise<Script[]> {
  await page.setExtraHTTPHeaders({ 'accept-encoding': 'gzip' });
  const pending: Promise<Script>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const encoding = (await request.response())?.headers()['content-encoding'] ?? 'identity';
        return { path: `${new URL(request.url()).pathname} (${encoding})`, bytes: (await request.sizes()).responseBodySize };
      })(),
    );
  });
  await page.goto(path);
  await ready();
  await page.waitForLoadState('networkidle');
  return Promise.all(pending);
}

function report(name: string, scripts: Script[]): number {
  const total = scripts.reduce((s, x) => s + x.bytes, 0);
  // The largest files, for whoever has to find what grew (BUNDLE_TOP=200 lists them all).
  const lines = scripts
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, Number(process.env.BUNDLE_TOP ?? 15))
    .map((s) => `${(s.bytes / KB).toFixed(1).padStart(7)} KB  ${s.path}`);
  console.log(`${name}: ${(total / KB).toFixed(1)} KB gzip in ${scripts.length} scripts; the largest:\n${lines.join('\n')}`);
  return total;
}

test('the sign-in page loads its JavaScript within budget (gzip), none of the office app', async ({ page }) => {
  const scripts = await scriptsOf(page, '/', () => expect(page.getByRole('button', { name: 'Log in' })).toBeVisible());
  const total = report('sign-in page', scripts);
  // Nothing from the signed-in side: its shell, the maps, the charts.
  expect(scripts.filter((s) => /signed-in-shell|maplibre|recharts|BarChart|LineChart|map-page|dashboard-page/i.test(s.path)).map((s) => s.path)).toEqual([]);
  // Every file but the smallest (under 1 KB, sent as they are) arrives gzipped.
  expect(scripts.filter((s) => !s.path.endsWith('(gzip)') && s.bytes >= KB).map((s) => s.path)).toEqual([]);
  expect(total).toBeLessThan(LOGIN_BUDGET);
});

test("the driver's home screen loads its JavaScript within budget (gzip)", async ({ page }) => {
  await signIn(page, DRIVER);
  const scripts = await scriptsOf(page, '/driver', () => expect(page.getByRole('group', { name: 'Change duty status' })).toBeVisible());
  const total = report('driver home', scripts);
  expect(scripts.filter((s) => /maplibre|recharts|BarChart|LineChart/i.test(s.path)).map((s) => s.path)).toEqual([]);
  expect(total).toBeLessThan(DRIVER_HOME_BUDGET);
});
