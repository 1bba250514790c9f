import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file boots its own in-memory database; two at a time fits the 2-core machine.
    maxWorkers: 2,
    // Its own group: vitest requires one when projects differ in maxWorkers (api-contract has tests).
    sequence: { groupOrder: 1 },
  },
});
