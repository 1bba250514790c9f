import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts'],
    // One migrated database per run; each file starts from a copy.
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 60_000,
    // Booting a database takes seconds alone and over a minute on the shared 2-core machine under load.
    hookTimeout: 180_000,
    // Each file boots its own in-memory database; two at a time fits the 2-core machine.
    maxWorkers: 2,
    // Files share a worker's loaded modules: each builds its own app on its own database, so
    // nothing a test sees lives at module level, and re-importing the server for every file was
    // half of the suite's time (PGlite pass 264 s -> 127 s, PostgreSQL pass 665 s -> 100 s).
    isolate: false,
    // Its own group: vitest refuses projects with different maxWorkers in one group.
    sequence: { groupOrder: 1 },
  },
});
