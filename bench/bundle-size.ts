// JavaScript the browser receives for the login page, compressed as sent on the wire.
// Starts the real API serving apps/web/dist (build it first: npm run build -w apps/web), opens `/` in
// Debian's Chromium, and sums the encoded (transferred) size of every script response via the DevTools
// protocol. Budget: 250 KB. Usage: node --import tsx bench/bundle-size.ts
// The server listens on a free port and runs through tsx (BENCH_ENTRY=compiled: `npm run build`'s output).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { benchEntry, startBenchServer } from './bench-server.ts';

const BUDGET_KB = 250;
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build -w apps/web` first');
  process.exit(1);
}

const server = await startBenchServer({
  entry: benchEntry('source'),
  env: { DEMO: '0', SIMULATOR: '0', LOG_LEVEL: 'warn', DATABASE_URL: '', WEB_DIST: dist },
  readyTimeoutMs: 180_000,
});

interface Loaded {
  url: string;
  type: string;
  encoded: number;
  encoding: string;
}

async function measure(pagePath: string): Promise<Loaded[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const meta = new Map<string, { url: string; type: string; encoding: string }>();
    const loaded: Loaded[] = [];
    cdp.on('Network.responseReceived', (e) => {
      const headers = e.response.headers as Record<string, string>;
      meta.set(e.requestId, { url: e.response.url, type: e.type, encoding: headers['content-encoding'] ?? headers['Content-Encoding'] ?? 'identity' });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const m = meta.get(e.requestId);
      if (m) loaded.push({ ...m, encoded: e.encodedDataLength });
    });
    await page.goto(`${server.url}${pagePath}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    return loaded;
  } finally {
    await browser.close();
  }
}

try {
  const loaded = await measure('/');
  const scripts = loaded.filter((l) => l.type === 'Script');
  const css = loaded.filter((l) => l.type === 'Stylesheet');
  const kb = (n: number) => (n / 1024).toFixed(1);
  const total = scripts.reduce((s, l) => s + l.encoded, 0);
  console.log('Login page (/), scripts as transferred:');
  for (const s of scripts.sort((a, b) => b.encoded - a.encoded))
    console.log(`  ${kb(s.encoded).padStart(7)} KB  ${s.encoding.padEnd(8)} ${new URL(s.url).pathname}`);
  console.log(`JavaScript transferred: ${kb(total)} KB in ${scripts.length} files (budget ${BUDGET_KB} KB)`);
  console.log(
    `CSS transferred: ${kb(css.reduce((s, l) => s + l.encoded, 0))} KB; everything: ${kb(loaded.reduce((s, l) => s + l.encoded, 0))} KB in ${loaded.length} responses`,
  );
  const heavy = scripts.filter((s) => /maplibre|recharts|charts|MapView/i.test(s.url));
  if (heavy.length) console.log(`Map or chart code on the login page: ${heavy.map((h) => h.url).join(', ')}`);
  process.exitCode = total / 1024 <= BUDGET_KB && heavy.length === 0 ? 0 : 1;
} finally {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
