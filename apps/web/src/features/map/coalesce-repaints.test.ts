// @vitest-environment node
import type { MapSourceDataEvent } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import { coalesceSourceRepaints, type Clock, type RepaintMap } from './coalesce-repaints.ts';

/** A map double: counts real repaints, lets the test fire source events and say what is loaded. */
function fakeMap() {
  const listeners = new Map<string, Set<(e: MapSourceDataEvent) => void>>();
  const state = { repaints: 0, moving: false, loaded: true };
  const map = {
    triggerRepaint() {
      state.repaints++;
    },
    isMoving: () => state.moving,
    isSourceLoaded: () => state.loaded,
    on(type: string, fn: (e: MapSourceDataEvent) => void) {
      (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(fn);
      return map;
    },
    off(type: string, fn: (e: MapSourceDataEvent) => void) {
      listeners.get(type)?.delete(fn);
      return map;
    },
  };
  const fire = (type: string, e: Partial<MapSourceDataEvent>) => listeners.get(type)?.forEach((fn) => fn(e as MapSourceDataEvent));
  return { map: map as unknown as RepaintMap, state, fire, listeners };
}

function manualClock() {
  let due: (() => void) | null = null;
  const clock: Clock = { set: (cb) => ((due = cb), 1), clear: () => (due = null) };
  return { clock, fire: () => due?.() };
}

describe('coalesceSourceRepaints', () => {
  it('repaints once when every tile of the reloaded source is in, instead of once per tile', () => {
    const { map, state, fire } = fakeMap();
    const t = manualClock();
    const gate = coalesceSourceRepaints(map, 'vehicles', 500, t.clock);
    gate.hold(); // the page hands new data to the source
    map.triggerRepaint(); // MapLibre asks at once, with the old clusters
    fire('sourcedataloading', { sourceId: 'vehicles' });
    fire('sourcedata', { sourceId: 'vehicles', sourceDataType: 'metadata' });
    fire('sourcedata', { sourceId: 'vehicles', sourceDataType: 'content' });
    state.loaded = false;
    for (let i = 0; i < 3; i++) {
      fire('sourcedata', { sourceId: 'vehicles', tile: {} as MapSourceDataEvent['tile'] });
      map.triggerRepaint();
    }
    expect(state.repaints).toBe(0);
    state.loaded = true;
    fire('sourcedata', { sourceId: 'vehicles', tile: {} as MapSourceDataEvent['tile'] });
    expect(state.repaints).toBe(1);
    // Not holding any more: repaints go through.
    map.triggerRepaint();
    expect(state.repaints).toBe(2);
  });

  it('never holds a moving camera, ignores other sources, and gives up after the time limit', () => {
    const { map, state, fire } = fakeMap();
    const t = manualClock();
    const gate = coalesceSourceRepaints(map, 'vehicles', 500, t.clock);
    fire('sourcedataloading', { sourceId: 'base' });
    map.triggerRepaint();
    expect(state.repaints).toBe(1);
    gate.hold();
    state.moving = true;
    map.triggerRepaint();
    expect(state.repaints).toBe(2);
    state.moving = false;
    map.triggerRepaint();
    map.triggerRepaint();
    expect(state.repaints).toBe(2);
    t.fire(); // the worker is slow: repaint anyway, once
    expect(state.repaints).toBe(3);
  });

  it('restores the map and its listeners when disposed, repainting what it held', () => {
    const { map, state, listeners } = fakeMap();
    const own = map.triggerRepaint;
    const gate = coalesceSourceRepaints(map, 'vehicles', 500, manualClock().clock);
    gate.hold();
    map.triggerRepaint();
    gate.dispose();
    expect(state.repaints).toBe(1);
    expect(map.triggerRepaint).toBe(own);
    expect([...listeners.values()].every((s) => s.size === 0)).toBe(true);
  });
});
