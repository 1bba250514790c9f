import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project with its own environment.
// Vitest refuses projects of one sequence group with different maxWorkers, so every project says 2
// (the machine has 2 cores). The API files run as their own group, then the CPU-heavy HoS property
// tests, so they do not compete with the API suite's database start-up. The packages' tests build
// their indexes in seconds alone and can take several times that beside the browser tests in CI.
// The pure packages (geo, dispatch, eld, hos) share a worker's loaded modules across their files
// (isolate: false), as the API does: nothing of theirs lives at module level but caches, and
// re-importing them for each file was half of their 62 CPU-s (34 without). api-contract stays
// isolated: its field words configure zod globally, and one file's setting leaked into another's.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'docs', root: '.', include: ['scripts/*.test.ts'], maxWorkers: 2 } },
      { test: { name: 'api-contract', root: 'packages/api-contract', include: ['src/**/*.test.ts'], maxWorkers: 2, testTimeout: 30_000 } },
      { test: { name: 'geo', root: 'packages/geo', include: ['src/**/*.test.ts'], maxWorkers: 2, testTimeout: 30_000, isolate: false } },
      {
        test: {
          name: 'dispatch',
          root: 'packages/dispatch',
          include: ['src/**/*.test.ts'],
          maxWorkers: 2,
          testTimeout: 30_000,
          isolate: false,
          sequence: { groupOrder: 2 },
        },
      },
      { test: { name: 'eld', root: 'packages/eld', include: ['src/**/*.test.ts'], maxWorkers: 2, testTimeout: 30_000, isolate: false } },
      {
        test: {
          name: 'hos',
          isolate: false,
          root: 'packages/hos',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          maxWorkers: 2,
          testTimeout: 30_000,
          sequence: { groupOrder: 2 },
        },
      },
      { test: { name: 'scripts', root: 'scripts', include: ['*.test.mjs'], maxWorkers: 2 } },
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
