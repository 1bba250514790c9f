// Log days, daylight-saving days (E3, E4, rules document 2.5) and input validation.
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, dailyTotals, HosInputError, type DutyPeriod } from '../src/index.ts';
import { hours, log, opts } from './helpers.ts';

const P70 = opts('US_PROPERTY_70_8');

describe('dailyTotals', () => {
  it('sums each logged status per home-terminal day; PC and PASSENGER are OFF, YM is ON', () => {
    const periods = log('2026-06-01T18:00', ['ON:YM', 1], ['D', 4], ['OFF:PC', 1], ['SB', 8], ['OFF:PASSENGER', 2], ['ON', 1]);
    expect(dailyTotals(periods, P70)).toEqual([
      { date: '2026-06-01', lengthMs: hours(24), OFF: hours(1), SB: 0, D: hours(4), ON: hours(1) },
      { date: '2026-06-02', lengthMs: hours(24), OFF: hours(2), SB: hours(8), D: 0, ON: hours(1) },
    ]);
  });

  it('days start at cycleDayStart', () => {
    const periods = log('2026-06-01T18:00', ['D', 4], ['OFF', 10]);
    const rows = dailyTotals(periods, opts('US_PROPERTY_70_8', { cycleDayStart: '20:00' }));
    expect(rows.map((r) => [r.date, r.D, r.OFF])).toEqual([
      ['2026-05-31', hours(2), 0],
      ['2026-06-01', hours(2), hours(10)],
    ]);
  });

  it('daylight-saving days have 23 and 25 hours (America/Chicago, 2026-03-08 and 2026-11-01)', () => {
    const spring: DutyPeriod[] = [{ status: 'OFF', start: '2026-03-08T00:00:00-06:00', end: '2026-03-09T00:00:00-05:00' }];
    expect(dailyTotals(spring, P70)).toEqual([{ date: '2026-03-08', lengthMs: hours(23), OFF: hours(23), SB: 0, D: 0, ON: 0 }]);
    const fall: DutyPeriod[] = [{ status: 'SB', start: '2026-11-01T00:00:00-05:00', end: '2026-11-02T00:00:00-06:00' }];
    expect(dailyTotals(fall, P70)).toEqual([{ date: '2026-11-01', lengthMs: hours(25), OFF: 0, SB: hours(25), D: 0, ON: 0 }]);
  });

  it('other zones: Europe/Berlin spring day, Asia/Kolkata has none', () => {
    const berlin: DutyPeriod[] = [{ status: 'OFF', start: '2026-03-29T00:00:00+01:00', end: '2026-03-30T00:00:00+02:00' }];
    expect(dailyTotals(berlin, opts('US_PROPERTY_70_8', { timeZone: 'Europe/Berlin' }))[0]!.lengthMs).toBe(hours(23));
    const kolkata: DutyPeriod[] = [{ status: 'OFF', start: '2026-03-29T00:00:00+05:30', end: '2026-03-30T00:00:00+05:30' }];
    expect(dailyTotals(kolkata, opts('US_PROPERTY_70_8', { timeZone: 'Asia/Kolkata' }))[0]!.lengthMs).toBe(hours(24));
  });

  it('is empty for an empty log', () => {
    expect(dailyTotals([], P70)).toEqual([]);
  });
});

describe('daylight saving (E3: durations are elapsed time)', () => {
  // On duty Saturday 2026-03-07 20:00 CST; clocks go forward at 02:00. The 14th hour is at
  // 2026-03-08 11:00 CDT (wall clock 15 h later), 16:00Z.
  const periods: DutyPeriod[] = [
    { status: 'ON', start: '2026-03-07T20:00:00-06:00', end: '2026-03-07T21:00:00-06:00' },
    { status: 'D', start: '2026-03-07T21:00:00-06:00', end: '2026-03-08T03:00:00-05:00' },
    { status: 'OFF', start: '2026-03-08T03:00:00-05:00', end: '2026-03-08T06:00:00-05:00' },
    { status: 'D', start: '2026-03-08T06:00:00-05:00', end: '2026-03-08T12:00:00-05:00' },
    { status: 'OFF', start: '2026-03-08T12:00:00-05:00', end: '2026-03-08T22:00:00-05:00' },
  ];

  it('the 14-hour window ends 14 elapsed hours after coming on duty', () => {
    expect(
      auditLog(periods, P70)
        .violations.filter((v) => v.rule === 'WINDOW_LIMIT')
        .map((v) => [v.start, v.end]),
    ).toEqual([['2026-03-08T16:00:00.000Z', '2026-03-08T17:00:00.000Z']]);
  });

  it('the cycle counts the 23-hour day', () => {
    const c = clocksAt(periods, '2026-03-08T23:00:00-05:00', P70);
    expect(c.cycleUsedMs).toBe(hours(1 + 5 + 6));
  });

  it('log days split at local midnight of each day', () => {
    expect(dailyTotals(periods, P70).map((r) => [r.date, r.lengthMs, r.D])).toEqual([
      ['2026-03-07', hours(24), hours(3)],
      ['2026-03-08', hours(23), hours(2 + 6)],
    ]);
  });
});

describe('input validation (HosInputError names the period)', () => {
  const good = log('2026-06-01T06:00', ['ON', 1], ['D', 2], ['OFF', 1]);
  const fail = (periods: unknown, o: unknown = P70): HosInputError => {
    try {
      auditLog(periods as DutyPeriod[], o as typeof P70);
    } catch (e) {
      expect(e).toBeInstanceOf(HosInputError);
      return e as HosInputError;
    }
    throw new Error('no error thrown');
  };

  it('unsorted periods', () => {
    const e = fail([good[1], good[0], good[2]]);
    expect(e.periodIndex).toBe(1);
    expect(e.message).toMatch(/periods\[1\]/);
  });

  it('overlap', () => {
    expect(fail([good[0], { ...good[1]!, start: '2026-06-01T11:30:00Z' }]).periodIndex).toBe(1);
  });

  it('gap', () => {
    const e = fail([good[0], { ...good[1]!, start: '2026-06-01T12:30:00Z' }, good[2]]);
    expect(e.periodIndex).toBe(1);
    expect(e.message).toMatch(/gap/);
  });

  it('end before start', () => {
    const e = fail([{ status: 'D', start: '2026-06-01T12:00:00Z', end: '2026-06-01T11:00:00Z' }]);
    expect([e.periodIndex, e.field]).toEqual([0, 'end']);
  });

  it('instants without an offset, or not instants at all', () => {
    expect(fail([good[0], { ...good[1]!, end: '2026-06-01T14:00:00' }]).periodIndex).toBe(1);
    expect(fail([{ status: 'D', start: 'yesterday', end: '2026-06-01T11:00:00Z' }]).field).toBe('start');
    expect(fail([{ status: 'D', start: '2026-02-30T00:00:00Z', end: '2026-03-01T11:00:00Z' }]).field).toBe('start');
  });

  it('unknown status, special not matching its status', () => {
    expect(fail([good[0], { ...good[1]!, status: 'X' }]).field).toBe('status');
    expect(fail([{ ...good[0]!, special: 'PC' }]).field).toBe('special'); // PC must be OFF
  });

  it('unknown ruleset, zone or day start', () => {
    expect(fail(good, { ...P70, ruleset: 'US_PROPERTY_80_8' }).field).toBe('ruleset');
    expect(fail(good, { ...P70, timeZone: 'Mars/Olympus' }).field).toBe('timeZone');
    expect(fail(good, { ...P70, cycleDayStart: '25:00' }).field).toBe('cycleDayStart');
    expect(fail(good, { ...P70, exemptions: { adverseDriving: [{ start: 'x', end: 'y' }] } }).field).toBe('exemptions.adverseDriving[0].start');
  });

  it('clocksAt and dailyTotals validate the same way', () => {
    expect(() => clocksAt([good[1]!, good[0]!], '2026-06-01T12:00:00Z', P70)).toThrow(HosInputError);
    expect(() => clocksAt(good, 'noon', P70)).toThrow(HosInputError);
    expect(() => dailyTotals([good[1]!, good[0]!], P70)).toThrow(HosInputError);
  });

  it('accepts fractional seconds, lower-case z and compact offsets', () => {
    const periods: DutyPeriod[] = [
      { status: 'D', start: '2026-06-01T11:00:00.000z', end: '2026-06-01T07:30:00.5-0500' },
      { status: 'OFF', start: '2026-06-01T07:30:00.5-0500', end: '2026-06-01T23:00:00+00' },
    ];
    expect(auditLog(periods, P70).violations).toEqual([]);
  });
});

describe('clocksAt edges', () => {
  it('before the log, and with an empty log, every clock is full', () => {
    const full = { driveMs: hours(11), windowMs: hours(14), breakMs: hours(8), cycleMs: hours(70) };
    expect(clocksAt([], '2026-06-01T12:00:00Z', P70)).toEqual({ strict: full, provisional: full, cycleUsedMs: 0 });
    expect(clocksAt(log('2026-06-01T06:00', ['D', 2]), '2026-06-01T05:00:00-05:00', P70).strict).toEqual(full);
  });

  it('a period running through `at` counts up to `at`; time after the log counts as off duty', () => {
    const periods = log('2026-06-01T06:00', ['D', 5]);
    expect(clocksAt(periods, '2026-06-01T08:00:00-05:00', P70).strict.driveMs).toBe(hours(9));
    const later = clocksAt(periods, '2026-06-01T12:00:00-05:00', P70).strict;
    expect(later).toEqual({ driveMs: hours(6), windowMs: hours(8), breakMs: hours(8), cycleMs: hours(65) });
  });
});
