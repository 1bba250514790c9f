import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { isBaseMapTileError, offlineStyle, styleHasGlyphs } from './base-styles.ts';
import { loadOfflineData } from './offline-data.ts';

describe('offline base map', () => {
  it('draws the bundled US states and Canadian provinces with no remote resource', async () => {
    const data = await loadOfflineData();
    expect(data.jurisdictions.features.length).toBe(64);
    expect(data.land.features.length).toBeGreaterThan(0);
    for (const scheme of ['light', 'dark'] as const) {
      const style = offlineStyle(data, scheme);
      expect(validateStyleMin(style)).toEqual([]);
      expect(JSON.stringify(style)).not.toMatch(/https?:/);
      expect(styleHasGlyphs(style)).toBe(false);
    }
    expect(await loadOfflineData()).toBe(data);
    // Transforming the 1 MB TopoJSON through the test bundler is slow on a busy machine.
  }, 60_000);

  it('tells base-map tile failures from our own sources', () => {
    expect(isBaseMapTileError({ sourceId: 'openmaptiles', error: { message: 'Failed to fetch' } }, ['vehicles'])).toBe(true);
    expect(isBaseMapTileError({ sourceId: 'vehicles' }, ['vehicles'])).toBe(false);
    expect(isBaseMapTileError({ error: { message: 'x' } }, ['vehicles'])).toBe(false);
    expect(styleHasGlyphs('https://tiles.openfreemap.org/styles/liberty')).toBe(true);
  });
});
