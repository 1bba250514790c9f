import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLon } from './distance.ts';
import { lineLengthM } from './geodesic.ts';
import { highwayRoute } from './highway-route.ts';
import { addPair, emptyDistances, interpolateFix, splitByJurisdiction, splitPair, UNKNOWN, type TrackFix } from './ifta-split.ts';
import { splitByDenseSampling } from './ifta-split-reference.ts';
import { jurisdictionAt } from './jurisdictions.ts';

const MILE = 1609.344;
const fix = (time: number, lat: number, lon: number, odometerM?: number, speedKmh = 90): TrackFix => ({ time, lat, lon, speedKmh, odometerM });
const metresOf = (r: ReturnType<typeof splitByJurisdiction>, code: string): number => r.byJurisdiction[code]?.metres ?? 0;

/** Fixes every `everyMs` along a polyline driven at `kmh`, odometer from 0. */
function drive(route: readonly LatLon[], kmh: number, everyMs: number, startMs = Date.UTC(2026, 3, 1)): TrackFix[] {
  const mps = kmh / 3.6;
  const step = (mps * everyMs) / 1000;
  const out: TrackFix[] = [fix(startMs, route[0]!.lat, route[0]!.lon, 0, kmh)];
  let along = 0;
  let next = step;
  for (let i = 1; i < route.length; i++) {
    const a = route[i - 1]!;
    const b = route[i]!;
    const len = lineLengthM(a.lat, a.lon, b.lat, b.lon);
    while (next <= along + len) {
      const f = (next - along) / len;
      out.push(fix(startMs + (next / mps) * 1000, a.lat + (b.lat - a.lat) * f, a.lon + (b.lon - a.lon) * f, next, kmh));
      next += step;
    }
    along += len;
  }
  const end = route[route.length - 1]!;
  out.push(fix(startMs + (along / mps) * 1000, end.lat, end.lon, along, kmh));
  return out;
}

/** Per-jurisdiction agreement with the dense-sampling reference: off by at most a step at each change. */
function expectCloseToReference(track: readonly TrackFix[], stepM: number): void {
  const fast = splitByJurisdiction(track);
  const slow = splitByDenseSampling(track, stepM);
  const changes = fast.crossings.length + 2;
  for (const code of new Set([...Object.keys(fast.byJurisdiction), ...Object.keys(slow)])) {
    expect(Math.abs(metresOf(fast, code) - (slow[code]?.metres ?? 0)), code).toBeLessThanOrEqual(changes * stepM + 1e-6 * fast.totalMetres);
  }
}

describe('splitByJurisdiction on real routes', () => {
  // I-80 from the Bay Area to Chicago over the bundled roads, a fix a minute at 100 km/h.
  const waypoints: LatLon[] = [
    { lat: 37.8044, lon: -122.2712 }, // Oakland
    { lat: 38.5816, lon: -121.4944 }, // Sacramento
    { lat: 39.5296, lon: -119.8138 }, // Reno
    { lat: 40.7608, lon: -111.891 }, // Salt Lake City
    { lat: 41.14, lon: -104.8202 }, // Cheyenne
    { lat: 41.2565, lon: -95.9345 }, // Omaha
    { lat: 41.5868, lon: -93.625 }, // Des Moines
    { lat: 41.8781, lon: -87.6298 }, // Chicago
  ];
  const route = waypoints.slice(1).flatMap((to, i) => highwayRoute(waypoints[i]!, to).slice(i === 0 ? 0 : 1));
  const track = drive(route, 100, 60_000);
  const result = splitByJurisdiction(track);

  it('crosses CA, NV, UT, WY, NE, IA and IL in order, once each', () => {
    expect(result.crossings.map((c) => `${c.from}>${c.to}`)).toEqual(['CA>NV', 'NV>UT', 'UT>WY', 'WY>NE', 'NE>IA', 'IA>IL']);
    expect(Object.keys(result.byJurisdiction).sort()).toEqual(['CA', 'IA', 'IL', 'NE', 'NV', 'UT', 'WY']);
    expect(result.flagged).toEqual([]);
  });

  it('gives each state the miles a dense sampling of the same line gives, within 20 m a crossing', () => {
    expectCloseToReference(track, 20);
  });

  it('comes within 6 % of the official I-80 mileage of the states crossed whole', () => {
    // FHWA route log mileages of I-80 by state. The bundled roads are Natural Earth 1:10m (a vertex every
    // 1-3 km, curves cut short) and the route may leave I-80 for a parallel highway, hence 6 %.
    const official: Record<string, number> = { NV: 410.67, UT: 196.23, WY: 402.76, NE: 455.32, IA: 306.27 };
    for (const [code, miles] of Object.entries(official)) {
      expect(Math.abs(metresOf(result, code) / MILE / miles - 1), code).toBeLessThan(0.06);
    }
  });

  it('puts each crossing on the state line at an interpolated time and odometer', () => {
    for (const c of result.crossings) {
      // A hundred metres either way along the line lies in the two states.
      const i = track.findIndex((f) => f.time > c.time);
      const a = track[i - 1]!;
      const b = track[i]!;
      const before = interpolateFix(a, b, c.time - 4000);
      const after = interpolateFix(a, b, c.time + 4000);
      expect(jurisdictionAt(before.lat, before.lon)?.code).toBe(c.from);
      expect(jurisdictionAt(after.lat, after.lon)?.code).toBe(c.to);
      expect(c.odometerM).toBeGreaterThan(a.odometerM!);
      expect(c.odometerM).toBeLessThan(b.odometerM!);
    }
    // The I-80 Nevada-Utah line is at Wendover (114.04° W).
    expect(result.crossings[1]!.lon).toBeCloseTo(-114.04, 1);
  });

  it('keeps the odometer: the states add up to the distance driven', () => {
    expect(result.totalMetres).toBeCloseTo(track[track.length - 1]!.odometerM!, 0);
  });
});

describe('splitPair', () => {
  it('splits a gap across two borders at both, and flags it interpolated', () => {
    // Farmington, NM to Moab, UT in one pair three hours apart: through the corner of Colorado.
    const a = fix(0, 36.73, -108.2);
    const b = fix(3 * 3_600_000, 38.57, -109.55);
    const split = splitPair(a, b);
    expect(split.pieces.map((p) => p.code)).toEqual(['NM', 'CO', 'UT']);
    expect(split.flags).toEqual(['interpolated']);
    expect(split.crossings[0]!.lat).toBeCloseTo(37.0, 2); // NM-CO: the 37th parallel
    expect(split.crossings[1]!.lon).toBeCloseTo(-109.045, 2); // CO-UT: the 32nd meridian west of Washington
    expect(split.crossings[0]!.time).toBeGreaterThan(0);
    expect(split.crossings[1]!.time).toBeLessThan(b.time);
    expectCloseToReference([a, b], 10);
  });

  it('lets the odometer decide the distance and shares it along the line', () => {
    // Texarkana, TX to AR, 28 km in half an hour.
    const a = fix(0, 33.43, -94.2, 1_000_000);
    const b = fix(1_800_000, 33.43, -93.9, 0);
    const gps = splitPair(a, { ...b, odometerM: null });
    const line = gps.metres;
    const odo = splitPair(a, { ...b, odometerM: 1_000_000 + 1.25 * line });
    expect(odo.source).toBe('odometer');
    expect(odo.metres).toBeCloseTo(1.25 * line, 6);
    expect(odo.pieces.map((p) => p.code)).toEqual(['TX', 'AR']);
    expect(odo.pieces[0]!.metres / odo.pieces[1]!.metres).toBeCloseTo(gps.pieces[0]!.metres / gps.pieces[1]!.metres, 9);
    expect(odo.crossings[0]!.odometerM).toBeCloseTo(1_000_000 + odo.pieces[0]!.metres, 3);
    // Backwards (a device swap): GPS decides and the pair is flagged.
    const back = splitPair(a, { ...b, odometerM: 900_000 });
    expect(back.source).toBe('gps');
    expect(back.metres).toBeCloseTo(line, 6);
    expect(back.flags).toContain('odometer-rejected');
  });

  it('flags an impossible jump but still counts it', () => {
    const split = splitPair(fix(0, 35.0, -101.0), fix(600_000, 35.0, -100.0)); // 91 km in 10 minutes
    expect(split.flags).toContain('impossible-speed');
    expect(split.metres).toBeGreaterThan(90_000);
    // 1 Hz jitter of 30 m is not a jump.
    expect(splitPair(fix(0, 35.0, -101.0), fix(1000, 35.0003, -101.0)).flags).toEqual([]);
  });

  it('does not take a night parked for a gap', () => {
    const split = splitPair(fix(0, 35.0, -101.0, undefined, 0), fix(10 * 3_600_000, 35.0001, -101.0, undefined, 0));
    expect(split.flags).toEqual([]);
    expect(split.pieces).toEqual([{ code: 'TX', metres: split.metres }]);
  });

  it('splits the Lake Champlain ferry at the New York-Vermont line mid-lake', () => {
    // Plattsburgh, NY to Grand Isle, VT: the lake is inside the states, the line runs down its middle.
    const split = splitPair(fix(0, 44.6955, -73.4516), fix(1_200_000, 44.716, -73.358));
    expect(split.pieces.map((p) => p.code)).toEqual(['NY', 'VT']);
    expect(split.crossings[0]!.lon).toBeGreaterThan(-73.44);
    expect(split.crossings[0]!.lon).toBeLessThan(-73.34);
  });
});

describe('a ferry across Lake Michigan', () => {
  // SS Badger, Ludington, MI to Manitowoc, WI: four hours, a fix every five minutes.
  const track = drive(
    [
      { lat: 43.955, lon: -86.452 },
      { lat: 44.09, lon: -87.655 },
    ],
    25,
    300_000,
  );
  const result = splitByJurisdiction(track);

  it('gives each state its shore and 2 km of water, and the open lake to unknown', () => {
    expect(result.crossings.map((c) => `${c.from}>${c.to}`)).toEqual([`MI>${UNKNOWN}`, `${UNKNOWN}>WI`]);
    expect(metresOf(result, 'MI')).toBeGreaterThan(2000);
    expect(metresOf(result, 'MI')).toBeLessThan(6000);
    expect(metresOf(result, 'WI')).toBeGreaterThan(2000);
    expect(metresOf(result, 'WI')).toBeLessThan(6000);
    expect(metresOf(result, UNKNOWN)).toBeGreaterThan(80_000);
    expectCloseToReference(track, 20);
  });

  it('flags the fixes on the open lake for review, as one segment', () => {
    expect(result.flagged).toHaveLength(1);
    expect(result.flagged[0]!.flags).toEqual(['unknown-position']);
    expect(result.flagged[0]!.metres).toBeGreaterThan(80_000);
  });
});

describe('a route along a state line', () => {
  /** Where `inFirst` turns false between lo and hi, by bisection to about a centimetre. */
  function edgeBetween(lo: number, hi: number, inFirst: (v: number) => boolean): number {
    while (Math.abs(hi - lo) > 1e-7) {
      const mid = (lo + hi) / 2;
      if (inFirst(mid)) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }
  /** Latitude of the CO-WY line at a longitude. */
  const borderLat = (lon: number) => edgeBetween(40.9, 41.1, (lat) => jurisdictionAt(lat, lon)?.code === 'CO');
  /** Longitude of the TX-AR line (State Line Avenue, Texarkana) at a latitude. */
  const stateLineLon = (lat: number) => edgeBetween(-94.06, -94.03, (lon) => jurisdictionAt(lat, lon)?.code === 'TX');

  it('keeps a truck 20 m inside Colorado along the Wyoming line wholly in Colorado', () => {
    const track: TrackFix[] = [];
    for (let i = 0; i <= 400; i++) {
      const lon = -106.0 + i * 0.0025;
      track.push(fix(i * 10_000, borderLat(lon) - 20 / 110_574, lon));
    }
    const result = splitByJurisdiction(track);
    expect(Object.keys(result.byJurisdiction)).toEqual(['CO']);
    expect(result.crossings).toEqual([]);
  });

  it('splits a zigzag along State Line Avenue, Texarkana, as dense sampling does', () => {
    // A fix a second, wandering 15 m either side of the TX-AR line.
    const track: TrackFix[] = [];
    for (let i = 0; i <= 600; i++) {
      const lat = 33.42 + i * 0.0001;
      track.push(fix(i * 1000, lat, stateLineLon(lat) + 0.00016 * Math.sin(i / 7)));
    }
    const result = splitByJurisdiction(track);
    expect(metresOf(result, 'TX')).toBeGreaterThan(0.2 * result.totalMetres);
    expect(metresOf(result, 'AR')).toBeGreaterThan(0.2 * result.totalMetres);
    expect(result.crossings.length).toBeGreaterThan(10);
    expectCloseToReference(track, 0.5);
  });
});

describe('the fast split against the plain reference', () => {
  // Corners where borders, water and datasets meet: Four Corners, Texarkana, Detroit-Windsor, Lake
  // Champlain, Washington DC, the Columbia River, Niagara, El Paso-Juárez.
  const places: LatLon[] = [
    { lat: 37.0, lon: -109.05 },
    { lat: 33.43, lon: -94.04 },
    { lat: 42.31, lon: -83.07 },
    { lat: 44.7, lon: -73.4 },
    { lat: 38.9, lon: -77.03 },
    { lat: 45.6, lon: -122.6 },
    { lat: 43.08, lon: -79.05 },
    { lat: 31.75, lon: -106.45 },
  ];
  const arbTrack = fc
    .record({
      place: fc.constantFrom(...places),
      steps: fc.array(
        fc.record({
          dLat: fc.double({ min: -0.08, max: 0.08, noNaN: true }),
          dLon: fc.double({ min: -0.08, max: 0.08, noNaN: true }),
          dt: fc.integer({ min: 1000, max: 1_200_000 }),
        }),
        { minLength: 1, maxLength: 12 },
      ),
      odometer: fc.boolean(),
    })
    .map(({ place, steps, odometer }) => {
      const track: TrackFix[] = [fix(0, place.lat, place.lon, odometer ? 0 : undefined)];
      for (const s of steps) {
        const p = track[track.length - 1]!;
        const next = fix(p.time + s.dt, p.lat + s.dLat, p.lon + s.dLon);
        if (odometer) next.odometerM = p.odometerM! + 1.1 * lineLengthM(p.lat, p.lon, next.lat, next.lon);
        track.push(next);
      }
      return track;
    });

  it('agrees per jurisdiction with dense sampling on random tracks', () => {
    fc.assert(
      fc.property(arbTrack, (track) => expectCloseToReference(track, 10)),
      { numRuns: 80, seed: 42 },
    );
  });

  it('folding splitPair with addPair gives what splitByJurisdiction gives', () => {
    fc.assert(
      fc.property(arbTrack, (track) => {
        const folded = emptyDistances();
        for (let i = 1; i < track.length; i++) addPair(folded, track[i - 1]!, track[i]!, splitPair(track[i - 1]!, track[i]!));
        const whole = splitByJurisdiction(track);
        expect(Object.keys(folded.byJurisdiction).sort()).toEqual(Object.keys(whole.byJurisdiction).sort());
        for (const [code, row] of Object.entries(whole.byJurisdiction)) {
          expect(folded.byJurisdiction[code]!.metres).toBeCloseTo(row.metres, 6);
          expect(folded.byJurisdiction[code]!.interpolatedMetres).toBeCloseTo(row.interpolatedMetres, 6);
        }
        expect(folded.crossings).toEqual(whole.crossings);
        expect(folded.flagged.map((f) => f.flags)).toEqual(whole.flagged.map((f) => f.flags));
      }),
      { numRuns: 60, seed: 43 },
    );
  });
});
