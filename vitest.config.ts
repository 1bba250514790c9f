import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project with its own environment.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'api-contract', root: 'packages/api-contract', include: ['src/**/*.test.ts'] } },
      // Own group, run after the API files: its CPU-heavy property tests would otherwise compete with
      // the API suite's database start-up on a 2-core machine (vitest also requires a separate group
      // for projects whose maxWorkers differ).
      { test: { name: 'hos', root: 'packages/hos', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } } },
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
