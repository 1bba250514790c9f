import type { Place } from '@fleet/api-contract';

/** Places as a GeoJSON FeatureCollection: the shape as geometry, everything else as properties (a circle's radius too). */
export function placesGeoJson(list: readonly Place[]) {
  return {
    type: 'FeatureCollection' as const,
    features: list.map((p) => ({
      type: 'Feature' as const,
      id: p.id,
      geometry: p.geometry,
      properties: {
        id: p.id,
        name: p.name,
        category: p.category,
        radiusMeters: p.radiusMeters,
        arrivalDwellSeconds: p.arrivalDwellSeconds,
        departureDwellSeconds: p.departureDwellSeconds,
        groupId: p.groupId,
        address: p.address,
        notes: p.notes,
        center: p.center,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
      },
    })),
  };
}
