import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import type { StyleSpecification } from 'maplibre-gl';

// Base maps: the configured vector style (MAP_STYLE_URL, default OpenFreeMap, keyless) and an
// offline style drawn only from bundled US state and Canadian province outlines, which needs no
// network at all (truck-stop Wi-Fi, CI, air-gapped installs).

export const DEFAULT_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

export type BaseMapId = 'streets' | 'offline';

export interface BaseMapChoice {
  id: BaseMapId;
  label: string;
}

export const BASE_MAPS: readonly BaseMapChoice[] = [
  { id: 'streets', label: 'Streets' },
  { id: 'offline', label: 'Offline (outlines)' },
];

export interface OfflineData {
  land: FeatureCollection<Polygon | MultiPolygon>;
  jurisdictions: FeatureCollection<Polygon | MultiPolygon, { code: string; country: 'US' | 'CA' }>;
}

const PALETTE = {
  light: { water: '#d6e6f2', land: '#f4f3ef', us: '#fbfaf7', ca: '#f5f1ea', border: '#9aa5b1', coast: '#7f8b97' },
  dark: { water: '#11171d', land: '#1f252b', us: '#252c33', ca: '#22282e', border: '#56616d', coast: '#6b7785' },
};

/**
 * A complete MapLibre style from the bundled outlines: water background, land, states and
 * provinces with their borders. No glyphs and no sprite, so nothing is fetched.
 */
export function offlineStyle(data: OfflineData, scheme: 'light' | 'dark' = 'light'): StyleSpecification {
  const c = PALETTE[scheme];
  return {
    version: 8,
    name: `Offline outlines (${scheme})`,
    sources: {
      land: { type: 'geojson', data: data.land },
      jurisdictions: { type: 'geojson', data: data.jurisdictions },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': c.water } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': c.land } },
      {
        id: 'jurisdictions-fill',
        type: 'fill',
        source: 'jurisdictions',
        paint: { 'fill-color': ['match', ['get', 'country'], 'CA', c.ca, c.us] },
      },
      { id: 'jurisdictions-border', type: 'line', source: 'jurisdictions', paint: { 'line-color': c.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 8, 1.5] } },
      { id: 'land-coast', type: 'line', source: 'land', paint: { 'line-color': c.coast, 'line-width': 0.8 } },
    ],
  };
}

/** Whether a style can draw text (cluster counts need glyphs). */
export function styleHasGlyphs(style: StyleSpecification | string): boolean {
  return typeof style === 'string' || Boolean(style.glyphs);
}

/**
 * Tile failures from the remote base map (offline, blocked, rate limited). MapLibre reports them
 * as `error` events with a source id; our own GeoJSON sources never fail this way.
 */
export function isBaseMapTileError(event: { error?: { message?: string; status?: number }; sourceId?: string }, ownSources: readonly string[]): boolean {
  if (!event.sourceId || ownSources.includes(event.sourceId)) return false;
  return true;
}
