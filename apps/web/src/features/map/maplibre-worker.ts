// MapLibre 6 builds its worker URL at run time (`new URL('./maplibre-gl-worker.mjs',
// import.meta.url)`), which Vite does not follow: without this the worker fails to load and
// nothing but the background draws (stack-notes). Import this module only from lazily loaded
// map code, so maplibre-gl stays out of the first-load bundle.
import { setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

let done = false;

/** Points MapLibre at the worker file Vite emitted; idempotent. Returns the URL used. */
export function setupMaplibreWorker(): string {
  if (!done) {
    setWorkerUrl(workerUrl);
    done = true;
  }
  return workerUrl;
}
