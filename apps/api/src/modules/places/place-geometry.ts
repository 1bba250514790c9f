import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import kinks from '@turf/kinks';
import { PLACE_MIN_AREA_M2, ringAreaM2, type PlaceGeometry } from '@fleet/api-contract';
import { distanceM } from '@fleet/geo';

// A place's shape (decision 0162): a GeoJSON Point with a radius (a circle) or a Polygon with one
// closed outer ring. Its bounding box is stored (area filters) and feeds the spatial index; the
// exact test is the haversine distance for a circle and point-in-polygon for a polygon.

export interface Bbox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** Metres per degree of latitude (spherical earth; a circle's box only needs to contain it). */
const M_PER_DEG_LAT = 111_194.93;

/** The shape's bounding box; a circle's is grown slightly so it always contains the circle. */
export function bboxOf(geometry: PlaceGeometry, radiusM: number | null): Bbox {
  if (geometry.type === 'Point') {
    const [lon, lat] = geometry.coordinates;
    const r = (radiusM ?? 0) * 1.001;
    const dLat = r / M_PER_DEG_LAT;
    const dLon = r / (M_PER_DEG_LAT * Math.max(Math.cos(((Math.abs(lat) + dLat) * Math.PI) / 180), 1e-6));
    return { minLon: Math.max(-180, lon - dLon), minLat: Math.max(-90, lat - dLat), maxLon: Math.min(180, lon + dLon), maxLat: Math.min(90, lat + dLat) };
  }
  const b = { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity };
  for (const [lon, lat] of geometry.coordinates[0]!) {
    if (lon < b.minLon) b.minLon = lon;
    if (lon > b.maxLon) b.maxLon = lon;
    if (lat < b.minLat) b.minLat = lat;
    if (lat > b.maxLat) b.maxLat = lat;
  }
  return b;
}

/** Where a label goes: the circle's centre, or the polygon's bounding-box centre. */
export function centerOf(geometry: PlaceGeometry, b: Bbox): { latitude: number; longitude: number } {
  if (geometry.type === 'Point') return { latitude: geometry.coordinates[1], longitude: geometry.coordinates[0] };
  return { latitude: (b.minLat + b.maxLat) / 2, longitude: (b.minLon + b.maxLon) / 2 };
}

/** Why a polygon cannot be a place (its edges cross, or it has no area), or null when it can. */
export function polygonProblem(geometry: PlaceGeometry): string | null {
  if (geometry.type !== 'Polygon') return null;
  const ring = geometry.coordinates[0]!;
  const distinct = new Set(ring.slice(0, -1).map(([x, y]) => `${x},${y}`));
  if (distinct.size < 3) return 'A polygon needs at least 3 different corners';
  if (kinks({ type: 'Polygon', coordinates: geometry.coordinates }).features.length > 0) return 'A polygon’s edges must not cross each other';
  // Corners on one line enclose nothing: such a place was stored, and no vehicle was ever in it.
  if (ringAreaM2(ring) < PLACE_MIN_AREA_M2) return 'A polygon must enclose an area: its corners are on one line';
  return null;
}

/** Whether a point (degrees) is inside the shape: on the fence line counts as inside. */
export function contains(geometry: PlaceGeometry, radiusM: number | null, lat: number, lon: number): boolean {
  if (geometry.type === 'Point') return distanceM({ lat, lon }, { lat: geometry.coordinates[1], lon: geometry.coordinates[0] }) <= (radiusM ?? 0);
  return booleanPointInPolygon([lon, lat], { type: 'Polygon', coordinates: geometry.coordinates });
}
