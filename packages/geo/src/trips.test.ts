import { describe, expect, it } from 'vitest';
import { destination } from './distance.ts';
import { analyzeTrack, inTimeOrder, type TrackPoint } from './trips.ts';

/** Builds a 1 Hz-ish track from legs: drive at a speed for some seconds, or stand still. */
function track(legs: Array<{ s: number; kmh: number; ignition?: boolean; every?: number }>): TrackPoint[] {
  const pts: TrackPoint[] = [];
  let t = Date.UTC(2026, 10, 2, 8);
  let pos = { lat: 35, lon: -97 };
  pts.push({ time: t, ...pos, speedKmh: 0, ignition: true });
  for (const leg of legs) {
    const every = leg.every ?? 10;
    for (let e = every; e <= leg.s; e += every) {
      t += every * 1000;
      if (leg.kmh > 0) pos = destination(pos, 90, (leg.kmh / 3.6) * every);
      pts.push({ time: t, ...pos, speedKmh: leg.kmh, ignition: leg.ignition ?? true });
    }
  }
  return pts;
}

describe('analyzeTrack', () => {
  it('finds one stop between two trips with distance, driving and idle time', () => {
    const pts = track([
      { s: 1800, kmh: 90 },
      { s: 300, kmh: 0, ignition: true },
      { s: 900, kmh: 0, ignition: false },
      { s: 600, kmh: 60 },
    ]);
    const { stops, trips, summary } = analyzeTrack(pts);
    expect(stops).toHaveLength(1);
    // From the first fix at rest to the last one, 10 s sampling: 1,190 s of the 1,200 s leg.
    expect(stops[0]!.durationS).toBe(1190);
    expect(stops[0]!.idleS).toBe(300);
    expect(trips).toHaveLength(2);
    expect(trips[0]!.distanceM / 1000).toBeCloseTo(45, 1);
    expect(trips[1]!.distanceM / 1000).toBeCloseTo(10, 1);
    expect(summary.distanceM / 1000).toBeCloseTo(55, 1);
    // 2,400 s of legs plus the 10 s from the last fix at speed to the first at rest.
    expect(summary.drivingS).toBe(2410);
    expect(summary.idleS).toBe(300);
    expect(summary.maxSpeedKmh).toBe(90);
    expect(summary.averageSpeedKmh).toBeCloseTo(55 / (2410 / 3600), 1);
  });

  it('does not call a one-minute traffic light a stop, but counts its idling', () => {
    const pts = track([
      { s: 600, kmh: 50 },
      { s: 60, kmh: 0 },
      { s: 600, kmh: 50 },
    ]);
    const { stops, trips, summary } = analyzeTrack(pts);
    expect(stops).toHaveLength(0);
    expect(trips).toHaveLength(1);
    // Six fixes at rest, ten seconds apart: 50 s between the first and the last.
    expect(summary.idleS).toBe(50);
  });

  it('treats a long silence without movement as a stop and a long silence with movement as driving', () => {
    const base = track([{ s: 600, kmh: 80 }]);
    const last = base[base.length - 1]!;
    const parked = [...base, { ...last, time: last.time + 3_600_000, speedKmh: 0, ignition: false }];
    expect(analyzeTrack(parked).stops).toHaveLength(1);
    expect(analyzeTrack(parked).stops[0]!.durationS).toBe(3600);
    const far = destination(last, 90, 50_000);
    const moved = [...base, { time: last.time + 3_600_000, ...far, speedKmh: 80, ignition: true }];
    expect(analyzeTrack(moved).stops).toHaveLength(0);
  });

  it('derives movement from positions when the device reports no speed', () => {
    const pts = track([{ s: 600, kmh: 72 }]).map((p) => ({ ...p, speedKmh: null }));
    const { summary } = analyzeTrack(pts);
    expect(summary.drivingS).toBe(600);
    expect(summary.maxSpeedKmh).toBeCloseTo(72, 0);
  });

  it('answers zeros for an empty or single-point track', () => {
    expect(analyzeTrack([]).summary.distanceM).toBe(0);
    const one = analyzeTrack([{ time: 0, lat: 1, lon: 1, speedKmh: 0 }]);
    expect(one.stops).toEqual([]);
    expect(one.trips).toEqual([]);
  });
});

describe('inTimeOrder', () => {
  const columns = (times: number[]) => ({
    time: Float64Array.from(times),
    lat: Float64Array.from(times, (t, i) => t + i / 10),
    lon: Float64Array.from(times, (t) => -t),
    speedKmh: Float64Array.from(times, (t) => (t === 3 ? Number.NaN : t * 10)),
    ignition: Int8Array.from(times, (t) => (t % 2 ? 1 : -1)),
  });

  it('returns sorted columns as they are', () => {
    const c = columns([1, 2, 2, 5]);
    expect(inTimeOrder(c)).toBe(c);
  });

  it('sorts every column by time, equal times keeping their order', () => {
    const sorted = inTimeOrder(columns([4, 1, 3, 1, 2]));
    expect([...sorted.time]).toEqual([1, 1, 2, 3, 4]);
    expect([...sorted.lat]).toEqual([1.1, 1.3, 2.4, 3.2, 4]);
    expect([...sorted.lon]).toEqual([-1, -1, -2, -3, -4]);
    expect([...sorted.speedKmh]).toEqual([10, 10, 20, Number.NaN, 40]);
    expect([...sorted.ignition]).toEqual([1, 1, -1, 1, -1]);
  });
});
