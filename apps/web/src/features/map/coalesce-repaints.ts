import type { Map as MaplibreMap, MapSourceDataEvent } from 'maplibre-gl';

// A clustered GeoJSON source re-tiles in the worker after every data update, and its tiles come
// back one at a time; MapLibre repaints for each (2.4 repaints per applied update on the 5,000-
// vehicle bench). Without a GPU every repaint is rasterised on the CPU and blocks the page while
// the canvas is read back, so the map holds its repaints from the moment the source starts
// loading until all its tiles are in, then repaints once: one coherent frame per update instead
// of a mix of old and new clusters over several (docs/decisions/0081).

export interface Clock {
  set(cb: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}
// Called as plain functions: `setTimeout` invoked as a method of another object throws
// "Illegal invocation" in browsers.
const browserClock: Clock = { set: (cb, ms) => setTimeout(cb, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export interface RepaintGate {
  hold(): void;
  dispose(): void;
}

/** The part of the map this needs (the real MapLibre map, or a test double). */
export type RepaintMap = Pick<MaplibreMap, 'triggerRepaint' | 'isMoving' | 'isSourceLoaded' | 'on' | 'off'>;

/**
 * Holds `map`'s repaints while `sourceId` reloads, for at most `maxHoldMs` (a slow worker must not
 * freeze the map). Never holds while the camera moves (drag, zoom, follow): those frames go
 * through at once. `hold()` starts holding before the data is handed to the source (MapLibre
 * itself asks for a repaint as the update is sent, before any listener hears of it); `dispose()`
 * restores the map's own `triggerRepaint`.
 */
export function coalesceSourceRepaints(map: RepaintMap, sourceId: string, maxHoldMs = 500, clock: Clock = browserClock): RepaintGate {
  const own = Object.prototype.hasOwnProperty.call(map, 'triggerRepaint') ? map.triggerRepaint : undefined;
  const repaint = map.triggerRepaint.bind(map);
  let holding = false;
  let sawContent = false;
  let pending = false;
  let timer: unknown;

  const release = () => {
    holding = false;
    sawContent = false;
    if (timer !== undefined) clock.clear(timer);
    timer = undefined;
    if (pending) {
      pending = false;
      repaint();
    }
  };
  const loaded = () => {
    try {
      return map.isSourceLoaded(sourceId);
    } catch {
      // The style changed and the source is gone: nothing to wait for.
      return true;
    }
  };

  map.triggerRepaint = () => {
    if (holding && !map.isMoving()) {
      pending = true;
      return;
    }
    repaint();
  };
  const hold = () => {
    holding = true;
    sawContent = false;
    if (timer !== undefined) clock.clear(timer);
    timer = clock.set(release, maxHoldMs);
  };
  const onLoading = (e: MapSourceDataEvent) => {
    if (e.sourceId === sourceId) hold();
  };
  const onData = (e: MapSourceDataEvent) => {
    if (e.sourceId !== sourceId || !holding) return;
    // 'metadata' comes before the tiles are even asked for, and the map hears 'content' before
    // the tiles are marked for reloading: only a tile arriving after it can complete the update.
    if (e.sourceDataType === 'content') {
      sawContent = true;
      return;
    }
    if (sawContent && e.tile && loaded()) release();
  };
  const onAbort = (e: MapSourceDataEvent) => {
    if (e.sourceId === sourceId && holding) release();
  };
  map.on('sourcedataloading', onLoading);
  map.on('sourcedata', onData);
  map.on('sourcedataabort', onAbort);
  const dispose = () => {
    map.off('sourcedataloading', onLoading);
    map.off('sourcedata', onData);
    map.off('sourcedataabort', onAbort);
    if (timer !== undefined) clock.clear(timer);
    if (own) map.triggerRepaint = own;
    else delete (map as Partial<RepaintMap>).triggerRepaint;
    if (pending) repaint();
  };
  return { hold, dispose };
}
