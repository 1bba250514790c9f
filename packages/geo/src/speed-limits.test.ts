import { describe, expect, it } from 'vitest';
import { highwayNetwork } from './highway-route.ts';
import { bundledPlaces } from './places.ts';
import { ROAD_SNAP_M, SpeedLimitIndex, speedLimitAt, townRadiusM } from './speed-limits.ts';

// Decision 0200: the limit is judged on the bundled roads only. Off them (in a town or in the country)
// a fix may be on an interstate the bundle lacks, so no limit is known there.

describe('speed limit at a fix', () => {
  it('is the state default for a rural interstate on a bundled road', () => {
    expect(speedLimitAt(37.9, -77.465, true)).toMatchObject({ kph: 88.514, roadClass: 'HIGHWAY_RURAL', jurisdiction: 'VA' });
  });

  it('is unknown off the bundled roads outside towns, where the rural default would call a truck on an unbundled interstate a speeder', () => {
    // Rural Illinois: the 55 mph rural default was applied here before.
    expect(speedLimitAt(40.5, -89.9, true)).toBeNull();
    expect(speedLimitAt(40.5, -89.9, false)).toBeNull();
  });

  it('is unknown outside the US and Canada', () => {
    expect(speedLimitAt(48.85, 2.35, true)).toBeNull();
  });

  it('is the same after the index forgets the cells it worked out (an idle server, decision 0326)', () => {
    const index = new SpeedLimitIndex();
    // Around a rural interstate in Virginia (on and off the road, different classes and limits).
    const points = Array.from({ length: 400 }, (_, i) => [37.885 + (i % 20) * 0.0015, -77.48 + Math.floor(i / 20) * 0.0015] as const);
    const before = points.map(([lat, lon]) => [index.at(lat, lon, true), index.roadClassAt(lat, lon)]);
    const cellCount = () => (index as unknown as { cells: Map<number, number> }).cells.size;
    expect(cellCount()).toBeGreaterThan(100);
    index.forgetCells();
    expect(cellCount()).toBe(0);
    expect(points.map(([lat, lon]) => [index.at(lat, lon, true), index.roadClassAt(lat, lon)])).toEqual(before);
    expect(before.some(([limit]) => limit !== null)).toBe(true);
  });
});

describe('road class by cell', () => {
  // The index packs its road segments and towns by grid cell (typed arrays, not a Map of arrays): the
  // class it gives must be what every segment and every town measured plainly give.
  const M_PER_DEG_LAT = 110_574;
  const CELL_DEG = 0.0025;
  const segments = highwayNetwork().pieces.flatMap((p) => p.points.slice(1).map((b, i) => [...p.points[i]!, ...b] as const));
  const nearRoad = (lat: number, lon: number) =>
    segments.some(([ax0, ay0, bx0, by0]) => {
      const kx = M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
      const [ax, ay, bx, by] = [(ax0 - lon) * kx, (ay0 - lat) * M_PER_DEG_LAT, (bx0 - lon) * kx, (by0 - lat) * M_PER_DEG_LAT];
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / len2));
      return (ax + t * (bx - ax)) ** 2 + (ay + t * (by - ay)) ** 2 <= ROAD_SNAP_M ** 2;
    });
  const inTown = (lat: number, lon: number) =>
    bundledPlaces().some((p) => {
      const dx = (p.lon - lon) * M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
      const dy = (p.lat - lat) * M_PER_DEG_LAT;
      return dx * dx + dy * dy <= townRadiusM(p.population) ** 2;
    });

  it('is what the segments and towns measured one by one give, at cells on, beside and off the bundled roads', () => {
    const index = new SpeedLimitIndex();
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const seen = new Set<number>();
    const wrong: string[] = [];
    for (let n = 0; n < 800; n++) {
      // A vertex of the network moved up to 1 km, or anywhere in the lower 48.
      const piece = segments[Math.floor(rnd() * segments.length)]!;
      const [lat0, lon0] = n % 3 ? [piece[1] + (rnd() - 0.5) * 0.02, piece[0] + (rnd() - 0.5) * 0.02] : [25 + rnd() * 24, -124 + rnd() * 57];
      // The index classes a cell by its centre.
      const lat = (Math.floor(lat0 / CELL_DEG) + 0.5) * CELL_DEG;
      const lon = (Math.floor(lon0 / CELL_DEG) + 0.5) * CELL_DEG;
      const expected = nearRoad(lat, lon) ? (inTown(lat, lon) ? 1 : 0) : 2;
      seen.add(expected);
      if (index.classAt(lat, lon) !== expected) wrong.push(`${lat}, ${lon}: ${index.classAt(lat, lon)}, plainly ${expected}`);
    }
    expect(wrong).toEqual([]);
    expect([...seen].sort()).toEqual([0, 1, 2]);
  });
});
