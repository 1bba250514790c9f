import type { Place, PlaceCategory, PlaceGeometry } from '@fleet/api-contract';
import { destination, distanceM } from '@fleet/geo/distance';
import type { Feature, FeatureCollection, Point, Polygon } from 'geojson';
import type { LayerSpecification } from 'maplibre-gl';
import { LABEL_FONT } from './map-fonts.ts';

// Places (issue 32) on a MapLibre map: a circle place is a Point with a radius in metres, which
// MapLibre cannot draw at ground scale (circle-radius is in pixels), so it becomes a polygon ring
// here; polygons stay as they are. Shared by /places, a place's page, the live map and the reports.

/** Category colours: readable outlines on the light and dark base maps. */
export const PLACE_COLORS: Record<PlaceCategory, string> = {
  CUSTOMER: '#1c7ed6',
  TERMINAL: '#7048e8',
  YARD: '#2f9e44',
  FUEL: '#f08c00',
  RESTRICTED: '#e03131',
  OTHER: '#868e96',
};

type LonLat = [number, number];

/** The ring (closed, counter-clockwise) of a circle of `radiusM` metres around `center`, `steps` corners. */
export function circleRing(center: LonLat, radiusM: number, steps = 64): LonLat[] {
  const ring: LonLat[] = [];
  for (let i = 0; i < steps; i++) {
    const p = destination({ lat: center[1], lon: center[0] }, (-360 * i) / steps, radiusM);
    ring.push([round6(p.lon), round6(p.lat)]);
  }
  ring.push(ring[0]!);
  return ring;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The centre and radius (metres) of a drawn circle's ring: the mean of its corners and their mean
 * distance from it. Exact for the rings a drawing library makes (evenly spaced corners).
 */
export function circleFromRing(ring: readonly LonLat[]): { center: LonLat; radiusM: number } {
  const pts = ring.length > 1 && ring[0]![0] === ring.at(-1)![0] && ring[0]![1] === ring.at(-1)![1] ? ring.slice(0, -1) : ring;
  const n = Math.max(1, pts.length);
  const lon = pts.reduce((s, p) => s + p[0], 0) / n;
  const lat = pts.reduce((s, p) => s + p[1], 0) / n;
  const radiusM = pts.reduce((s, p) => s + distanceM({ lat, lon }, { lat: p[1], lon: p[0] }), 0) / n;
  return { center: [round6(lon), round6(lat)], radiusM: Math.round(radiusM) };
}

/** The polygon a place is drawn as (a circle's ring, or the polygon itself). */
export function placePolygon(p: Pick<Place, 'geometry' | 'radiusMeters'>): Polygon {
  if (p.geometry.type === 'Polygon') return p.geometry;
  return { type: 'Polygon', coordinates: [circleRing(p.geometry.coordinates, p.radiusMeters ?? 50)] };
}

export interface PlaceFeatureProps {
  id: string;
  name: string;
  category: PlaceCategory;
  color: string;
}

/** Places as polygons for the fill and outline layers. */
export function placesToGeoJSON(places: readonly Place[]): FeatureCollection<Polygon, PlaceFeatureProps> {
  return {
    type: 'FeatureCollection',
    features: places.map((p) => ({
      type: 'Feature',
      id: p.id,
      geometry: placePolygon(p),
      properties: { id: p.id, name: p.name, category: p.category, color: PLACE_COLORS[p.category] },
    })),
  };
}

/** A label point per place (its centre), so each name is drawn once. */
export function placeLabelsToGeoJSON(places: readonly Place[]): FeatureCollection<Point, PlaceFeatureProps> {
  return {
    type: 'FeatureCollection',
    features: places.map((p): Feature<Point, PlaceFeatureProps> => ({
      type: 'Feature',
      id: p.id,
      geometry: { type: 'Point', coordinates: [p.center.longitude, p.center.latitude] },
      properties: { id: p.id, name: p.name, category: p.category, color: PLACE_COLORS[p.category] },
    })),
  };
}

/** [west, south, east, north] of a geometry (a circle's with its radius). */
export function geometryBounds(geometry: PlaceGeometry, radiusM: number | null = null): [number, number, number, number] {
  const ring = geometry.type === 'Polygon' ? geometry.coordinates[0]! : circleRing(geometry.coordinates, radiusM ?? 50, 16);
  let [w, s, e, n] = [180, 90, -180, -90];
  for (const [lon, lat] of ring) {
    w = Math.min(w, lon);
    e = Math.max(e, lon);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  }
  return [w, s, e, n];
}

/** Fill, outline and name layers of the places sources (`<prefix>` and `<prefix>-labels`), and a dot per place while zoomed out. */
export function placeLayers(prefix: string, minLabelZoom = 10): LayerSpecification[] {
  return [
    { id: `${prefix}-fill`, type: 'fill', source: prefix, paint: { 'fill-color': ['get', 'color'], 'fill-opacity': 0.15 } },
    { id: `${prefix}-outline`, type: 'line', source: prefix, paint: { 'line-color': ['get', 'color'], 'line-width': 2 } },
    {
      id: `${prefix}-labels`,
      type: 'symbol',
      source: `${prefix}-labels`,
      minzoom: minLabelZoom,
      layout: { 'text-field': ['get', 'name'], 'text-font': [LABEL_FONT], 'text-size': 12, 'text-anchor': 'center' },
      paint: { 'text-color': '#1a1b1e', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    },
    // A place of a few hundred metres is a speck on a state-wide map: a dot shows where it is.
    {
      id: `${prefix}-dots`,
      type: 'circle',
      source: `${prefix}-labels`,
      maxzoom: minLabelZoom,
      paint: { 'circle-radius': 4, 'circle-color': ['get', 'color'], 'circle-stroke-width': 1.5, 'circle-stroke-color': '#ffffff' },
    },
  ];
}
