// Florida and Alaska intrastate, Mexico's NOM-087 and the federal oilfield provisions (issue 72). Each
// test names the section it checks. Dates are June 2026 in America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, HosInputError, type HosOptions } from '../src/index.ts';
import { brief, hours, log, opts, utc } from './helpers.ts';

const audit = (periods: Parameters<typeof auditLog>[0], o: HosOptions) => brief(auditLog(periods, o).violations);
type Parts = Parameters<typeof log> extends [string, ...infer P] ? P : never;
const repeat = (n: number, parts: Parts): Parts => Array.from({ length: n }, () => parts).flat();
/** Five days of 14 h on duty (2 h ON, 12 h driving) and 10 h off: 70 h by the fifth evening. */
const fiveLongDays = (): Parts =>
  repeat(5, [
    ['ON', 2],
    ['D', 12],
    ['OFF', 10],
  ]);

describe('Florida intrastate (F.S. 316.302)', () => {
  const FL = opts('FL_INTRASTATE_70_7');

  it('F.S. 316.302(2)(b): 12 h of driving after 10 consecutive hours off, with no 30-minute break', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 12], ['OFF', 10]), FL)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 12.5], ['OFF', 10]), FL)).toEqual([['DRIVING_LIMIT', '2026-06-01T19:00', '2026-06-01T19:30']]);
  });

  it('F.S. 316.302(2)(b): no driving after the 16th hour after coming on duty', () => {
    const periods = log('2026-06-01T06:00', ['ON', 4], ['D', 6], ['OFF', 3], ['D', 4], ['OFF', 10]);
    expect(audit(periods, FL)).toEqual([['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00']]);
    // The federal 14-hour window would close two hours earlier.
    expect(audit(periods, opts('US_PROPERTY_70_8'))).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T23:00']]);
    expect(clocksAt(periods, utc('2026-06-01T19:00'), FL).strict.windowMs).toBe(hours(3));
  });

  it('F.S. 316.302(2)(c): 70 h in 7 days, or 80 h in 8 days for a carrier operating every day', () => {
    const periods = log('2026-06-01T06:00', ...fiveLongDays(), ['D', 1], ['OFF', 10]);
    expect(audit(periods, FL)).toEqual([['CYCLE_LIMIT', '2026-06-06T06:00', '2026-06-06T07:00']]);
    expect(audit(periods, opts('FL_INTRASTATE_80_8'))).toEqual([]);
  });

  it('F.S. 316.302(2)(c): 34 consecutive hours off end the 7-day period', () => {
    expect(audit(log('2026-06-01T06:00', ...fiveLongDays(), ['OFF', 24], ['D', 1], ['OFF', 10]), FL)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ...fiveLongDays(), ['OFF', 14], ['D', 1], ['OFF', 10]), FL)).toEqual([
      ['CYCLE_LIMIT', '2026-06-06T20:00', '2026-06-06T21:00'],
    ]);
  });
});

describe('Alaska (49 CFR 395.1(h), adopted by 17 AAC 25.220)', () => {
  const AK = opts('AK_PROPERTY_70_7');

  it('395.1(h)(1)(i): property, 15 h of driving after 10 consecutive hours off', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 15], ['OFF', 10]), AK)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 15.5], ['OFF', 10]), AK)).toEqual([['DRIVING_LIMIT', '2026-06-01T22:00', '2026-06-01T22:30']]);
  });

  it('395.1(h)(1)(ii): no driving after 20 h on duty following 10 h off; off-duty time in between does not count', () => {
    const periods = log('2026-06-01T06:00', ['ON', 6], ['OFF', 4], ['D', 15], ['OFF', 10]);
    expect(audit(periods, AK)).toEqual([['ON_DUTY_LIMIT', '2026-06-02T06:00', '2026-06-02T07:00']]);
    expect(clocksAt(periods, utc('2026-06-02T04:00'), AK).strict.windowMs).toBe(hours(2));
  });

  it('395.1(h)(2): passenger, the same limits after 8 consecutive hours off (property needs 10)', () => {
    const periods = log('2026-06-01T06:00', ['D', 15], ['OFF', 8], ['D', 1], ['OFF', 10]);
    expect(audit(periods, opts('AK_PASSENGER_80_8'))).toEqual([]);
    expect(audit(periods, AK)).toEqual([['DRIVING_LIMIT', '2026-06-02T05:00', '2026-06-02T06:00']]);
  });

  it('395.1(h)(1)(iii)-(iv): 70 h in 7 days or 80 h in 8 days, and no restart', () => {
    const periods = log('2026-06-01T06:00', ...fiveLongDays(), ['OFF', 24], ['D', 1], ['OFF', 10]);
    expect(audit(periods, AK)).toEqual([['CYCLE_LIMIT', '2026-06-07T06:00', '2026-06-07T07:00']]);
    expect(audit(periods, opts('AK_PROPERTY_80_8'))).toEqual([]);
    // Florida's 34-hour restart clears the same log.
    expect(audit(periods, opts('FL_INTRASTATE_70_7'))).toEqual([]);
  });

  it('395.1(h): two sleeper-berth periods of at least 2 h pair into the 10 h of a property driver', () => {
    const split = log('2026-06-01T06:00', ['D', 8], ['SB', 4], ['D', 7], ['SB', 6], ['D', 8], ['OFF', 10]);
    expect(audit(split, AK)).toEqual([]);
    const offNotSb = log('2026-06-01T06:00', ['D', 8], ['OFF', 4], ['D', 7], ['SB', 6], ['D', 8], ['OFF', 10]);
    expect(audit(offNotSb, AK)).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T07:00', '2026-06-02T15:00'],
      ['ON_DUTY_LIMIT', '2026-06-02T12:00', '2026-06-02T15:00'],
    ]);
  });
});

describe('Mexico (NOM-087-SCT-2-2017, cargo)', () => {
  const MX = opts('MX_NOM_087');

  it('NOM-087 4.6 a): 14 h of driving, then a pause of at least 8 continuous hours', () => {
    const day = (last: number, rest: number): Parts => [
      ['D', 5],
      ['OFF', 0.5],
      ['D', 5],
      ['OFF', 0.5],
      ['D', last],
      ['OFF', rest],
    ];
    expect(audit(log('2026-06-01T06:00', ...day(4, 8), ...day(4, 8)), MX)).toEqual([]);
    expect(audit(log('2026-06-01T06:00', ...day(4.5, 8)), MX)).toEqual([['DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T21:30']]);
    // 7 h off is no rest: the next day's driving still counts against the first 14 h.
    expect(audit(log('2026-06-01T06:00', ...day(4, 7), ['D', 1], ['OFF', 8]), MX)).toEqual([['DRIVING_LIMIT', '2026-06-02T04:00', '2026-06-02T05:00']]);
  });

  it('NOM-087 (pausas): 30 min after up to 5 h of driving, and on-duty work is no pause', () => {
    expect(audit(log('2026-06-01T06:00', ['D', 5.5], ['OFF', 8]), MX)).toEqual([['BREAK_REQUIRED', '2026-06-01T11:00', '2026-06-01T11:30']]);
    expect(audit(log('2026-06-01T06:00', ['D', 5], ['ON', 0.5], ['D', 1], ['OFF', 8]), MX)).toEqual([
      ['BREAK_REQUIRED', '2026-06-01T11:30', '2026-06-01T12:30'],
    ]);
    expect(audit(log('2026-06-01T06:00', ['D', 5], ['SB', 0.5], ['D', 1], ['OFF', 8]), MX)).toEqual([]);
    // The US 150 air-mile exemption does not lift Mexico's pause.
    const shortHaul = opts('MX_NOM_087', { exemptions: { shortHaul150: true } });
    expect(audit(log('2026-06-01T06:00', ['D', 5.5], ['OFF', 8]), shortHaul)).toHaveLength(1);
  });

  it('NOM-087: the clocks count the pause and the 14 h, and no weekly cycle binds', () => {
    const periods = log('2026-06-01T06:00', ['D', 3], ['ON', 1], ['D', 1]);
    const c = clocksAt(periods, utc('2026-06-01T11:00'), MX);
    expect(c.strict.breakMs).toBe(hours(1));
    expect(c.strict.driveMs).toBe(hours(10));
    // No shift limit: the window clock is the driving time left, never Infinity.
    expect(c.strict.windowMs).toBe(hours(10));
    expect(c.strict.cycleMs).toBe(hours(168 - 5));
    const rested = clocksAt(log('2026-06-01T06:00', ['D', 3], ['OFF', 0.5], ['D', 1]), utc('2026-06-01T10:30'), MX);
    expect(rested.strict.breakMs).toBe(hours(4));
    const week = log(
      '2026-06-01T06:00',
      ...repeat(7, [
        ['ON', 2],
        ['D', 14],
        ['OFF', 8],
      ] as Parts),
    );
    expect(audit(week, MX).filter(([rule]) => rule === 'CYCLE_LIMIT')).toEqual([]);
  });
});

describe('Oilfield operations (49 CFR 395.1(d))', () => {
  const OIL = opts('US_PROPERTY_70_8', { exemptions: { oilfield: true } });
  /** Five federal days of 14 h on duty (11 h driving with a break, 14-hour window) and 10 h off. */
  const usDays = (): Parts =>
    repeat(5, [
      ['ON', 2.5],
      ['D', 5.5],
      ['ON', 0.5],
      ['D', 5.5],
      ['OFF', 10],
    ]);

  it('395.1(d)(1): 24 consecutive hours off end the 8-day period', () => {
    const periods = log('2026-06-01T06:00', ...usDays(), ['OFF', 14], ['D', 1], ['OFF', 10]);
    expect(audit(periods, opts('US_PROPERTY_70_8'))).toEqual([['CYCLE_LIMIT', '2026-06-06T20:00', '2026-06-06T21:00']]);
    expect(audit(periods, OIL)).toEqual([]);
    expect(clocksAt(periods, utc('2026-06-06T20:00'), OIL).cycleUsedMs).toBe(0);
  });

  it('395.1(d)(1): the text names the 8-day period only, so 60 h / 7 days keeps its 34-hour restart', () => {
    const day: Parts = [
      ['ON', 1.5],
      ['D', 5],
      ['ON', 0.5],
      ['D', 5],
      ['OFF', 12],
    ];
    const periods = log('2026-06-01T06:00', ...repeat(5, day), ['OFF', 12], ['D', 1], ['OFF', 10]);
    const sixty = opts('US_PROPERTY_60_7', { exemptions: { oilfield: true } });
    expect(audit(periods, sixty)).toEqual([['CYCLE_LIMIT', '2026-06-06T18:00', '2026-06-06T19:00']]);
  });

  it('395.1(d)(2): waiting time at a well site is off duty and not counted in the 14-hour window', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF:WAITING', 6], ['D', 5], ['OFF', 10]);
    expect(audit(periods, OIL)).toEqual([]);
    // Without the exemption it is plain off-duty time, inside the window.
    expect(audit(periods, opts('US_PROPERTY_70_8'))).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T23:00']]);
    expect(clocksAt(periods, utc('2026-06-01T18:00'), OIL).strict.windowMs).toBe(hours(8));
    expect(clocksAt(periods, utc('2026-06-01T18:00'), opts('US_PROPERTY_70_8')).strict.windowMs).toBe(hours(2));
    // Plain off-duty time in the same place still counts.
    const off = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 6], ['D', 5], ['OFF', 10]);
    expect(audit(off, OIL)).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T23:00']]);
  });

  it('395.1(d)(2): waiting time is off duty, so it never counts toward the 11 h or the cycle', () => {
    const periods = log('2026-06-01T06:00', ['D', 5], ['OFF:WAITING', 2], ['D', 6], ['OFF', 10]);
    const c = clocksAt(periods, utc('2026-06-01T13:00'), OIL);
    expect(c.strict.driveMs).toBe(hours(6));
    expect(c.cycleUsedMs).toBe(hours(5));
    expect(audit(periods, OIL)).toEqual([]);
  });

  it('395.1(d)(2): waiting time is logged OFF; with another status it is refused', () => {
    expect(() => auditLog(log('2026-06-01T06:00', ['ON:WAITING', 1]), OIL)).toThrow(HosInputError);
  });

  it('395.1(d): the exemption is one of the US property rulesets; others ignore it', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF:WAITING', 6], ['D', 5], ['OFF', 10]);
    const fl = opts('FL_INTRASTATE_70_7', { exemptions: { oilfield: true } });
    expect(audit(periods, fl)).toEqual(audit(periods, opts('FL_INTRASTATE_70_7')));
  });
});
