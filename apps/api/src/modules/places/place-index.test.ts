import { describe, expect, it } from 'vitest';
import { destination } from '@fleet/geo';
import { PlaceIndex, type IndexedPlace } from './place-index.ts';

// The spatial index against the plain reference (every place's exact shape tested) on random
// circles and star-shaped polygons, with points thrown near their fences.

/** A seeded generator (the same places and points every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

function places(n: number, rnd: () => number): IndexedPlace[] {
  const out: IndexedPlace[] = [];
  for (let i = 0; i < n; i++) {
    const lat = 30 + rnd() * 15;
    const lon = -120 + rnd() * 40;
    const base = { id: `p${i}`, name: `Place ${i}`, category: 'CUSTOMER' as const, groupId: null, arrivalDwellS: 120, departureDwellS: 60 };
    if (i % 2 === 0) {
      out.push({ ...base, geometry: { type: 'Point', coordinates: [lon, lat] }, radiusM: 50 + rnd() * 5000 });
    } else {
      // A star: corners at increasing bearings, radii between 100 m and 6 km (simple, often concave).
      const corners = 3 + Math.floor(rnd() * 12);
      const ring: Array<[number, number]> = [];
      for (let k = 0; k < corners; k++) {
        const p = destination({ lat, lon }, (360 * k) / corners, 100 + rnd() * 6000);
        ring.push([p.lon, p.lat]);
      }
      ring.push(ring[0]!);
      out.push({ ...base, geometry: { type: 'Polygon', coordinates: [ring] }, radiusM: null });
    }
  }
  return out;
}

describe('place index', () => {
  it('finds exactly the places the linear scan finds, on random shapes and points near their fences', () => {
    const rnd = random(42);
    const list = places(400, rnd);
    const index = new PlaceIndex(list);
    let hits = 0;
    for (let i = 0; i < 6000; i++) {
      // Half the points near a random place (within 7 km), half anywhere.
      const near = list[Math.floor(rnd() * list.length)]!;
      const c = near.geometry.type === 'Point' ? near.geometry.coordinates : near.geometry.coordinates[0]![0]!;
      const p = i % 2 === 0 ? destination({ lat: c[1], lon: c[0] }, rnd() * 360, rnd() * 7000) : { lat: 30 + rnd() * 15, lon: -120 + rnd() * 40 };
      const fast = index.placesAt(p.lat, p.lon).map((x) => x.id);
      expect(fast).toEqual(index.placesAtLinear(p.lat, p.lon).map((x) => x.id));
      hits += fast.length;
    }
    // The points really met places (the comparison is not of empty answers).
    expect(hits).toBeGreaterThan(600);
    expect(new PlaceIndex([]).placesAt(39, -94)).toEqual([]);
  });
});
