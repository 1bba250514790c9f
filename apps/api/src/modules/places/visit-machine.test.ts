import { describe, expect, it } from 'vitest';
import { blankTrack, replayVisits, stepVisits, type DwellPlace, type VisitFix } from './visit-machine.ts';

// The dwell state machine on its own: inside/outside as given, times in seconds.

const A: DwellPlace = { id: 'A', arrivalDwellS: 120, departureDwellS: 60 };
const dwellOf = (id: string) => (id === 'A' ? A : undefined);
const fix = (s: number): VisitFix => ({ t: s * 1000, lat: 0, lon: 0, driverId: `d${s}` });
/** Fixes at the given seconds, inside A where `inside` says. */
const run = (seconds: number[], inside: (s: number) => boolean) => replayVisits(seconds.map(fix), (f) => (inside(f.t / 1000) ? [A] : []), dwellOf);

describe('visit machine', () => {
  it('arrives after the arrival dwell at the first fix inside, departs after the departure dwell at the first fix outside', () => {
    const s = [0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330];
    const { visits, track } = run(s, (x) => x >= 30 && x < 240);
    expect(visits.map((v) => [v.arrivedAt, v.departedAt, v.driverId, v.arrivalConfirmedAt, v.departureConfirmedAt])).toEqual([
      [30_000, 240_000, 'd30', 150_000, 300_000],
    ]);
    expect(track.places.size).toBe(0);
  });

  it('gives nothing for jitter across the fence or a pass shorter than the dwell', () => {
    const s = Array.from({ length: 60 }, (_, i) => i * 10);
    expect(run(s, (x) => (x / 10) % 2 === 1).visits).toEqual([]);
    expect(run(s, (x) => x >= 100 && x < 210).visits).toEqual([]);
    // Inside long enough, but the exit jitters: short outside runs do not end the visit.
    const { visits, track } = run(s, (x) => x >= 100 && !(x > 300 && (x / 10) % 2 === 0));
    expect(visits.map((v) => [v.arrivedAt, v.departedAt])).toEqual([[100_000, null]]);
    expect(track.places.get('A')?.arrivedAt).toBe(100_000);
  });

  it('drops the track of a place that is gone, and arrives at once with a zero dwell', () => {
    const v = blankTrack();
    const zero: DwellPlace = { id: 'Z', arrivalDwellS: 0, departureDwellS: 0 };
    expect(stepVisits(v, fix(0), [zero], () => zero).map((e) => e.kind)).toEqual(['ARRIVAL']);
    expect(stepVisits(v, fix(1), [], () => zero).map((e) => e.kind)).toEqual(['DEPARTURE']);
    stepVisits(v, fix(2), [zero], () => zero);
    expect(stepVisits(v, fix(3), [], () => undefined)).toEqual([]);
    expect(v.places.size).toBe(0);
  });
});
