import { describe, expect, it } from 'vitest';
import { distanceM } from './distance.ts';
import { lineLengthM, shortLengthM } from './geodesic.ts';

describe('ellipsoidal lengths', () => {
  // Textbook WGS84 values: a degree of latitude is 110,574 m at the equator, 111,132 m at 45° and
  // 111,694 m at the pole; a degree of longitude is 78,847 m at 45°.
  it.each([
    [0, 110_574],
    [45, 111_132],
    [89.5, 111_694],
  ])('measures a degree of latitude centred on %f° as the ellipsoid does', (lat, metres) => {
    expect(shortLengthM(lat - 0.5, -90, lat + 0.5, -90)).toBeCloseTo(metres, -1);
  });

  it('measures a degree of longitude at 45° as 78,847 m', () => {
    expect(shortLengthM(45, -90.5, 45, -89.5)).toBeCloseTo(78_847, -1);
  });

  it('agrees with the sphere within its 0.6 % error and with itself piecewise', () => {
    const [a, b] = [
      { lat: 41.5, lon: -93.6 },
      { lat: 41.59, lon: -93.51 },
    ];
    const ell = shortLengthM(a.lat, a.lon, b.lat, b.lon);
    expect(Math.abs(ell / distanceM(a, b) - 1)).toBeLessThan(0.006);
    // A 1,000 km line measured whole equals the sum of its halves.
    const whole = lineLengthM(35, -110, 40, -100);
    const halves = lineLengthM(35, -110, 37.5, -105) + lineLengthM(37.5, -105, 40, -100);
    expect(whole).toBeCloseTo(halves, 0);
  });

  it('measures across the antimeridian the short way', () => {
    expect(shortLengthM(52, 179.99, 52, -179.99)).toBeLessThan(2000);
  });
});
