import { beforeAll, describe, expect, it } from 'vitest';
import { BOUNDARY_DATASET, IFTA_JURISDICTIONS, jurisdictionAt, jurisdictionOutlines, locateJurisdiction } from './jurisdictions.ts';

describe('jurisdictionAt', () => {
  // The first lookup parses the boundaries and builds the index (0.5-2 s on a loaded machine).
  beforeAll(() => void jurisdictionAt(0, 0), 30_000);

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

  it('answers Mexico as one non-member jurisdiction, null in the ocean and mid-Lake Michigan', () => {
    expect(jurisdictionAt(19.4326, -99.1332)).toEqual({ code: 'MX', country: 'MX', ifta: false });
    expect(jurisdictionAt(30, -60)).toBeNull();
    expect(jurisdictionAt(43.5, -87.2)).toBeNull();
  });

  it('bundles every IFTA member as an outline', () => {
    const codes = new Set(jurisdictionOutlines().features.map((f) => f.properties.code));
    for (const code of IFTA_JURISDICTIONS) expect(codes.has(code)).toBe(true);
  });

  it('puts both sides of well-known state lines in their states', () => {
    // Texarkana: State Line Avenue is the TX-AR line; a block either side.
    expect(jurisdictionAt(33.4251, -94.0445)?.code).toBe('TX');
    expect(jurisdictionAt(33.4251, -94.0415)?.code).toBe('AR');
    // Four Corners: 300 m into each quadrant of the monument (36.99898, -109.04518).
    expect(jurisdictionAt(37.0017, -109.0486)?.code).toBe('UT');
    expect(jurisdictionAt(37.0017, -109.0418)?.code).toBe('CO');
    expect(jurisdictionAt(36.9963, -109.0418)?.code).toBe('NM');
    expect(jurisdictionAt(36.9963, -109.0486)?.code).toBe('AZ');
  });

  it('snaps a point in no polygon to the nearest jurisdiction within 2 km, and no further', () => {
    // Walking east from Chicago's lakefront onto Lake Michigan: Illinois while within 2 km of its shore.
    let last = 0;
    for (let lon = -87.62; lon < -87.4; lon += 0.001) {
      const at = locateJurisdiction(41.88, lon);
      if (at) {
        expect(at.jurisdiction.code).toBe('IL');
        expect(at.snappedM).toBeLessThanOrEqual(2000);
        last = at.snappedM;
      } else {
        expect(last).toBeGreaterThan(1900);
        return;
      }
    }
    throw new Error('never left the 2 km band');
  });

  it('names the dataset the figures come from', () => {
    expect(BOUNDARY_DATASET).toMatch(/cb_2018_us_state_500k/);
  });
});
