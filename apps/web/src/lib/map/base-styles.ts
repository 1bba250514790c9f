import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import type { FontFacesSpecification, StyleSpecification } from 'maplibre-gl';

// Base maps: the configured vector style (MAP_STYLE_URL, default OpenFreeMap, keyless) and an
// offline style drawn only from bundled US state and Canadian province outlines, which needs no
// network at all (truck-stop Wi-Fi, CI, air-gapped installs).

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
 * Below this zoom (a fleet spread over states) the offline map draws only water, land and the
 * state and province borders: on a machine without a GPU every repaint is rasterised on the CPU,
 * and the US/Canada tint and the second coastline cost about a third of each repaint while adding
 * nothing the borders do not already show (docs/decisions/0080).
 */
export const OFFLINE_DETAIL_ZOOM = 4.5;

/**
 * A complete MapLibre style from the bundled outlines: water background, land, states and
 * provinces with their borders. No sprite and no glyph server: text is drawn from the bundled
 * font in `fontFaces` (served by the web app itself), so nothing leaves the app's origin.
 * The outlines are simplified a little harder than MapLibre's default (1 px instead of 0.375 px
 * at every zoom) and the fills skip their anti-aliasing pass (the border lines cover the edges):
 * both cut the vertices each repaint pushes through software GL.
 */
export function offlineStyle(data: OfflineData, scheme: 'light' | 'dark' = 'light', fontFaces?: FontFacesSpecification): StyleSpecification {
  const c = PALETTE[scheme];
  return {
    version: 8,
    name: `Offline outlines (${scheme})`,
    ...(fontFaces ? { 'font-faces': fontFaces } : {}),
    sources: {
      land: { type: 'geojson', data: data.land, tolerance: 1 },
      jurisdictions: { type: 'geojson', data: data.jurisdictions, tolerance: 1 },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': c.water } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': c.land, 'fill-antialias': false } },
      {
        id: 'jurisdictions-fill',
        type: 'fill',
        source: 'jurisdictions',
        minzoom: OFFLINE_DETAIL_ZOOM,
        paint: { 'fill-color': ['match', ['get', 'country'], 'CA', c.ca, c.us], 'fill-antialias': false },
      },
      {
        id: 'jurisdictions-border',
        type: 'line',
        source: 'jurisdictions',
        paint: { 'line-color': c.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 8, 1.5] },
      },
      { id: 'land-coast', type: 'line', source: 'land', minzoom: OFFLINE_DETAIL_ZOOM, paint: { 'line-color': c.coast, 'line-width': 0.8 } },
    ],
  };
}

/**
 * The configured online style made ready for our layers: its relative URLs made absolute (a
 * style object has no base URL of its own once we hold it) and our label font declared, so the
 * cluster counts draw whatever fonts the style's glyph server has.
 */
export function prepareRemoteStyle(style: StyleSpecification, styleUrl: string, fontFaces: FontFacesSpecification): StyleSpecification {
  const abs = (u: string) => (/^[a-z][a-z0-9+.-]*:/i.test(u) ? u : new URL(u, styleUrl).href.replace(/%7B/g, '{').replace(/%7D/g, '}'));
  const sources: StyleSpecification['sources'] = {};
  for (const [id, src] of Object.entries(style.sources ?? {})) {
    const s = { ...src } as typeof src & { url?: string; tiles?: string[] };
    if (typeof s.url === 'string') s.url = abs(s.url);
    if (Array.isArray(s.tiles)) s.tiles = s.tiles.map(abs);
    sources[id] = s;
  }
  const sprite =
    typeof style.sprite === 'string' ? abs(style.sprite) : Array.isArray(style.sprite) ? style.sprite.map((x) => ({ ...x, url: abs(x.url) })) : style.sprite;
  return {
    ...style,
    sources,
    ...(sprite !== undefined ? { sprite } : {}),
    ...(style.glyphs ? { glyphs: abs(style.glyphs) } : {}),
    'font-faces': { ...(style['font-faces'] ?? {}), ...fontFaces },
  };
}

/**
 * Tile failures from the remote base map (offline, blocked, rate limited). MapLibre reports them
 * as `error` events with a source id; our own GeoJSON sources never fail this way.
 */
export function isBaseMapTileError(event: { error?: { message?: string; status?: number }; sourceId?: string }, ownSources: readonly string[]): boolean {
  if (!event.sourceId || ownSources.includes(event.sourceId)) return false;
  return true;
}
