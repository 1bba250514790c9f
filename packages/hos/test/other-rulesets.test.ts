// US passenger (B1-B5), Canada south of 60 (C1-C7), Texas and California intrastate rows of the rules
// document (sections 1.3-1.5). Dates are June 2026 in America/Chicago unless stated.
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, type HosOptions } from '../src/index.ts';
import { brief, hours, log, opts, utc } from './helpers.ts';

const audit = (periods: Parameters<typeof auditLog>[0], o: HosOptions) => brief(auditLog(periods, o).violations);
type Parts = Parameters<typeof log> extends [string, ...infer P] ? P : never;
const repeat = (n: number, parts: Parts): Parts => Array.from({ length: n }, () => parts).flat();

describe('US passenger-carrying (§395.5)', () => {
  const BUS = opts('US_PASSENGER_70_8');

  it('B1: 10 h of driving after 8 h off is compliant, more is not', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 10], ['OFF', 8]), BUS)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 10.5], ['OFF', 8]), BUS)).toEqual([['DRIVING_LIMIT', '2026-06-01T17:00', '2026-06-01T17:30']]);
  });

  it('B1: 8 h off restarts the driving limit', () => {
    expect(audit(log('2026-06-01T06:00', ['D', 10], ['OFF', 8], ['D', 10], ['OFF', 8]), BUS)).toEqual([]);
  });

  it('B2: 15 h of on-duty time, not elapsed: off-duty time inside the shift is not counted', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 5], ['OFF', 4], ['ON', 5], ['D', 5], ['OFF', 8]), BUS)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 5], ['OFF', 4], ['ON', 5], ['D', 6], ['OFF', 8]), BUS)).toEqual([
      ['ON_DUTY_LIMIT', '2026-06-02T01:00', '2026-06-02T02:00'],
    ]);
  });

  it('B3: no 34-hour restart for passenger carriers', () => {
    const periods = log(
      '2026-06-01T06:00',
      ...repeat(4, [
        ['ON', 4],
        ['D', 8],
        ['OFF', 12],
      ]),
      ['ON', 4],
      ['D', 8],
      ['OFF', 34],
      ['D', 1],
      ['OFF', 8],
    );
    expect(audit(periods, opts('US_PASSENGER_60_7'))).toEqual([['CYCLE_LIMIT', '2026-06-07T04:00', '2026-06-07T05:00']]);
    expect(audit(periods, opts('US_PROPERTY_60_7'))).toEqual([]);
  });

  it('B4: two sleeper-berth periods of ≥ 2 h totalling 8 h pair', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 4], ['D', 4], ['SB', 4], ['D', 3], ['OFF', 8]), BUS)).toEqual([]);
  });

  it('B4: an OFF period is not a sleeper-berth period', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 4], ['D', 4], ['OFF', 4], ['D', 3], ['OFF', 8]), BUS)).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T01:00', '2026-06-02T03:00'],
    ]);
  });

  it('B5: no 30-minute break rule; adverse conditions allow 2 more hours of driving', () => {
    const periods = log('2026-06-01T06:00', ['D', 11], ['OFF', 8]);
    expect(audit(periods, BUS)).toEqual([['DRIVING_LIMIT', '2026-06-01T16:00', '2026-06-01T17:00']]);
    const adverse = opts('US_PASSENGER_70_8', { exemptions: { adverseDriving: [{ start: utc('2026-06-01T10:00'), end: utc('2026-06-01T11:00') }] } });
    expect(audit(periods, adverse)).toEqual([]);
    const c = clocksAt(periods, utc('2026-06-01T10:00'), BUS);
    expect(c.strict.breakMs).toBeNull();
    expect(c.strict.driveMs).toBe(hours(6));
    expect(c.strict.windowMs).toBe(hours(11)); // 15 h on duty - 4 h
  });
});

describe('Canada south of 60 (SOR/2005-313)', () => {
  const C1 = opts('CA_SOUTH_CYCLE_1');
  const C2 = opts('CA_SOUTH_CYCLE_2');

  it('C2: 13 h driving, 14 h on duty in a shift; C1: the same limits in the day, and 10 h off per day', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 1], ['D', 6], ['OFF', 10]), C1)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 1], ['D', 7], ['OFF', 10]), C1)).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['ON_DUTY_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['DAILY_DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['DAILY_ON_DUTY_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['DAILY_OFF_DUTY', '2026-06-01T21:00', '2026-06-01T22:00'],
    ]);
  });

  it('C2: no driving after the 16th hour since the shift began', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['OFF', 7], ['D', 5], ['OFF', 10]), C1)).toEqual([
      ['SHIFT_ELAPSED_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
    ]);
  });

  it('C1: the day limits span two shifts in one day', () => {
    expect(audit(log('2026-06-01T00:00', ['D', 7], ['OFF', 8], ['D', 7], ['OFF', 10]), C1)).toEqual([
      ['DAILY_DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
    ]);
  });

  it('C1: a day with less than 10 h off: driving once 10 h off can no longer fit in the day', () => {
    expect(audit(log('2026-06-01T00:00', ['D', 6], ['OFF', 8], ['ON', 2], ['D', 7], ['OFF', 9]), C1)).toEqual([
      ['DAILY_ON_DUTY_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['DAILY_OFF_DUTY', '2026-06-01T22:00', '2026-06-01T23:00'],
    ]);
  });

  it('C3 cycle 1: 70 h in 7 days', () => {
    const periods = log(
      '2026-06-01T06:00',
      ...repeat(6, [
        ['D', 12],
        ['OFF', 12],
      ]),
    );
    expect(audit(periods, C1)).toEqual([['CYCLE_LIMIT', '2026-06-06T16:00', '2026-06-06T18:00']]);
  });

  it('C3 cycle 2: after 70 h on duty no driving until 24 h off', () => {
    const periods = log(
      '2026-06-01T06:00',
      ...repeat(6, [
        ['D', 12],
        ['OFF', 12],
      ]),
    );
    expect(audit(periods, C2)).toEqual([['CYCLE_OFF_DUTY_REQUIRED', '2026-06-06T16:00', '2026-06-06T18:00']]);
    const rested = log(
      '2026-06-01T06:00',
      ...repeat(3, [
        ['D', 12],
        ['OFF', 12],
      ]),
      ['OFF', 12],
      ...repeat(3, [
        ['D', 12],
        ['OFF', 12],
      ]),
    );
    expect(audit(rested, C2)).toEqual([]);
  });

  it('C4: 36 h off resets cycle 1, 35 h does not', () => {
    const week = (off: number) =>
      log(
        '2026-06-01T06:00',
        ...repeat(5, [
          ['D', 13],
          ['OFF', 11],
        ]),
        ['D', 5],
        ['OFF', off],
        ['D', 1],
        ['OFF', 10],
      );
    expect(audit(week(36), C1)).toEqual([]);
    expect(audit(week(35), C1)).toEqual([['CYCLE_LIMIT', '2026-06-07T22:00', '2026-06-07T23:00']]);
    expect(clocksAt(week(36), utc('2026-06-07T23:00'), C1).cycleUsedMs).toBe(0);
  });

  it('C5: 24 consecutive hours off in every 14 days', () => {
    const days = (n: number) =>
      log(
        '2026-06-01T06:00',
        ...repeat(n, [
          ['D', 8],
          ['OFF', 16],
        ]),
      );
    expect(audit(days(13), C1)).toEqual([]);
    expect(audit(days(14), C1)).toEqual([['CYCLE_OFF_DUTY_REQUIRED', '2026-06-14T06:00', '2026-06-14T14:00']]);
    expect(clocksAt(days(13), utc('2026-06-14T00:00'), C1).strict.cycleMs).toBe(0);
  });

  it('C7: two berth periods of ≥ 2 h totalling 10 h are excluded from the 16 h', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 7], ['D', 5], ['SB', 3], ['D', 3], ['OFF', 10]), C1)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 7], ['D', 5], ['OFF', 3], ['D', 3], ['OFF', 10]), C1)).toEqual([
      ['SHIFT_ELAPSED_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['SHIFT_ELAPSED_LIMIT', '2026-06-02T02:00', '2026-06-02T05:00'],
    ]);
  });

  it('clocksAt: shift, day and cycle limits together', () => {
    const c = clocksAt(log('2026-06-01T00:00', ['D', 6], ['OFF', 8], ['ON', 2], ['D', 2]), utc('2026-06-01T18:00'), C1).strict;
    // Shift since 14:00: 2 h driving, 4 h on duty, 4 h elapsed. Day: 8 h driving, 10 h on duty, 8 h off (2 h still owed).
    expect(c).toEqual({ driveMs: hours(5), windowMs: hours(4), breakMs: null, cycleMs: hours(60) });
  });

  it('C6: without a declared deferral each day must hold its own 10 h off (declared: declared-exceptions.test.ts)', () => {
    // 9 h off on day 1 would be legal with 1 h deferred to day 2 (s. 16); without a declaration it is a violation.
    expect(audit(log('2026-06-01T00:00', ['D', 6], ['OFF', 8], ['ON', 2], ['D', 7], ['OFF', 13]), C1)).toContainEqual([
      'DAILY_OFF_DUTY',
      '2026-06-01T22:00',
      '2026-06-01T23:00',
    ]);
  });
});

describe('Texas intrastate (37 TAC §4.12)', () => {
  const TX = opts('TX_INTRASTATE');

  it('12 h of driving after 8 h off', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 12], ['OFF', 8], ['D', 1], ['OFF', 8]), TX)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 12.5], ['OFF', 8]), TX)).toEqual([['DRIVING_LIMIT', '2026-06-01T19:00', '2026-06-01T19:30']]);
  });

  it('15 h on duty (cumulative) after 8 h off', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 5], ['OFF', 4], ['ON', 5], ['D', 5], ['OFF', 8]), TX)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 5], ['OFF', 4], ['ON', 5], ['D', 6], ['OFF', 8]), TX)).toEqual([
      ['ON_DUTY_LIMIT', '2026-06-02T01:00', '2026-06-02T02:00'],
    ]);
  });

  it('70 h in 7 days, reset by 34 h off', () => {
    const week = (off: number) =>
      log(
        '2026-06-01T06:00',
        ...repeat(4, [
          ['ON', 2],
          ['D', 12],
          ['OFF', 10],
        ]),
        ['ON', 2],
        ['D', 12],
        ['OFF', off],
        ['D', 1],
        ['OFF', 8],
      );
    expect(audit(week(34), TX)).toEqual([]);
    expect(audit(week(33), TX)).toEqual([['CYCLE_LIMIT', '2026-06-07T05:00', '2026-06-07T06:00']]);
  });

  it('sleeper berth split into two periods of ≥ 2 h', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['SB', 4], ['D', 5], ['SB', 4], ['D', 4], ['OFF', 8]), TX)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['SB', 4], ['D', 5], ['OFF', 4], ['D', 4], ['OFF', 8]), TX)).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T03:00', '2026-06-02T06:00'],
      ['ON_DUTY_LIMIT', '2026-06-02T05:00', '2026-06-02T06:00'],
    ]);
  });
});

describe('California intrastate truck (13 CCR §1212.5)', () => {
  const CA = opts('CA_INTRASTATE');

  it('12 h of driving after 10 h off', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['OFF', 2], ['D', 6], ['OFF', 10]), CA)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['OFF', 2], ['D', 6.5], ['OFF', 10]), CA)).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T21:30'],
    ]);
  });

  it('no driving after the 16th hour', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 4], ['D', 6], ['OFF', 5], ['D', 6], ['OFF', 10]), CA)).toEqual([
      ['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-02T03:00'],
    ]);
  });

  it('80 h in 8 days, reset by 34 h off', () => {
    const week = (off: number) =>
      log(
        '2026-06-01T06:00',
        ...repeat(6, [
          ['ON', 2],
          ['D', 12],
          ['OFF', 10],
        ]),
        ['ON', 2],
        ['D', 12 - 4],
        ['OFF', off],
        ['D', 1],
        ['OFF', 10],
      );
    // 6 × 14 h + 10 h = 94 h: the limit is reached on day 6 after 10 h (80 h).
    expect(audit(week(34), CA)).toEqual([
      ['CYCLE_LIMIT', '2026-06-06T16:00', '2026-06-06T20:00'],
      ['CYCLE_LIMIT', '2026-06-07T08:00', '2026-06-07T16:00'],
    ]);
    // 33 h off is no restart: the 06-09 driving still counts days 06-02..06-09 (> 80 h).
    expect(audit(week(33), CA).at(-1)).toEqual(['CYCLE_LIMIT', '2026-06-09T01:00', '2026-06-09T02:00']);
  });
});
