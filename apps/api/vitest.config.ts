import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts'],
    // Generous: the development machine is shared (load averages of 15-25 were seen), and each file
    // boots its own database; a hang still fails, just later.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file boots its own in-memory database; two at a time fits the 2-core machine.
    maxWorkers: 2,
    // Its own group: vitest requires one when projects differ in maxWorkers (api-contract has tests).
    sequence: { groupOrder: 1 },
  },
});
