import { STORAGE_KEYS } from './storage.ts';

export const PRELOAD_ERROR_EVENT = 'vite:preloadError';

/**
 * Spec section 8: a screen chunk that fails to load (usually a deploy replaced the hashed files)
 * dispatches the preload-error event; if nothing handles it, the error is thrown.
 */
export async function loadChunk<T>(importer: () => Promise<T>): Promise<T> {
  try {
    const mod = await importer();
    sessionStorage.removeItem(STORAGE_KEYS.chunkReload);
    return mod;
  } catch (error) {
    const event = new Event(PRELOAD_ERROR_EVENT, { cancelable: true }) as Event & { payload?: unknown };
    event.payload = error;
    window.dispatchEvent(event);
    if (event.defaultPrevented) return new Promise<T>(() => {}); // the page is reloading
    throw error;
  }
}

/** Handles the event by reloading the page once per session; a second failure is thrown to the error page. */
export function installPreloadErrorReload(reload: () => void = () => window.location.reload()): () => void {
  const handler = (event: Event) => {
    if (sessionStorage.getItem(STORAGE_KEYS.chunkReload)) return;
    sessionStorage.setItem(STORAGE_KEYS.chunkReload, '1');
    event.preventDefault();
    reload();
  };
  window.addEventListener(PRELOAD_ERROR_EVENT, handler);
  return () => window.removeEventListener(PRELOAD_ERROR_EVENT, handler);
}
