import { afterEach, describe, expect, it, vi } from 'vitest';
import { installPreloadErrorReload, loadChunk, PRELOAD_ERROR_EVENT } from './preload-error.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

describe('screen chunk load failure', () => {
  it('dispatches the preload-error event and rethrows when nothing handles it', async () => {
    const seen = vi.fn();
    window.addEventListener(PRELOAD_ERROR_EVENT, seen);
    const error = new TypeError('Failed to fetch dynamically imported module');
    await expect(loadChunk(() => Promise.reject(error))).rejects.toBe(error);
    expect(seen).toHaveBeenCalledTimes(1);
    window.removeEventListener(PRELOAD_ERROR_EVENT, seen);
  });

  it('reloads the page once per session, then lets a second failure through', async () => {
    const reload = vi.fn();
    uninstall = installPreloadErrorReload(reload);
    const pending = loadChunk(() => Promise.reject(new Error('gone')));
    const settled = await Promise.race([
      pending.then(
        () => 'resolved',
        () => 'rejected',
      ),
      new Promise((r) => setTimeout(() => r('pending'), 20)),
    ]);
    expect(settled).toBe('pending'); // the page is reloading: the screen waits instead of erroring
    expect(reload).toHaveBeenCalledTimes(1);
    await expect(loadChunk(() => Promise.reject(new Error('still gone')))).rejects.toThrow('still gone');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('forgets the reload once a chunk loads again', async () => {
    const reload = vi.fn();
    uninstall = installPreloadErrorReload(reload);
    void loadChunk(() => Promise.reject(new Error('gone')));
    await Promise.resolve();
    await loadChunk(() => Promise.resolve({ default: 1 }));
    void loadChunk(() => Promise.reject(new Error('gone again')));
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
