import { describe, expect, it } from 'vitest';
import type { TrackFix } from '@fleet/geo/ifta';
import { accumulateDays, utcDay, type DayRecords } from './distance-days.ts';

const MIN = 60_000;
/** East along 39° N at 90 km/h from Kansas into Missouri, one fix a minute, with an odometer. */
function track(start: number, minutes: number, lon0 = -94.9): TrackFix[] {
  const kmPerDegree = 111.32 * Math.cos((39 * Math.PI) / 180);
  return Array.from({ length: minutes + 1 }, (_, i) => ({
    time: start + i * MIN,
    lat: 39,
    lon: lon0 + (1.5 * i) / kmPerDegree,
    speedKmh: 90,
    odometerM: 1_000_000 + 1500 * i,
  }));
}
const total = (days: DayRecords) => [...days.values()].reduce((s, r) => s + [...r.metres.values()].reduce((a, [m]) => a + m, 0), 0);
const flat = (days: DayRecords) =>
  [...days.values()]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map((r) => ({
      day: r.day,
      fixes: r.fixes,
      odo: [r.odometerStartM, r.odometerEndM],
      metres: Object.fromEntries([...r.metres].map(([j, [m]]) => [j, Math.round(m)])),
      crossings: r.crossings.length,
    }));

describe('per-day distance records', () => {
  it('cuts a drive over midnight UTC between the two days by time, and puts the crossing on its day', () => {
    const t = track(Date.UTC(2026, 4, 12, 23, 50), 20);
    const days: DayRecords = new Map();
    accumulateDays(days, null, t);
    expect(flat(days)).toEqual([
      { day: '2026-05-12', fixes: 10, odo: [1_000_000, 1_013_500], metres: { KS: 15_000 }, crossings: 0 },
      { day: '2026-05-13', fixes: 11, odo: [1_015_000, 1_030_000], metres: { KS: expect.any(Number), MO: expect.any(Number) }, crossings: 1 },
    ]);
    expect(total(days)).toBeCloseTo(30_000, 6);
    expect(utcDay(days.get('2026-05-13')!.crossings[0]!.time)).toBe('2026-05-13');
  });

  it('gives the same records fed in chunks (ingest rounds) as in one pass, and a recompute of one day matches', () => {
    const t = [...track(Date.UTC(2026, 4, 12, 22, 0), 200), ...track(Date.UTC(2026, 4, 13, 10, 0), 60, -94.2)];
    const once: DayRecords = new Map();
    accumulateDays(once, null, t);
    const chunked: DayRecords = new Map();
    let last: TrackFix | null = null;
    for (let i = 0; i < t.length; i += 17) {
      const part: DayRecords = new Map();
      last = accumulateDays(part, last, t.slice(i, i + 17));
      for (const [day, r] of part) {
        const into = chunked.get(day);
        if (!into) chunked.set(day, r);
        else {
          for (const [j, [m, im]] of r.metres) {
            const e = into.metres.get(j) ?? [0, 0];
            into.metres.set(j, [e[0] + m, e[1] + im]);
          }
          into.fixes += r.fixes;
          into.odometerEndM = r.odometerEndM ?? into.odometerEndM;
          into.crossings.push(...r.crossings);
        }
      }
    }
    const round = (d: DayRecords) =>
      flat(d).map((x) => ({ ...x, metres: Object.fromEntries(Object.entries(x.metres).map(([k, v]) => [k, Math.round(v / 10)])) }));
    expect(round(chunked)).toEqual(round(once));
    // A recompute of 13 May alone, from the fix before it.
    const before = t.filter((f) => f.time < Date.UTC(2026, 4, 13)).at(-1)!;
    const day13 = t.filter((f) => utcDay(f.time) === '2026-05-13');
    const re: DayRecords = new Map();
    accumulateDays(re, before, day13, { fromDay: '2026-05-13', toDay: '2026-05-13' });
    expect(round(re)).toEqual(round(once).filter((d) => d.day === '2026-05-13'));
  });

  it('allocates a gap along the straight line, flags it interpolated, and never drops it', () => {
    const a: TrackFix = { time: Date.UTC(2026, 4, 12, 10), lat: 39, lon: -95.5, speedKmh: 90, odometerM: null };
    const b: TrackFix = { time: Date.UTC(2026, 4, 12, 11), lat: 39, lon: -94, speedKmh: 90, odometerM: null };
    const days: DayRecords = new Map();
    accumulateDays(days, a, [b]);
    const r = days.get('2026-05-12')!;
    expect([...r.metres.keys()]).toEqual(['KS', 'MO']);
    expect([...r.metres.values()].every(([m, im]) => m === im && m > 0)).toBe(true);
    expect(r.flagged).toHaveLength(1);
    expect(r.flagged[0]!.flags).toEqual(['interpolated']);
    expect(r.flagged[0]!.jurisdictions).toEqual(['KS', 'MO']);
  });
});
