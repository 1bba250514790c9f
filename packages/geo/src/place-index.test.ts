import { describe, expect, it } from 'vitest';
import { nearestPlaceBruteForce, PlaceIndex } from './place-index.ts';
import { bundledPlaces, parsePlaces, type Place } from './places.ts';

/** Deterministic pseudo-random numbers (mulberry32), so a failure names a reproducible point. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The points where the index and brute force disagree (distance, or place when not equally near). */
function disagreements(index: PlaceIndex, places: readonly Place[], points: Iterable<readonly [number, number]>): string[] {
  const out: string[] = [];
  for (const [lat, lon] of points) {
    const fast = index.nearest(lat, lon);
    const slow = nearestPlaceBruteForce(places, lat, lon);
    // Two places can be equally near; then either is right, but the distance must agree.
    const sameDistance = Math.abs(fast.distanceM - slow.distanceM) < 1e-3;
    if (!sameDistance || (fast.place !== slow.place && fast.distanceM !== slow.distanceM)) {
      out.push(`${lat}, ${lon}: index ${fast.place.name} ${fast.distanceM} m, brute force ${slow.place.name} ${slow.distanceM} m`);
    }
  }
  return out;
}

function* randomPoints(seed: number, count: number, lat0: number, latSpan: number, lon0: number, lonSpan: number): Generator<[number, number]> {
  const rnd = random(seed);
  for (let i = 0; i < count; i++) yield [lat0 + rnd() * latSpan, lon0 + rnd() * lonSpan];
}

describe('bundled place list', () => {
  const places = bundledPlaces();

  it('holds the US states, DC and the Canadian provinces and territories, all with population ≥ 5,000', () => {
    expect(places.length).toBeGreaterThan(7000);
    const codes = new Set(places.map((p) => p.code));
    for (const c of ['AK', 'HI', 'DC', 'IL', 'TX', 'WY', 'ON', 'QC', 'BC', 'NL', 'PE', 'YT', 'NT', 'NU']) expect(codes.has(c), c).toBe(true);
    expect(codes.size).toBe(51 + 13);
    for (const p of places) {
      expect(p.population, p.name).toBeGreaterThanOrEqual(5000);
      expect(p.lat).toBeGreaterThan(18);
      expect(p.lat).toBeLessThan(72);
      expect(p.lon).toBeGreaterThan(-180);
      expect(p.lon).toBeLessThan(-52);
      expect(p.name.trim()).toBe(p.name);
      // Latin-1 keeps the data a one-byte string in V8 (scripts/build-places.mjs).
      expect(p.name, p.name).toMatch(/^[\x20-\x7e\xa0-\xff]+$/);
      expect(p.name.length).toBeGreaterThan(0);
    }
  });

  it('places Joliet, IL and Windsor, ON where they are', () => {
    const joliet = places.find((p) => p.name === 'Joliet' && p.code === 'IL');
    expect(joliet).toMatchObject({ lat: expect.closeTo(41.525, 2), lon: expect.closeTo(-88.083, 2) });
    const windsor = places.find((p) => p.name === 'Windsor' && p.code === 'ON');
    expect(windsor).toMatchObject({ lat: expect.closeTo(42.3, 2), lon: expect.closeTo(-83.017, 2) });
  });

  it('rejects a malformed data line', () => {
    expect(parsePlaces('A|IL|41|-88|9000\n')).toEqual([{ name: 'A', code: 'IL', lat: 41, lon: -88, population: 9000 }]);
    expect(() => parsePlaces('A|IL|41\n')).toThrow(/bad place line/);
  });
});

describe('PlaceIndex', () => {
  const places = bundledPlaces();
  const index = new PlaceIndex(places);

  // Brute force costs ~0.5 ms a point: these tests get time beyond the 5 s default on a busy machine.
  it('agrees with brute force on 4,000 random points across the US and Canada', { timeout: 120_000 }, () => {
    expect(disagreements(index, places, randomPoints(395, 4000, 24, 46, -168, 115))).toEqual([]);
  });

  it('agrees with brute force in Alaska, Hawaii and far out at sea', { timeout: 120_000 }, () => {
    expect(disagreements(index, places, randomPoints(1, 500, 52, 19, -170, 40))).toEqual([]);
    expect(disagreements(index, places, randomPoints(2, 500, 18.5, 4, -161, 7))).toEqual([]);
    // Open ocean, the Arctic, the southern hemisphere and across the antimeridian: still an answer.
    expect(disagreements(index, places, randomPoints(3, 300, -90, 180, -180, 360))).toEqual([]);
    expect(
      disagreements(index, places, [
        [90, 0],
        [-90, 0],
        [0, 180],
        [0, -180],
        [30, -140],
        [45, -30],
        [85, -100],
      ]),
    ).toEqual([]);
  });

  it('finds a neighbour across the antimeridian and over a cell edge, whatever the cell size', { timeout: 120_000 }, () => {
    const few: Place[] = [
      { name: 'West', code: 'AK', lat: 52, lon: 179.95, population: 5000 },
      { name: 'East', code: 'AK', lat: 52, lon: -178, population: 5000 },
      { name: 'Edge', code: 'IL', lat: 41.999, lon: -88.001, population: 5000 },
      { name: 'Far', code: 'IL', lat: 42.6, lon: -87.5, population: 5000 },
    ];
    for (const cellDeg of [0.25, 0.5, 1, 3, 10]) {
      const small = new PlaceIndex(few, cellDeg);
      expect(small.nearest(52, -179.95).place.name).toBe('West');
      expect(small.nearest(42.001, -87.999).place.name).toBe('Edge');
      expect(small.nearest(42.5, -87.6).place.name).toBe('Far');
      expect(disagreements(small, few, randomPoints(cellDeg * 100, 1000, 30, 30, -180, 360)), `cell ${cellDeg}°`).toEqual([]);
    }
  });

  it('refuses an empty list, an uneven cell size and a position that is not one', () => {
    expect(() => new PlaceIndex([])).toThrow(/at least one place/);
    expect(() => new PlaceIndex(places, 0.7)).toThrow(/must divide 180/);
    expect(() => index.nearest(Number.NaN, 0)).toThrow(RangeError);
    expect(() => index.nearest(91, 0)).toThrow(RangeError);
  });
});
