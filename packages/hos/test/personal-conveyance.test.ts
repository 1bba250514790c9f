// Canada's personal-use limit (SOR/2005-313 s. 2(1)(e)(iii): personal use is outside the Regulations
// only while "the distance travelled does not exceed 75 km in a day"). June 2026, America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, CANADA_PERSONAL_USE_KM_PER_DAY, HosInputError, limitPersonalConveyance } from '../src/index.ts';
import { brief, log, opts, utc } from './helpers.ts';

const C1 = opts('CA_SOUTH_CYCLE_1');

describe('personal conveyance in Canada: 75 km a day (s. 2(1)(e)(iii))', () => {
  it('is 75 km', () => {
    expect(CANADA_PERSONAL_USE_KM_PER_DAY).toBe(75);
  });

  it('within 75 km the log is unchanged and the day’s distance is reported', () => {
    const periods = log('2026-06-01T06:00', ['D', 13], ['OFF', 1], ['OFF:PC', 1], ['OFF', 9]);
    const r = limitPersonalConveyance(periods, [{ start: periods[2]!.start, end: periods[2]!.end, km: 60 }], C1);
    expect(r.periods).toEqual(periods);
    expect(r.days).toEqual([{ day: '2026-06-01', km: 60, overKm: 0 }]);
  });

  it('beyond 75 km in a day the rest of the PC is driving, cut where the 75th km was driven', () => {
    // 13 h of driving (the day's and the shift's limit), then 2 h of PC over 150 km: 1 h (75 km) is personal use.
    const periods = log('2026-06-01T06:00', ['D', 13], ['OFF:PC', 2], ['OFF', 9]);
    const r = limitPersonalConveyance(periods, [{ start: periods[1]!.start, end: periods[1]!.end, km: 150 }], C1);
    expect(r.days).toEqual([{ day: '2026-06-01', km: 150, overKm: 75 }]);
    expect(r.periods.map((p) => [p.status, p.special ?? null, new Date(p.start).toISOString(), new Date(p.end).toISOString()])).toEqual([
      ['D', null, utc('2026-06-01T06:00'), utc('2026-06-01T19:00')],
      ['OFF', 'PC', utc('2026-06-01T19:00'), utc('2026-06-01T20:00')],
      ['D', null, utc('2026-06-01T20:00'), utc('2026-06-01T21:00')],
      ['OFF', null, utc('2026-06-01T21:00'), utc('2026-06-02T06:00')],
    ]);
    // The audit sees that hour as driving past the 13 h.
    expect(brief(auditLog(periods, C1).violations)).toEqual([]);
    expect(brief(auditLog(r.periods, C1).violations)).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T20:00', '2026-06-01T21:00'],
      ['DAILY_DRIVING_LIMIT', '2026-06-01T20:00', '2026-06-01T21:00'],
    ]);
  });

  it('adds up the day’s PC periods; a new log day has its own 75 km', () => {
    // 50 km at 20:00, 50 km at 22:00 (25 over), then 50 km after midnight: a new day.
    const periods = log('2026-06-01T19:00', ['OFF', 1], ['OFF:PC', 1], ['OFF', 1], ['OFF:PC', 1], ['OFF', 1], ['OFF:PC', 1], ['OFF', 10]);
    const r = limitPersonalConveyance(
      periods,
      [1, 3, 5].map((i) => ({ start: periods[i]!.start, end: periods[i]!.end, km: 50 })),
      C1,
    );
    expect(r.days).toEqual([
      { day: '2026-06-01', km: 100, overKm: 25 },
      { day: '2026-06-02', km: 50, overKm: 0 },
    ]);
    expect(r.periods.filter((p) => p.status === 'D').map((p) => [new Date(p.start).toISOString(), new Date(p.end).toISOString()])).toEqual([
      [utc('2026-06-01T22:30'), utc('2026-06-01T23:00')],
    ]);
  });

  it('changes nothing on US rules (no distance limit there) and refuses a distance of no PC period', () => {
    const periods = log('2026-06-01T06:00', ['D', 13], ['OFF:PC', 2], ['OFF', 9]);
    const us = limitPersonalConveyance(periods, [{ start: periods[1]!.start, end: periods[1]!.end, km: 150 }], opts('US_PROPERTY_70_8'));
    expect(us.periods).toEqual(periods);
    expect(us.days).toEqual([{ day: '2026-06-01', km: 150, overKm: 0 }]);
    expect(() => limitPersonalConveyance(periods, [{ start: periods[0]!.start, end: periods[0]!.end, km: 10 }], C1)).toThrow(HosInputError);
    expect(() => limitPersonalConveyance(periods, [{ start: periods[1]!.start, end: periods[1]!.end, km: -1 }], C1)).toThrow(HosInputError);
  });
});
