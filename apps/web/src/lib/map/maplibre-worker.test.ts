// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

const setWorkerUrl = vi.fn();
vi.mock('maplibre-gl', () => ({ setWorkerUrl }));

describe('setupMaplibreWorker', () => {
  it('points MapLibre at the worker file the bundler emitted, once', async () => {
    const { setupMaplibreWorker } = await import('./maplibre-worker.ts');
    const url = setupMaplibreWorker();
    setupMaplibreWorker();
    expect(url).toMatch(/maplibre-gl-worker\.mjs/);
    expect(setWorkerUrl).toHaveBeenCalledTimes(1);
    expect(setWorkerUrl).toHaveBeenCalledWith(url);
  });
});
