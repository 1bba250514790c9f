// @vitest-environment node
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import type { StyleSpecification } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import { isBaseMapTileError, OFFLINE_DETAIL_ZOOM, offlineStyle, prepareRemoteStyle } from './base-styles.ts';
import { LABEL_FONT, labelFontFaces } from './map-fonts.ts';
import { loadOfflineData } from './offline-data.ts';

const ORIGIN = 'https://fleet.example.test';

describe('offline base map', () => {
  it("draws the bundled US states and Canadian provinces, and text from the app's own font, with nothing else remote", async () => {
    const data = await loadOfflineData();
    expect(data.jurisdictions.features.length).toBe(64);
    expect(data.land.features.length).toBeGreaterThan(0);
    for (const scheme of ['light', 'dark'] as const) {
      const style = offlineStyle(data, scheme, labelFontFaces(ORIGIN));
      expect(validateStyleMin(style)).toEqual([]);
      expect(style.glyphs).toBeUndefined();
      const faces = style['font-faces']![LABEL_FONT] as { url: string; 'unicode-range': string[] }[];
      // The font is a build asset of the web app, served from its origin.
      expect(faces[0]!.url).toMatch(new RegExp(`^${ORIGIN}/.*noto-sans-latin-700-normal.*\\.woff2$`));
      expect(faces[0]!['unicode-range']).toEqual(['U+0000-00FF']);
      const urls = JSON.stringify(style).match(/https?:\/\/[^"]+/g) ?? [];
      expect(urls.every((u) => u.startsWith(ORIGIN))).toBe(true);
    }
    // At fleet zooms only water, land and the borders are drawn (each repaint is rasterised on
    // the CPU where there is no GPU); the tint and the coastline come back closer in.
    const style = offlineStyle(data, 'light');
    const drawnAt = (z: number) => style.layers.filter((l) => (l.minzoom ?? 0) <= z).map((l) => l.id);
    expect(drawnAt(3.3)).toEqual(['water', 'land', 'jurisdictions-border']);
    expect(drawnAt(OFFLINE_DETAIL_ZOOM)).toEqual(['water', 'land', 'jurisdictions-fill', 'jurisdictions-border', 'land-coast']);
    expect(await loadOfflineData()).toBe(data);
    // Transforming the 1 MB TopoJSON through the test bundler is slow on a busy machine.
  }, 60_000);

  it('tells base-map tile failures from our own sources', () => {
    expect(isBaseMapTileError({ sourceId: 'openmaptiles', error: { message: 'Failed to fetch' } }, ['vehicles'])).toBe(true);
    expect(isBaseMapTileError({ sourceId: 'vehicles' }, ['vehicles'])).toBe(false);
    expect(isBaseMapTileError({ error: { message: 'x' } }, ['vehicles'])).toBe(false);
  });
});

describe('online base map (MAP_STYLE_URL)', () => {
  const remote: StyleSpecification = {
    version: 8,
    glyphs: '/fonts/{fontstack}/{range}.pbf',
    sprite: 'https://tiles.example.com/sprites/liberty',
    sources: {
      openmaptiles: { type: 'vector', url: '../planet.json' },
      hillshade: { type: 'raster', tiles: ['/hill/{z}/{x}/{y}.png'], tileSize: 256 },
    },
    layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#eee' } }],
  };

  it("makes the style's relative URLs absolute against the style URL and declares our label font", () => {
    const s = prepareRemoteStyle(remote, 'https://tiles.example.com/styles/liberty/style.json', labelFontFaces(ORIGIN));
    expect(s.glyphs).toBe('https://tiles.example.com/fonts/{fontstack}/{range}.pbf');
    expect(s.sprite).toBe('https://tiles.example.com/sprites/liberty');
    expect(s.sources.openmaptiles).toMatchObject({ url: 'https://tiles.example.com/styles/planet.json' });
    expect(s.sources.hillshade).toMatchObject({ tiles: ['https://tiles.example.com/hill/{z}/{x}/{y}.png'] });
    expect(Object.keys(s['font-faces']!)).toEqual([LABEL_FONT]);
    expect(validateStyleMin(s)).toEqual([]);
    // The fetched style itself is left as it was.
    expect(remote.glyphs).toBe('/fonts/{fontstack}/{range}.pbf');
  });

  it('keeps font faces the style already declares', () => {
    const own = { ...remote, 'font-faces': { 'Noto Sans Khmer': 'https://tiles.example.com/khmer.ttf' } };
    const s = prepareRemoteStyle(own, 'https://tiles.example.com/style.json', labelFontFaces(ORIGIN));
    expect(Object.keys(s['font-faces']!).sort()).toEqual([LABEL_FONT, 'Noto Sans Khmer']);
  });
});
