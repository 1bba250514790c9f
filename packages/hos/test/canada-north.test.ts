// Canada north of latitude 60° (SOR/2005-313 ss. 37-54). Dates are June 2026 in America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, RESTART_MS, type HosOptions } from '../src/index.ts';
import { brief, log, opts } from './helpers.ts';

const N1 = opts('CA_NORTH_CYCLE_1');
const N2 = opts('CA_NORTH_CYCLE_2');
const audit = (periods: Parameters<typeof auditLog>[0], o: HosOptions) => brief(auditLog(periods, o).violations);
type Parts = Parameters<typeof log> extends [string, ...infer P] ? P : never;
const repeat = (n: number, parts: Parts): Parts => Array.from({ length: n }, () => parts).flat();

describe('Canada north of 60° (SOR/2005-313 ss. 37-54)', () => {
  it('s. 39(1): 15 h of driving in a shift, more is a violation', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 15], ['OFF', 8]), N1)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 15.5], ['OFF', 8]), N1)).toEqual([['DRIVING_LIMIT', '2026-06-01T22:00', '2026-06-01T22:30']]);
    // South of 60° the same shift is over the 13 h.
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 15], ['OFF', 8]), opts('CA_SOUTH_CYCLE_1')).map((v) => v[0])).toContain('DRIVING_LIMIT');
  });

  it('s. 39(1): no driving after 18 h of on-duty time', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 4], ['D', 14], ['OFF', 8]), N1)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 5], ['D', 14], ['OFF', 8]), N1)).toEqual([['ON_DUTY_LIMIT', '2026-06-02T00:00', '2026-06-02T01:00']]);
  });

  it('s. 39(2): no driving once 20 h have elapsed since the last 8 consecutive hours off', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 7], ['D', 7], ['OFF', 8]), N1)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 7], ['D', 8], ['OFF', 8]), N1)).toEqual([
      ['SHIFT_ELAPSED_LIMIT', '2026-06-02T02:00', '2026-06-02T03:00'],
    ]);
    // 8 consecutive hours off start a new shift.
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 8], ['D', 8], ['OFF', 8]), N1)).toEqual([]);
  });

  it('ss. 38 and 40 are repealed: no day limits and no daily off-duty finding north of 60°', () => {
    // 16 h of driving in one day over two shifts, 8 h off in the day.
    const periods = log('2026-06-01T00:00', ['D', 14], ['OFF', 8], ['D', 2], ['OFF', 10]);
    expect(auditLog(periods, N1)).toEqual({ violations: [], dayFindings: [] });
    expect(auditLog(periods, opts('CA_SOUTH_CYCLE_1')).dayFindings).not.toEqual([]);
  });

  const week: Parts = repeat(7, [
    ['ON', 2],
    ['D', 10],
    ['OFF', 12],
  ]);

  it('s. 51: cycle 1 is 80 h in any 7 days', () => {
    // 72 h by the 7th day's start: its 2 h on duty and 6 h of driving reach 80.
    expect(audit(log('2026-06-01T06:00', ...week), N1)).toEqual([['CYCLE_LIMIT', '2026-06-07T14:00', '2026-06-07T18:00']]);
  });

  it('s. 52: cycle 2 is 120 h in 14 days, and no driving after 80 h without 24 consecutive hours off', () => {
    expect(audit(log('2026-06-01T06:00', ...week), N2)).toEqual([['CYCLE_OFF_DUTY_REQUIRED', '2026-06-07T14:00', '2026-06-07T18:00']]);
    // 24 h off after the 6th day: the 80 h count again from there, the 120 h are far.
    const rested = log(
      '2026-06-01T06:00',
      ...repeat(6, [
        ['ON', 2],
        ['D', 10],
        ['OFF', 12],
      ]),
      ['OFF', 12],
      ['ON', 2],
      ['D', 10],
      ['OFF', 12],
    );
    expect(audit(rested, N2)).toEqual([]);
  });

  it('s. 53: 36 h (cycle 1) and 72 h (cycle 2) off set the hours back to zero', () => {
    expect(RESTART_MS.CA_NORTH_CYCLE_1).toBe(36 * 3_600_000);
    expect(RESTART_MS.CA_NORTH_CYCLE_2).toBe(72 * 3_600_000);
    // Five 14-hour days (70 h), then the rest, then a 14-hour day on 2026-06-07: over 80 h unless reset.
    const withRest = (h: number) =>
      log(
        '2026-06-01T06:00',
        ...repeat(5, [
          ['ON', 4],
          ['D', 10],
          ['OFF', 10],
        ]),
        ['OFF', h - 10],
        ['ON', 4],
        ['D', 10],
        ['OFF', 10],
      );
    expect(audit(withRest(36), N1)).toEqual([]);
    expect(audit(withRest(35), N1)).toEqual([['CYCLE_LIMIT', '2026-06-07T17:00', '2026-06-07T21:00']]);
  });
});
