import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./vitest.setup.ts'],
    css: false,
    maxWorkers: 2,
    // Run after the api project instead of beside it: on the shared 2-core machine the two together
    // starved the API's timing-sensitive tests.
    sequence: { groupOrder: 1 },
    // The first Mantine render in jsdom is slow on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
