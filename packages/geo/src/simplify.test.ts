import { describe, expect, it } from 'vitest';
import { destination, type LatLon } from './distance.ts';
import { metresPerPixel, selectBySignificance, significance, simplifyForZoom, simplifyIndexes } from './simplify.ts';

const line = (n: number, stepM: number, bearing = 90): LatLon[] => {
  const out: LatLon[] = [{ lat: 35, lon: -100 }];
  for (let i = 1; i < n; i++) out.push(destination(out[i - 1]!, bearing, stepM));
  return out;
};

describe('simplifyIndexes', () => {
  it('reduces a straight road to its two ends', () => {
    expect(simplifyIndexes(line(1000, 25), 5)).toEqual([0, 999]);
  });

  it('keeps a corner that is further off than the tolerance', () => {
    const pts = [...line(50, 100, 90)];
    const corner = pts[pts.length - 1]!;
    for (let i = 1; i < 50; i++) pts.push(destination(corner, 0, i * 100));
    const kept = simplifyIndexes(pts, 10);
    expect(kept).toEqual([0, 49, 98]);
  });

  it('drops a wiggle smaller than the tolerance and keeps a larger one', () => {
    const pts = line(3, 1000);
    pts[1] = destination(pts[1]!, 0, 8);
    expect(simplifyIndexes(pts, 10)).toEqual([0, 2]);
    expect(simplifyIndexes(pts, 5)).toEqual([0, 1, 2]);
  });

  it('handles tiny inputs and 86,400 points without recursion trouble', () => {
    expect(simplifyIndexes([], 1)).toEqual([]);
    expect(simplifyIndexes(line(2, 10), 1)).toEqual([0, 1]);
    // A winding road: a sine of 2 km amplitude, one fix every ~10 m.
    const road: LatLon[] = [];
    for (let i = 0; i < 86_400; i++) road.push({ lat: 35 + 0.02 * Math.sin(i / 500), lon: -100 + i * 0.0001 });
    const kept = simplifyIndexes(road, 1);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(86_399);
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThan(20_000);
  });
});

describe('simplifyForZoom', () => {
  it('uses about one pixel of tolerance and respects the cap', () => {
    expect(metresPerPixel(0, 0)).toBeCloseTo(78_271.5, 0);
    expect(metresPerPixel(10, 60)).toBeCloseTo(78_271.5 / 1024 / 2, 0);
    const road: LatLon[] = [];
    for (let i = 0; i < 5000; i++) road.push({ lat: 35 + 0.05 * Math.sin(i / 20), lon: -100 + i * 0.001 });
    const all = simplifyForZoom(road, 18, 10_000);
    expect(all.length).toBeGreaterThan(2000);
    const capped = simplifyForZoom(road, 18, 500);
    expect(capped.length).toBeLessThanOrEqual(500);
    expect(capped[0]).toBe(0);
    expect(capped[capped.length - 1]).toBe(4999);
  });
});

describe('significance', () => {
  it('keeps at each tolerance exactly what Douglas-Peucker keeps', () => {
    const road: LatLon[] = [];
    for (let i = 0; i < 2000; i++) road.push({ lat: 35 + 0.01 * Math.sin(i / 37) + 0.002 * Math.sin(i / 5), lon: -100 + i * 0.0005 });
    const sig = significance(road);
    for (const tol of [0.5, 5, 50, 500]) {
      expect(selectBySignificance(sig, tol, 1e9).indexes).toEqual(simplifyIndexes(road, tol));
    }
  });

  it('caps at exactly maxPoints with the ends kept', () => {
    const road: LatLon[] = [];
    for (let i = 0; i < 1000; i++) road.push({ lat: 35 + 0.01 * Math.sin(i / 9), lon: -100 + i * 0.0005 });
    const { indexes, capped } = selectBySignificance(significance(road), 0, 100);
    expect(capped).toBe(true);
    expect(indexes).toHaveLength(100);
    expect(indexes[0]).toBe(0);
    expect(indexes[99]).toBe(999);
  });
});
