import { describe, expect, it } from 'vitest';
import { TripFolder, type FoldedStop, type FoldedTrip } from './trip-fold.ts';
import { MIN, MORNING, MORNING_NO_IGNITION, track, type TrackFix } from './trip-track.test-helper.ts';

// The trip fold on its own (decision 0163): trips by ignition or speed, stops with their idle time,
// no trip from jitter while parked.

const T0 = Date.UTC(2026, 5, 1, 12, 0);

function fold(fixes: readonly TrackFix[]): { trips: FoldedTrip[]; stops: FoldedStop[] } {
  const f = new TripFolder();
  for (const x of fixes) f.add({ ...x, driverId: null });
  const done = f.take();
  const open = f.openStop();
  return {
    trips: done.flatMap((d) => (d.kind === 'trip' ? [d.trip] : [])),
    stops: [...done.flatMap((d) => (d.kind === 'stop' ? [d.stop] : [])), ...(open ? [open] : [])],
  };
}
const mins = (ms: number) => (ms - T0) / MIN;

describe('the trip fold', () => {
  it('cuts a morning with ignition into two trips and three stops, a red light being no stop', () => {
    const { trips, stops } = fold(track(T0, MORNING));
    expect(trips.map((t) => [mins(t.start.t), mins(t.end.t), Math.round(t.distanceM / 100) / 10, t.maxSpeedKmh])).toEqual([
      [35, 66, 30, 60],
      [106, 121, 15, 60],
    ]);
    expect(stops.map((s) => [mins(s.start.t), s.endedAt === null ? null : mins(s.endedAt), s.idleMs / MIN, s.ignitionKnown])).toEqual([
      [0, 35, 5, true],
      [66, 106, 10, true],
      [121, null, 0, true],
    ]);
  });

  it('cuts the same morning by speed alone when the device reports no ignition (stops of 5 minutes or more)', () => {
    const { trips, stops } = fold(track(T0, MORNING_NO_IGNITION));
    expect(trips.map((t) => [mins(t.start.t), mins(t.end.t), Math.round(t.distanceM / 100) / 10])).toEqual([
      [35, 66, 30],
      [106, 121, 15],
    ]);
    expect(stops.map((s) => [mins(s.start.t), s.endedAt === null ? null : mins(s.endedAt), s.idleMs, s.ignitionKnown])).toEqual([
      [0, 35, 0, false],
      [66, 106, 0, false],
      [121, null, 0, false],
    ]);
  });

  it('ends a trip at once when the ignition goes off, even after a minute standing', () => {
    const { trips, stops } = fold(
      track(T0, [
        [5, 0, false],
        [10, 50, true],
        [1, 0, true],
        [2, 0, false],
        [3, 40, true],
        [4, 0, true],
      ]),
    );
    expect(trips.map((t) => [mins(t.start.t), mins(t.end.t)])).toEqual([[5, 15]]);
    // The second drive is still under way when the fixes end (the last 4 minutes are under the stop time).
    expect(stops.map((s) => [mins(s.start.t), s.endedAt === null ? null : mins(s.endedAt)])).toEqual([
      [0, 5],
      [15, 18],
    ]);
  });

  it('makes no trip of GPS jitter while parked: wandering fixes and speed spikes stay one stop', () => {
    const parked = track(T0, [[60, 0, null]]).map((f, i) => ({
      ...f,
      lat: f.lat + Math.sin(i * 1.7) * 0.00012,
      lon: f.lon + Math.cos(i * 2.3) * 0.00015,
      speed: i % 7 === 3 ? 9 : i % 5 === 1 ? 6 : 0.8,
    }));
    const { trips, stops } = fold(parked);
    expect(trips).toEqual([]);
    expect(stops.map((s) => [mins(s.start.t), s.endedAt])).toEqual([[0, null]]);
  });

  it('ends a trip where the fixes stopped when the device falls silent for more than 10 minutes', () => {
    const fixes = track(T0, [
      [5, 0, null],
      [10, 60, null],
    ]);
    const later = track(T0 + 45 * MIN, [[10, 0, null]], fixes[fixes.length - 1]!.lon);
    const { trips, stops } = fold([...fixes, ...later]);
    expect(trips.map((t) => [mins(t.start.t), mins(t.end.t)])).toEqual([[5, 14.5]]);
    expect(stops.map((s) => [mins(s.start.t), s.endedAt === null ? null : mins(s.endedAt)])).toEqual([
      [0, 5],
      [14.5, null],
    ]);
  });
});
