// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { distanceM } from '@fleet/geo/distance';
import { circleFromRing, circleRing, geometryBounds, placePolygon } from './place-shapes.ts';

const ACME: [number, number] = [-87.6298, 41.8781];

describe('place shapes', () => {
  it('draws a circle place as a closed ring whose corners lie at its radius', () => {
    const ring = circleRing(ACME, 250, 32);
    expect(ring).toHaveLength(33);
    expect(ring[0]).toEqual(ring[32]);
    for (const [lon, lat] of ring) expect(distanceM({ lat: ACME[1], lon: ACME[0] }, { lat, lon })).toBeCloseTo(250, -0.5);
  });

  it('reads a drawn ring back as the centre and radius it was drawn with', () => {
    const { center, radiusM } = circleFromRing(circleRing(ACME, 1200));
    expect(center[0]).toBeCloseTo(ACME[0], 4);
    expect(center[1]).toBeCloseTo(ACME[1], 4);
    expect(radiusM).toBeGreaterThanOrEqual(1199);
    expect(radiusM).toBeLessThanOrEqual(1201);
  });

  it('keeps a polygon place as it is and bounds it by its corners', () => {
    const geometry = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [-88, 41],
          [-87, 41],
          [-87, 42],
          [-88, 41],
        ] as [number, number][],
      ],
    };
    expect(placePolygon({ geometry, radiusMeters: null })).toBe(geometry);
    expect(geometryBounds(geometry)).toEqual([-88, 41, -87, 42]);
  });

  it('bounds a circle by its radius', () => {
    const [w, s, e, n] = geometryBounds({ type: 'Point', coordinates: ACME }, 1000);
    expect(distanceM({ lat: s, lon: ACME[0] }, { lat: n, lon: ACME[0] })).toBeCloseTo(2000, -1);
    expect(w).toBeLessThan(ACME[0]);
    expect(e).toBeGreaterThan(ACME[0]);
  });
});
