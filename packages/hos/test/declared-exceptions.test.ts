// The three rules that need a declaration in HosOptions (decision 0090): P15 non-CDL short-haul
// (§395.1(e)(2)), C6 Canadian day-1/day-2 off-duty deferral (SOR/2005-313 s. 16) and C7 Canadian
// team sleeper-berth splits (s. 19). Dates are June 2026 in America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, HosInputError, type HosOptions } from '../src/index.ts';
import { brief, hours, log, opts, utc } from './helpers.ts';

const audit = (periods: Parameters<typeof auditLog>[0], o: HosOptions) => brief(auditLog(periods, o).violations);
type Parts = Parameters<typeof log> extends [string, ...infer P] ? P : never;

function inputError(run: () => unknown): HosInputError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(HosInputError);
    return e as HosInputError;
  }
  throw new Error('no error thrown');
}

describe('P15: non-CDL short-haul exception (§395.1(e)(2))', () => {
  const P70 = opts('US_PROPERTY_70_8');
  const NON_CDL = opts('US_PROPERTY_70_8', { exemptions: { nonCdlShortHaul: true } });
  // 17 h from coming on duty to the end of driving, 11 h of driving, 15 h on duty.
  const shift: Parts = [
    ['ON', 2],
    ['D', 4],
    ['OFF', 1],
    ['D', 3],
    ['OFF', 1],
    ['D', 1],
    ['ON', 2],
    ['D', 3],
  ];

  it('drives up to the 16th hour instead of the 14th', () => {
    const periods = log('2026-06-01T06:00', ...shift, ['OFF', 10]);
    expect(audit(periods, P70)).toContainEqual(['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T23:00']);
    expect(audit(periods, NON_CDL)).toEqual([['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00']]);
  });

  it('only on 2 days of any 7 consecutive days; every day that drove past the 14th hour counts', () => {
    // Shifts come on duty on 06-01 06:00, 06-02 09:00, 06-03 12:00, 06-04 15:00, then after `gap` h off.
    const week = (gap: number) =>
      log('2026-06-01T06:00', ...shift, ['OFF', 10], ...shift, ['OFF', 10], ...shift, ['OFF', 10], ...shift, ['OFF', gap], ...shift, ['OFF', 10]);
    const first4: Array<[string, string, string]> = [
      ['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['WINDOW_LIMIT', '2026-06-03T01:00', '2026-06-03T02:00'],
      ['WINDOW_LIMIT', '2026-06-04T02:00', '2026-06-04T05:00'], // third day in 7: the 14th hour applies
      ['WINDOW_LIMIT', '2026-06-05T05:00', '2026-06-05T08:00'], // fourth
    ];
    // Fifth shift on 06-10: of 06-04..06-10 only 06-04 drove past the 14th hour, so the 16th applies.
    expect(audit(week(118), NON_CDL)).toEqual([...first4, ['WINDOW_LIMIT', '2026-06-10T22:00', '2026-06-10T23:00']]);
    // On 06-09, 06-03 and 06-04 are in the 7 days (06-03 although it was itself a violation).
    expect(audit(week(94), NON_CDL)).toEqual([...first4, ['WINDOW_LIMIT', '2026-06-09T20:00', '2026-06-09T23:00']]);
  });

  it('a day that drove past the 14th hour under adverse conditions also counts', () => {
    const periods = log('2026-06-01T06:00', ...shift, ['OFF', 10], ...shift, ['OFF', 10], ...shift, ['OFF', 10]);
    const adverse = { adverseDriving: [{ start: utc('2026-06-01T06:00'), end: utc('2026-06-01T23:00') }] };
    expect(audit(periods, opts('US_PROPERTY_70_8', { exemptions: { nonCdlShortHaul: true, ...adverse } }))).toEqual([
      ['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['WINDOW_LIMIT', '2026-06-03T01:00', '2026-06-03T02:00'],
      ['WINDOW_LIMIT', '2026-06-04T02:00', '2026-06-04T05:00'],
    ]);
  });

  it('clocksAt: 16 h of window while fewer than 2 of the last 7 days used it, 14 h after', () => {
    const periods = log('2026-06-01T06:00', ...shift, ['OFF', 10], ...shift, ['OFF', 10], ...shift, ['OFF', 10]);
    expect(clocksAt(periods, utc('2026-06-02T19:00'), NON_CDL).strict.windowMs).toBe(hours(6));
    expect(clocksAt(periods, utc('2026-06-02T19:00'), P70).strict.windowMs).toBe(hours(4));
    expect(clocksAt(periods, utc('2026-06-03T22:00'), NON_CDL).strict.windowMs).toBe(hours(4));
  });

  it('has no 30-minute break rule but keeps the 11 hours of driving', () => {
    const noBreak = log('2026-06-01T06:00', ['D', 4], ['ON', 0.25], ['D', 4.5], ['OFF', 10]);
    expect(audit(noBreak, P70)).toEqual([['BREAK_REQUIRED', '2026-06-01T14:15', '2026-06-01T14:45']]);
    expect(audit(noBreak, NON_CDL)).toEqual([]);
    expect(clocksAt(noBreak, utc('2026-06-01T10:00'), NON_CDL).strict.breakMs).toBeNull();
    expect(audit(log('2026-06-01T06:00', ['D', 6], ['ON', 1], ['D', 6], ['OFF', 10]), NON_CDL)).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T18:00', '2026-06-01T19:00'],
    ]);
  });

  it('is not eligible for the sleeper-berth split (§395.1(g))', () => {
    // 8 h SB + 2 h OFF pair under P8; without the split the 8 h berth period is no rest at all.
    const periods = log('2026-06-01T06:00', ['D', 5], ['SB', 8], ['D', 6], ['OFF', 2], ['D', 5], ['OFF', 10]);
    expect(audit(periods, P70)).toEqual([]);
    expect(audit(periods, NON_CDL)).toEqual([
      ['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-02T01:00'],
      ['DRIVING_LIMIT', '2026-06-02T03:00', '2026-06-02T08:00'],
      ['WINDOW_LIMIT', '2026-06-02T03:00', '2026-06-02T08:00'],
    ]);
  });

  it('cannot be combined with the 16-hour exception (§395.1(o)); other rulesets ignore it', () => {
    const periods = log('2026-06-01T06:00', ...shift, ['OFF', 10]);
    const e = inputError(() => auditLog(periods, opts('US_PROPERTY_70_8', { exemptions: { nonCdlShortHaul: true, sixteenHour: true } })));
    expect(e.field).toBe('exemptions.nonCdlShortHaul');
    for (const ruleset of ['US_PASSENGER_70_8', 'CA_SOUTH_CYCLE_1', 'TX_INTRASTATE', 'CA_INTRASTATE'] as const) {
      expect(audit(periods, opts(ruleset, { exemptions: { nonCdlShortHaul: true } }))).toEqual(audit(periods, opts(ruleset)));
    }
  });
});

describe('C6: Canadian day-1/day-2 off-duty deferral (s. 16)', () => {
  const C1 = opts('CA_SOUTH_CYCLE_1');
  const deferring = (day: string, extra: Partial<HosOptions> = {}) => opts('CA_SOUTH_CYCLE_1', { deferrals: [{ day }], ...extra });
  // Day 1 (06-01) holds 9 h off: 1 h short of the 10.
  const day1: Parts = [
    ['D', 6],
    ['OFF', 8],
    ['ON', 2],
    ['D', 7],
  ];

  it('day 1 declared: 8 h off is enough that day', () => {
    const periods = log('2026-06-01T00:00', ...day1, ['OFF', 13]);
    expect(audit(periods, C1)).toEqual([
      ['DAILY_ON_DUTY_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['DAILY_OFF_DUTY', '2026-06-01T22:00', '2026-06-01T23:00'],
    ]);
    expect(audit(periods, deferring('2026-06-01'))).toEqual([['DAILY_ON_DUTY_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00']]);
    // A declaration for another day changes nothing.
    expect(audit(periods, deferring('2026-06-03'))).toEqual(audit(periods, C1));
  });

  it('deferring more than 2 h is a violation of day 1', () => {
    const periods = log('2026-06-01T00:00', ['D', 6.5], ['OFF', 7.5], ['ON', 3], ['D', 7], ['OFF', 13]);
    expect(audit(periods, C1)).toContainEqual(['DAILY_OFF_DUTY', '2026-06-01T21:30', '2026-06-02T00:00']);
    expect(audit(periods, deferring('2026-06-01'))).toContainEqual(['DAILY_OFF_DUTY', '2026-06-01T23:30', '2026-06-02T00:00']);
  });

  it('day 2 adds the deferred hour to its consecutive off-duty period', () => {
    // Day 2: 8 h of the rest fall in it, 1 h short of 8 h + the deferred hour.
    const periods = log('2026-06-01T00:00', ...day1, ['OFF', 9], ['D', 8], ['OFF', 10]);
    expect(audit(periods, deferring('2026-06-01'))).toEqual([
      ['DAILY_ON_DUTY_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['DAILY_OFF_DUTY', '2026-06-02T15:00', '2026-06-02T16:00'],
    ]);
    expect(audit(periods, C1).filter(([, start]) => start.startsWith('2026-06-02'))).toEqual([]);
  });

  it('day 2 holds 10 h off plus the deferred hour (20 h over the two days)', () => {
    const periods = log('2026-06-01T00:00', ...day1, ['OFF', 10], ['D', 6], ['ON', 2], ['D', 5.5], ['OFF', 10]);
    expect(audit(periods, deferring('2026-06-01'))).toEqual([
      ['DAILY_ON_DUTY_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['DAILY_OFF_DUTY', '2026-06-02T22:00', '2026-06-02T22:30'],
    ]);
    expect(audit(periods, C1).filter(([, start]) => start.startsWith('2026-06-02'))).toEqual([]);
  });

  it('the two days allow 26 h of driving (binds with adverse conditions)', () => {
    const adverse = { exemptions: { adverseDriving: [{ start: utc('2026-06-01T06:00'), end: utc('2026-06-02T23:00') }] } };
    const periods = log('2026-06-01T00:00', ['OFF', 6], ['D', 15], ['OFF', 13], ['D', 12], ['OFF', 10]);
    // Without the deferral, day 1 holds 9 h off: enough, since s. 76(2) takes the 2 h of driving past
    // the 13 off its 10 h (before that rule was read, the hour short was a violation).
    expect(audit(periods, opts('CA_SOUTH_CYCLE_1', adverse))).toEqual([]);
    expect(audit(periods, deferring('2026-06-01', adverse))).toEqual([['DAILY_DRIVING_LIMIT', '2026-06-02T21:00', '2026-06-02T22:00']]);
    expect(clocksAt(periods, utc('2026-06-02T15:00'), deferring('2026-06-01', adverse)).strict.driveMs).toBe(hours(6));
    expect(clocksAt(periods, utc('2026-06-02T15:00'), opts('CA_SOUTH_CYCLE_1', adverse)).strict.driveMs).toBe(hours(10));
  });

  it('clocksAt on day 2: the consecutive period still owed bounds the shift', () => {
    const periods = log('2026-06-01T00:00', ...day1, ['OFF', 9], ['D', 2]);
    // 10:00 on day 2: 9 h consecutive off still owed, so driving must end by 15:00.
    expect(clocksAt(periods, utc('2026-06-02T10:00'), deferring('2026-06-01')).strict.windowMs).toBe(hours(5));
    expect(clocksAt(periods, utc('2026-06-02T10:00'), C1).strict.windowMs).toBe(hours(12));
  });

  it('a declared deferral excludes a sleeper-berth split on days 1 and 2 (s. 16: only a driver not splitting)', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 7], ['D', 5], ['SB', 3], ['D', 3], ['OFF', 10]);
    expect(audit(periods, C1)).toEqual([]);
    const unpaired = [
      ['SHIFT_ELAPSED_LIMIT', '2026-06-01T22:00', '2026-06-01T23:00'],
      ['SHIFT_ELAPSED_LIMIT', '2026-06-02T02:00', '2026-06-02T05:00'],
    ];
    expect(audit(periods, deferring('2026-06-01'))).toEqual(unpaired);
    expect(audit(periods, deferring('2026-05-31'))).toEqual(unpaired);
    expect(audit(periods, deferring('2026-06-03'))).toEqual([]);
    // clocksAt at 19:00, 13 h since 06:00: paired provisionally, the 7 h berth period leaves 16 − 6 h
    // of elapsed time (the 14 h on duty binds first: 8 h); unpaired, 16 − 13 h.
    expect(clocksAt(periods, utc('2026-06-01T19:00'), C1).provisional.windowMs).toBe(hours(8));
    expect(clocksAt(periods, utc('2026-06-01T19:00'), deferring('2026-06-01')).provisional.windowMs).toBe(hours(3));
  });

  it('declarations are checked: a day 2 cannot defer, dates must be real and declared once', () => {
    const periods = log('2026-06-01T00:00', ...day1, ['OFF', 13]);
    const run = (deferrals: unknown) => () => auditLog(periods, opts('CA_SOUTH_CYCLE_1', { deferrals: deferrals as HosOptions['deferrals'] }));
    expect(inputError(run([{ day: '2026-06-01' }, { day: '2026-06-02' }])).field).toBe('deferrals[1].day');
    expect(inputError(run([{ day: '2026-06-02' }, { day: '2026-06-01' }])).field).toBe('deferrals[0].day');
    expect(inputError(run([{ day: '2026-02-30' }])).field).toBe('deferrals[0].day');
    expect(inputError(run([{ day: '2026-06-01' }, { day: '2026-06-01' }])).field).toBe('deferrals[1].day');
    expect(inputError(run([null])).field).toBe('deferrals[0].day');
    expect(inputError(run('2026-06-01')).field).toBe('deferrals');
  });
});

describe('C7: Canadian team sleeper-berth split (s. 19)', () => {
  const C1 = opts('CA_SOUTH_CYCLE_1');
  const TEAM = opts('CA_SOUTH_CYCLE_1', { team: true });

  it('a team pairs two berth periods of ≥ 4 h totalling ≥ 8 h', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 4], ['D', 5], ['SB', 4], ['D', 3], ['OFF', 10]);
    expect(audit(periods, C1)).toEqual([['SHIFT_ELAPSED_LIMIT', '2026-06-02T00:00', '2026-06-02T03:00']]);
    expect(audit(periods, TEAM)).toEqual([]);
  });

  it('a team does not pair a berth period shorter than 4 h (the single driver may)', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 3], ['D', 5], ['SB', 7], ['D', 3], ['OFF', 10]);
    expect(audit(periods, C1)).toEqual([]);
    expect(audit(periods, TEAM)).toEqual([['SHIFT_ELAPSED_LIMIT', '2026-06-02T02:00', '2026-06-02T05:00']]);
  });

  it('clocksAt: provisionally pairs only a berth period a team may pair', () => {
    const periods = log('2026-06-01T06:00', ['D', 2], ['SB', 3], ['D', 1]);
    // 12:00: 6 h since the shift began, 3 h on duty. A single driver's 3 h berth period may still be
    // paired (16 h − 3 h elapsed left, the 14 h on duty binds: 11 h); a team's may not (16 h − 6 h).
    expect(clocksAt(periods, utc('2026-06-01T12:00'), C1).provisional.windowMs).toBe(hours(11));
    expect(clocksAt(periods, utc('2026-06-01T12:00'), TEAM).provisional.windowMs).toBe(hours(10));
  });

  it('other rulesets ignore it; a non-boolean is an input error', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['SB', 4], ['D', 5], ['SB', 4], ['D', 3], ['OFF', 10]);
    for (const ruleset of ['US_PROPERTY_70_8', 'US_PASSENGER_70_8', 'TX_INTRASTATE'] as const) {
      expect(audit(periods, opts(ruleset, { team: true }))).toEqual(audit(periods, opts(ruleset)));
    }
    expect(inputError(() => auditLog(periods, opts('CA_SOUTH_CYCLE_1', { team: 'yes' as unknown as boolean }))).field).toBe('team');
  });
});
