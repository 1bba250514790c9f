import { bearingDeg } from './distance.ts';
import { PlaceIndex, type NearestPlace } from './place-index.ts';
import { bundledPlaces } from './places.ts';

export const COMPASS_POINTS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];

/**
 * The 16-point compass direction of a bearing (degrees clockwise from north). Each point owns a
 * 22.5° sector centred on it, lower edge included: N is [348.75, 11.25), NNE [11.25, 33.75)…
 */
export function compassPoint(bearing: number): CompassPoint {
  const b = ((bearing % 360) + 360) % 360;
  return COMPASS_POINTS[Math.floor(b / 22.5 + 0.5) % 16]!;
}

export const METRES_PER_MILE = 1609.344;

export interface LocationDescription {
  /** "3 mi NNE of Joliet, IL"; just "Joliet, IL" when the rounded distance is 0. */
  text: string;
  /** The place measured from: "Joliet, IL". */
  place: string;
  /** Statute miles from the place, rounded: to the mile, or to 10 miles when reduced. */
  distanceMi: number;
  /** Direction from the place to the point; null when the rounded distance is 0. */
  direction: CompassPoint | null;
  /** The ELD output-file form (Appendix A, e.g. "2mi ESE IL Darien"): ASCII, at most 60 characters. */
  eldText: string;
}

export interface DescribeOptions {
  /** Personal conveyance: reduced precision, accurate to about 10 miles (Appendix A 4.7.3). */
  reduced?: boolean;
}

let defaultIndex: PlaceIndex | null = null;

/** The grid index over the bundled place list, built on first use. */
export function bundledPlaceIndex(): PlaceIndex {
  defaultIndex ??= new PlaceIndex(bundledPlaces());
  return defaultIndex;
}

/**
 * Distance and direction from the nearest place (population ≥ 5,000) to a position, as an ELD
 * writes it into a record's location description. Normal precision rounds the distance to the mile.
 * Reduced precision (personal conveyance) first snaps the position to 0.1° as the ELD records it,
 * then rounds the distance to 10 miles, so the text never says more than the record does.
 */
export function describeLocation(lat: number, lon: number, options: DescribeOptions = {}, index: PlaceIndex = bundledPlaceIndex()): LocationDescription {
  const reduced = options.reduced === true;
  const qLat = reduced ? Math.round(lat * 10) / 10 : lat;
  const qLon = reduced ? Math.round(lon * 10) / 10 : lon;
  return describeNearest(index.nearest(qLat, qLon), qLat, qLon, reduced);
}

/** ASCII for the ELD output file: accents dropped ("Cañon City" → "Canon City"), other marks removed. */
export function eldAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/,/g, ';')
    .slice(0, 60);
}

/** Formats a nearest-place answer; exported for the brute-force comparison in tests. */
export function describeNearest(nearest: NearestPlace, lat: number, lon: number, reduced: boolean): LocationDescription {
  const { place: p, distanceM } = nearest;
  const miles = distanceM / METRES_PER_MILE;
  const distanceMi = reduced ? Math.round(miles / 10) * 10 : Math.round(miles);
  const place = `${p.name}, ${p.code}`;
  if (distanceMi === 0) {
    return { text: place, place, distanceMi: 0, direction: null, eldText: eldAscii(`${p.code} ${p.name}`) };
  }
  const direction = compassPoint(bearingDeg(p, { lat, lon }));
  return {
    text: `${distanceMi} mi ${direction} of ${place}`,
    place,
    distanceMi,
    direction,
    eldText: eldAscii(`${distanceMi}mi ${direction} ${p.code} ${p.name}`),
  };
}
