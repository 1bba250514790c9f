import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project with its own environment.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'api-contract', root: 'packages/api-contract', include: ['src/**/*.test.ts'], maxWorkers: 2 } },
      // maxWorkers as in the api project: vitest refuses projects of one group with different maxWorkers.
      { test: { name: 'geo', root: 'packages/geo', include: ['src/**/*.test.ts'], maxWorkers: 2 } },
      { test: { name: 'hos', root: 'packages/hos', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], maxWorkers: 2 } },
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
