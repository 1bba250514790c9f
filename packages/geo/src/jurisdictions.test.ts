import { describe, expect, it } from 'vitest';
import { IFTA_JURISDICTIONS, jurisdictionAt, jurisdictionOutlines } from './jurisdictions.ts';

describe('jurisdictionAt', () => {
  it.each([
    [32.7767, -96.797, 'TX'],
    [41.8781, -87.6298, 'IL'],
    [39.7392, -104.9903, 'CO'],
    [36.1627, -86.7816, 'TN'],
    [43.6532, -79.3832, 'ON'],
    [45.5019, -73.5674, 'QC'],
    [51.0447, -114.0719, 'AB'],
    [38.9072, -77.0369, 'DC'],
    [61.2181, -149.9003, 'AK'],
  ])('puts %f,%f in %s', (lat, lon, code) => {
    expect(jurisdictionAt(lat, lon)?.code).toBe(code);
  });

  it('flags IFTA membership', () => {
    expect(jurisdictionAt(32.7767, -96.797)).toEqual({ code: 'TX', country: 'US', ifta: true });
    expect(jurisdictionAt(38.9072, -77.0369)?.ifta).toBe(false);
    expect(jurisdictionAt(61.2181, -149.9003)?.ifta).toBe(false);
    expect(IFTA_JURISDICTIONS.size).toBe(58);
  });

  it('answers null in Mexico, the ocean and Lake Michigan', () => {
    expect(jurisdictionAt(19.4326, -99.1332)).toBeNull();
    expect(jurisdictionAt(30, -60)).toBeNull();
    expect(jurisdictionAt(43.5, -87.2)).toBeNull();
  });

  it('bundles every IFTA member as an outline', () => {
    const codes = new Set(jurisdictionOutlines().features.map((f) => f.properties.code));
    for (const code of IFTA_JURISDICTIONS) expect(codes.has(code)).toBe(true);
  });
});
