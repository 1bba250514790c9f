import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

/** Port of the app under test; each developer's worktree runs the suite on its own port. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);

const root = path.resolve(import.meta.dirname, '../..');
// A fresh embedded database per run: the demo organization is seeded on start.
const dataDir = path.join(os.tmpdir(), `fleet-e2e-${E2E_PORT}-${process.pid}`);

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'line',
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'off',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'node --import tsx apps/api/src/main.ts',
    cwd: root,
    url: `http://localhost:${E2E_PORT}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(E2E_PORT), DATA_DIR: dataDir, DEMO: '1', NODE_ENV: 'development', LOG_LEVEL: 'warn' },
  },
});
