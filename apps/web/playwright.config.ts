import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { makeTestCertificates } from '../api/src/test/fmcsa-certs.ts';

// The browser tests run against the production build served by the real API on a fresh database.
// Workers inherit the environment of the main process, so the data directory is made exactly once.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-web-'));
const root = path.resolve(import.meta.dirname, '../..');
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
// Issue 45: a local stand-in for FMCSA's ELD web service (HTTPS with a client certificate), whose
// throwaway certificates are made once here, before either server starts; its "FMCSA" certificate
// also stands in for FMCSA's e-mail recipient.
const FMCSA_PORT = Number(process.env.FMCSA_PORT ?? E2E_PORT + 3);
const fmcsa = makeTestCertificates(path.join(process.env.E2E_DATA_DIR ?? '', 'fmcsa'));

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous: the shared 2-core machine runs several suites at once (load average 20-30 measured).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'line' : 'list',
  globalTeardown: './e2e/global-teardown.ts',
  outputDir: path.join(os.tmpdir(), 'fleet-e2e-web-results'),
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    // The office browser is in another zone than the demo organization and drivers (America/Chicago):
    // a screen that follows the browser's zone instead of decision 0140's shows it.
    timezoneId: 'Asia/Tokyo',
    // As a user who asked for less motion: no transitions to render (the theme respects it).
    reducedMotion: 'reduce',
    // Tracing every test doubled the run time on the loaded machine; turn it on with E2E_TRACE=1.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    // Each test's fresh context would install the service worker and download every screen's code
    // into its cache: only the offline tests allow it (test.use({ serviceWorkers: 'allow' })).
    serviceWorkers: 'block',
    launchOptions: {
      // Chromium's headless shell when installed: a third less CPU for the same tests (decision 0216).
      executablePath:
        process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        ...(process.env.E2E_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean),
      ],
    },
  },
  webServer: [
    {
      command: `node --import tsx apps/api/src/test/fmcsa-stand-in-main.ts ${FMCSA_PORT} ${fmcsa.dir}`,
      cwd: root,
      // HTTPS with a client certificate required: ready when it accepts connections.
      port: FMCSA_PORT,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The compiled server, as production runs it (`npm run build` made it).
      // E2E_API_MAIN / E2E_WEB_DIST: a copy of the build (under apps/api so npm packages resolve), so a
      // developer's browser run is not broken by another build replacing apps/*/dist mid-run.
      command: `node --enable-source-maps ${process.env.E2E_API_MAIN ?? 'apps/api/dist/main.js'}`,
      cwd: root,
      // /readyz: 503 until the demo data is seeded (the server listens before seeding, decision 0146).
      url: `http://127.0.0.1:${E2E_PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(E2E_PORT),
        // Every interface: lan.spec.ts opens the app through the machine's LAN address.
        HOST: '0.0.0.0',
        DATA_DIR: process.env.E2E_DATA_DIR,
        DEMO: '1',
        SIMULATOR: '0',
        // The device port must not collide with another developer's server (or the default 5055).
        OSMAND_PORT: process.env.OSMAND_PORT ?? '5099',
        // Nor Teltonika's (5027): e2e-copy.sh passes the e2e port + 2.
        TELTONIKA_PORT: process.env.TELTONIKA_PORT ?? String(E2E_PORT + 2),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
        WEB_DIST: process.env.E2E_WEB_DIST ?? path.join(root, 'apps/web/dist'),
        DATABASE_URL: '',
        ELD_TRANSFER_URL: `https://127.0.0.1:${FMCSA_PORT}/ELDSubmissionService.svc`,
        ELD_TRANSFER_CA: fmcsa.ca,
        ELD_CLIENT_CERT: fmcsa.clientCert,
        ELD_CLIENT_KEY: fmcsa.clientKey,
        ELD_FMCSA_CERT: fmcsa.serverCert,
        // Issue 48: integrations.spec.ts subscribes a receiver it starts on loopback over plain http.
        WEBHOOK_ALLOW_HTTP: '1',
        WEBHOOK_ALLOW_PRIVATE: '1',
      },
    },
  ],
});
