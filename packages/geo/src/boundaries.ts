import fs from 'node:fs';
import path from 'node:path';
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { BOUNDARIES_SOURCE } from './boundaries-data.ts';
import { BoundaryIndex } from './boundary-index.ts';

// The bundled jurisdiction boundaries (scripts/build-boundaries.mjs, docs/decisions/0100): Census
// 1:500k US states and DC, Natural Earth 1:50m Canadian provinces and territories and Mexico. Node only
// (1.2 MB of TopoJSON): the web map keeps its own 1:50m outlines (outlines.ts).
//
// The TopoJSON is a file beside this module (the API's build copies it beside its bundle), read when
// needed: as a string in a module it stayed in memory for the life of the process, twice (the
// module's source and the string), 2.3 MB of an idle server's heap after the index was built
// (decision 0161).
const TOPOJSON_FILE = path.join(import.meta.dirname, 'boundaries.topojson');

export type Country = 'US' | 'CA' | 'MX';

export interface BoundaryProps {
  /** Postal code (TX, ON, DC, YT) or MX for Mexico as a whole. */
  code: string;
  country: Country;
}

export { BOUNDARIES_SOURCE };

interface Loaded {
  /** Code and country of each jurisdiction, in the index's order (its numbers index this list). */
  props: BoundaryProps[];
  index: BoundaryIndex;
}

let loaded: Loaded | null = null;

/** The bundled boundaries as GeoJSON features (decoded on each call: callers keep what they need). */
export function boundaryFeatures(): Array<Feature<Polygon | MultiPolygon, BoundaryProps>> {
  const topology = JSON.parse(fs.readFileSync(TOPOJSON_FILE, 'utf8')) as Topology;
  const collection = topology.objects.jurisdictions as GeometryCollection<{ c: Country }>;
  const fc = feature(topology, collection) as FeatureCollection<Polygon | MultiPolygon, { c: Country }>;
  return fc.features.map((f) => ({ type: 'Feature' as const, id: f.id, geometry: f.geometry, properties: { code: String(f.id), country: f.properties.c } }));
}

/**
 * Parses the TopoJSON and builds the index on first use (0.5-0.9 s), then keeps the index (~25 MB) and
 * lets the GeoJSON go.
 */
export function bundledBoundaries(): Loaded {
  if (loaded) return loaded;
  const features = boundaryFeatures();
  const index = new BoundaryIndex(features.map((f) => ({ rings: f.geometry.type === 'Polygon' ? f.geometry.coordinates : f.geometry.coordinates.flat() })));
  loaded = { props: features.map((f) => f.properties), index };
  return loaded;
}
