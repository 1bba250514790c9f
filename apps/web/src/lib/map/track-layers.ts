import type { HistoryRoute } from '@fleet/api-contract';
import type { Feature, FeatureCollection, LineString, Point } from 'geojson';
import type { LayerSpecification } from 'maplibre-gl';
import { KM_PER_MILE, type UnitSystem } from '@fleet/api-contract/units';

// The history track coloured by speed, as one feature per segment (a line-gradient cannot follow
// data values per vertex), plus start, end and stop markers.

/** Speed bands of the legend, km/h, with their colours (slow red to fast green). */
export const SPEED_STOPS: ReadonlyArray<{ kmh: number; color: string }> = [
  { kmh: 0, color: '#e03131' },
  { kmh: 30, color: '#f76707' },
  { kmh: 60, color: '#fab005' },
  { kmh: 90, color: '#40c057' },
  { kmh: 110, color: '#1c7ed6' },
];
/** The same bands at round miles per hour (0, 20, 35, 55, 70 mph), so an Imperial legend reads "55+", not "56+". */
const SPEED_STOPS_MPH: ReadonlyArray<{ kmh: number; color: string }> = [0, 20, 35, 55, 70].map((mph, i) => ({
  kmh: mph * KM_PER_MILE,
  color: SPEED_STOPS[i]!.color,
}));

/** The legend's bands (km/h, colour) at round numbers of the organization's speed unit. */
export const speedStops = (units: UnitSystem = 'METRIC') => (units === 'IMPERIAL' ? SPEED_STOPS_MPH : SPEED_STOPS);

export const TRACK_SOURCE = 'history-track';
export const MARKERS_SOURCE = 'history-markers';

/** Segments between consecutive track points, each carrying the average of its two speeds. */
export function trackToGeoJSON(track: HistoryRoute['track']): FeatureCollection<LineString, { speed: number; index: number }> {
  const features: Feature<LineString, { speed: number; index: number }>[] = [];
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1]!;
    const b = track[i]!;
    features.push({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [a.longitude, a.latitude],
          [b.longitude, b.latitude],
        ],
      },
      properties: { speed: ((a.speed ?? 0) + (b.speed ?? 0)) / 2, index: i - 1 },
    });
  }
  return { type: 'FeatureCollection', features };
}

export type MarkerKind = 'start' | 'end' | 'stop';

/** Start, end and stop markers; stops carry their start time and duration for the popup. */
export function markersToGeoJSON(
  route: Pick<HistoryRoute, 'track' | 'stops'>,
): FeatureCollection<Point, { kind: MarkerKind; start?: string; durationS?: number }> {
  const out: Feature<Point, { kind: MarkerKind; start?: string; durationS?: number }>[] = [];
  for (const s of route.stops) {
    out.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [s.longitude, s.latitude] },
      properties: { kind: 'stop', start: s.start, durationS: s.durationS },
    });
  }
  const first = route.track[0];
  const last = route.track[route.track.length - 1];
  if (first) out.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [first.longitude, first.latitude] }, properties: { kind: 'start' } });
  if (last && route.track.length > 1)
    out.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [last.longitude, last.latitude] }, properties: { kind: 'end' } });
  return { type: 'FeatureCollection', features: out };
}

export function trackLayers(units: UnitSystem = 'METRIC'): LayerSpecification[] {
  const interpolate: unknown[] = ['interpolate', ['linear'], ['get', 'speed']];
  for (const s of speedStops(units)) interpolate.push(s.kmh, s.color);
  return [
    {
      id: 'history-track-casing',
      type: 'line',
      source: TRACK_SOURCE,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': '#ffffff', 'line-width': 7, 'line-opacity': 0.8 },
    },
    {
      id: 'history-track',
      type: 'line',
      source: TRACK_SOURCE,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': interpolate as unknown as string, 'line-width': 4 },
    },
    {
      id: 'history-markers',
      type: 'circle',
      source: MARKERS_SOURCE,
      paint: {
        'circle-radius': ['match', ['get', 'kind'], 'stop', 6, 8],
        'circle-color': ['match', ['get', 'kind'], 'start', '#2f9e44', 'end', '#e03131', '#7048e8'],
        'circle-stroke-width': 2,
        'circle-stroke-color': '#ffffff',
      },
    },
  ];
}

/** The colour of a speed (legend, speed chart), matching the track's interpolation. */
export function speedColor(kmh: number): string {
  if (kmh <= SPEED_STOPS[0]!.kmh) return SPEED_STOPS[0]!.color;
  for (let i = 1; i < SPEED_STOPS.length; i++) {
    const hi = SPEED_STOPS[i]!;
    if (kmh <= hi.kmh) {
      const lo = SPEED_STOPS[i - 1]!;
      return mix(lo.color, hi.color, (kmh - lo.kmh) / (hi.kmh - lo.kmh));
    }
  }
  return SPEED_STOPS[SPEED_STOPS.length - 1]!.color;
}

function mix(a: string, b: string, f: number): string {
  const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${pa
    .map((v, i) =>
      Math.round(v + (pb[i]! - v) * f)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
