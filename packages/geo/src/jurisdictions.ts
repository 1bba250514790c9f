import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { BOUNDARIES_SOURCE, boundaryFeatures, bundledBoundaries, type BoundaryProps, type Country } from './boundaries.ts';

export type { Country };

/** The IFTA member jurisdictions: 48 contiguous US states and 10 Canadian provinces. */
export const IFTA_JURISDICTIONS: ReadonlySet<string> = new Set([
  'AL',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AB',
  'BC',
  'MB',
  'NB',
  'NL',
  'NS',
  'ON',
  'PE',
  'QC',
  'SK',
]);

export interface Jurisdiction {
  /** Postal code: TX, ON, DC, YT…; MX for Mexico as a whole. */
  code: string;
  country: Country;
  /** Whether IFTA miles are reported for it. */
  ifta: boolean;
}

/** Where the boundaries come from; stored with every report that uses them. */
export const BOUNDARY_DATASET = BOUNDARIES_SOURCE;

/** Points in no polygon within this distance of a jurisdiction belong to it (issue 17). */
export const SNAP_M = 2000;

/**
 * US states (with DC), Canadian provinces and territories, and Mexico as GeoJSON, from the bundled
 * boundaries (Census 1:500k, Natural Earth 1:50m). Decoded on each call (~0.2 s): keep the result.
 */
export function jurisdictionOutlines(): FeatureCollection<Polygon | MultiPolygon, BoundaryProps> {
  return { type: 'FeatureCollection', features: boundaryFeatures() };
}

let byIndex: Jurisdiction[] | null = null;

/** Jurisdictions in the order of the boundary index (its numbers index this list). */
export function indexedJurisdictions(): readonly Jurisdiction[] {
  byIndex ??= bundledBoundaries().props.map((p) => ({ code: p.code, country: p.country, ifta: IFTA_JURISDICTIONS.has(p.code) }));
  return byIndex;
}

/** Where a point falls: its jurisdiction, and how far it was snapped to it (0 inside a polygon). */
export interface PointJurisdiction {
  jurisdiction: Jurisdiction;
  snappedM: number;
}

/**
 * The jurisdiction at a point: the polygon containing it, else the nearest one within `snapM` metres
 * (a lakeshore, a coast, a sliver between datasets), else null ("unknown": the Great Lakes, the sea).
 * About 0.1 µs inside a polygon after the first call builds the index.
 */
export function locateJurisdiction(lat: number, lon: number, snapM = SNAP_M): PointJurisdiction | null {
  const { index } = bundledBoundaries();
  const j = index.locate(lat, lon);
  if (j >= 0) return { jurisdiction: indexedJurisdictions()[j]!, snappedM: 0 };
  const near = snapM > 0 ? index.nearest(lat, lon, snapM) : null;
  return near ? { jurisdiction: indexedJurisdictions()[near.index]!, snappedM: near.distanceM } : null;
}

/**
 * The US state, Canadian province or territory, or Mexico at the point (snapped within 2 km), or null
 * (the sea, the Great Lakes away from shore, other countries).
 */
export function jurisdictionAt(lat: number, lon: number): Jurisdiction | null {
  return locateJurisdiction(lat, lon)?.jurisdiction ?? null;
}
