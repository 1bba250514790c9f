import { describe, expect, it } from 'vitest';
import { bearingDeg, destination, distanceM, pathLengthM } from './distance.ts';

describe('distance', () => {
  it('measures New York to Los Angeles as about 3,936 km', () => {
    const d = distanceM({ lat: 40.7128, lon: -74.006 }, { lat: 34.0522, lon: -118.2437 });
    expect(d / 1000).toBeGreaterThan(3925);
    expect(d / 1000).toBeLessThan(3945);
  });

  it('is zero for the same point and symmetric', () => {
    const a = { lat: 32.78, lon: -96.8 };
    const b = { lat: 29.76, lon: -95.37 };
    expect(distanceM(a, a)).toBe(0);
    expect(distanceM(a, b)).toBeCloseTo(distanceM(b, a), 6);
  });

  it('walks to a destination and back by distance and bearing', () => {
    const from = { lat: 41.88, lon: -87.63 };
    const to = destination(from, 45, 10_000);
    expect(distanceM(from, to)).toBeCloseTo(10_000, 0);
    expect(bearingDeg(from, to)).toBeCloseTo(45, 1);
  });

  it('sums a path', () => {
    const a = { lat: 0, lon: 0 };
    const b = destination(a, 90, 1000);
    const c = destination(b, 0, 500);
    expect(pathLengthM([a, b, c])).toBeCloseTo(1500, 3);
  });
});
