// US property-carrying rules P1-P19 (rules document section 1.2). Worked examples come from FMCSA's
// "Interstate Truck Driver's Guide to Hours of Service" (April 2022, FMCSA-HOS-395-DRIVERS-GUIDE-TO-HOS)
// [GUIDE], FMCSA's "Hours of Service Examples" (2022-04-28) as transcribed in the public
// MeddlingIdiot.HOS.Auditor test suite [EXAMPLES Ex n] (times moved to June 2026, America/Chicago),
// and FMCSA's 2020 HOS FAQ [FAQ-2020].
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt } from '../src/index.ts';
import { brief, hours, log, opts, utc } from './helpers.ts';

const P70 = opts('US_PROPERTY_70_8');
const audit = (periods: Parameters<typeof auditLog>[0], o = P70) => brief(auditLog(periods, o).violations);

describe('14-hour window and 11-hour driving (P2, P3)', () => {
  it('[GUIDE 14-hour example] on duty at 6:00, driving until exactly 20:00 is compliant', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['OFF', 4], ['D', 5], ['OFF', 10]))).toEqual([]);
  });

  it('[GUIDE 14-hour example] driving 15 minutes past 20:00 is a nominal window violation', () => {
    const v = auditLog(log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['OFF', 4], ['D', 5.25], ['OFF', 10]), P70).violations;
    expect(brief(v)).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T20:15']]);
    expect(v[0]!.severity).toBe('VIOLATION'); // exactly 15 min is not "< 15 min"
  });

  it('other work after the 14th hour is legal (only driving past a limit is a violation)', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 4], ['OFF', 4], ['D', 5], ['ON', 3], ['OFF', 10]))).toEqual([]);
  });

  it('[GUIDE 11-hour example] 7 h driving, 30-minute break, 4 h driving until 18:30 is compliant', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 4], ['OFF', 10]))).toEqual([]);
  });

  it('[GUIDE 11-hour example] driving on to 19:00 is a 30-minute driving-limit violation', () => {
    const v = auditLog(log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 4.5], ['OFF', 10]), P70).violations;
    expect(brief(v)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T19:00']]);
    expect(v[0]!.severity).toBe('VIOLATION');
  });

  it('[EXAMPLES Ex4] 12 h of driving by 15:00 violates the 11 and the 14 from 14:00', () => {
    const v = audit(log('2026-06-01T00:00', ['ON', 1], ['D', 4], ['OFF', 1], ['D', 4], ['OFF', 1], ['D', 4], ['OFF', 10]));
    expect(v).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T14:00', '2026-06-01T15:00'],
      ['WINDOW_LIMIT', '2026-06-01T14:00', '2026-06-01T15:00'],
    ]);
  });

  it('[EXAMPLES Ex2] a shift ending exactly at the 14th hour after 10 h of OFF+SB is compliant', () => {
    const periods = log(
      '2026-06-01T00:00',
      ['OFF', 10],
      ['ON', 1],
      ['D', 5],
      ['OFF', 1],
      ['D', 5],
      ['OFF', 1],
      ['SB', 8],
      ['OFF', 1],
      ['ON', 1],
      ['D', 4],
      ['OFF', 1],
      ['D', 4],
      ['ON', 2],
      ['D', 2],
      ['OFF', 10],
    );
    expect(audit(periods)).toEqual([]);
  });

  it('severity: more than 3 h past a limit is egregious', () => {
    const v = auditLog(log('2026-06-01T06:00', ['D', 8], ['OFF', 1], ['D', 7.5], ['OFF', 10]), P70).violations;
    const drive = v.find((x) => x.rule === 'DRIVING_LIMIT')!;
    expect(brief([drive])).toEqual([['DRIVING_LIMIT', '2026-06-01T18:00', '2026-06-01T22:30']]);
    expect(drive.severity).toBe('EGREGIOUS');
  });
});

describe('start of shift: 10 consecutive hours off (P1, P7)', () => {
  const shift1: Parameters<typeof log> extends [string, ...infer P] ? P : never = [
    ['ON', 1],
    ['D', 8],
    ['OFF', 0.5],
    ['D', 3],
    ['ON', 1.5],
  ];

  it('10 h off restarts the 11 and the 14', () => {
    expect(audit(log('2026-06-01T06:00', ...shift1, ['OFF', 10], ['D', 1], ['OFF', 10]))).toEqual([]);
  });

  it('9.5 h off does not: the next driving is past both limits of the previous shift', () => {
    expect(audit(log('2026-06-01T06:00', ...shift1, ['OFF', 9.5], ['D', 1], ['OFF', 10]))).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T05:30', '2026-06-02T06:30'],
      ['WINDOW_LIMIT', '2026-06-02T05:30', '2026-06-02T06:30'],
    ]);
  });

  it('P7 (B): 10 consecutive hours in the sleeper berth restart the shift', () => {
    expect(audit(log('2026-06-01T06:00', ...shift1, ['SB', 10], ['D', 1], ['OFF', 10]))).toEqual([]);
  });

  it('P7 (C): 10 h of consecutive OFF + SB restart the shift', () => {
    expect(audit(log('2026-06-01T06:00', ...shift1, ['OFF', 3], ['SB', 6], ['OFF', 1], ['D', 1], ['OFF', 10]))).toEqual([]);
  });
});

describe('30-minute break (P4)', () => {
  it('[EXAMPLES Ex5] 15 min OFF + 15 min ON back to back is a break; 11 h ending at the 14th hour is compliant', () => {
    const periods = log('2026-06-01T00:00', ['ON', 1], ['D', 8], ['OFF', 0.25], ['ON', 0.25], ['D', 2], ['OFF', 1.5], ['D', 1], ['OFF', 10]);
    expect(audit(periods)).toEqual([]);
  });

  it('15 minutes off is not a break: driving after 8 h is a violation', () => {
    expect(audit(log('2026-06-01T00:00', ['ON', 1], ['D', 8], ['OFF', 0.25], ['D', 1], ['OFF', 10]))).toEqual([
      ['BREAK_REQUIRED', '2026-06-01T09:15', '2026-06-01T10:15'],
    ]);
  });

  it('8 h of cumulative (not consecutive) driving: short stops do not add up', () => {
    expect(audit(log('2026-06-01T06:00', ['D', 4], ['ON', 0.25], ['D', 4.5], ['OFF', 10]))).toEqual([
      ['BREAK_REQUIRED', '2026-06-01T14:15', '2026-06-01T14:45'],
    ]);
  });

  it('P14: the 150 air-mile short-haul exception has no break rule', () => {
    const periods = log('2026-06-01T06:00', ['D', 4], ['ON', 0.25], ['D', 4.5], ['OFF', 10]);
    expect(audit(periods, opts('US_PROPERTY_70_8', { exemptions: { shortHaul150: true } }))).toEqual([]);
    expect(clocksAt(periods, utc('2026-06-01T10:00'), opts('US_PROPERTY_70_8', { exemptions: { shortHaul150: true } })).strict.breakMs).toBeNull();
  });

  it('P14: short-haul drivers are still limited to 11 h of driving', () => {
    const periods = log('2026-06-01T06:00', ['D', 6], ['ON', 1], ['D', 6], ['OFF', 10]);
    expect(audit(periods, opts('US_PROPERTY_70_8', { exemptions: { shortHaul150: true } }))).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T18:00', '2026-06-01T19:00'],
    ]);
  });
});

describe('sleeper berth (P8-P12, rules document 1.2.1)', () => {
  // [GUIDE sleeper-berth example]: breaks 1 (3 h OFF, day 1 7-10), 2 (7 h SB, day 1 15-22),
  // 3 (4 h SB, day 2 5-9), 4 (10 h SB from day 2 14:00). Calculation periods: 1 = day 1 0:00-15:00
  // (10 h driving, 12 on duty), 2 = day 1 10:00 - day 2 5:00 (11 h driving), 3 = day 1 22:00 - day 2
  // 14:00 (10.5 h driving). No violation; break 2 is used in two pairings.
  const guide = (second: 'SB' | 'OFF') =>
    log(
      '2026-05-31T14:00',
      ['OFF', 10],
      ['D', 6],
      ['ON', 1],
      ['OFF', 3],
      ['D', 4],
      ['ON', 1],
      [second, 7],
      ['D', 7],
      ['SB', 4],
      ['D', 3.5],
      ['ON', 1.5],
      ['SB', 10],
    );

  it('[GUIDE] the worked sleeper-berth example has no violation', () => {
    expect(audit(guide('SB'))).toEqual([]);
  });

  it('[GUIDE] the same log with break 2 OFF instead of in the berth cannot pair (O3)', () => {
    const v = audit(guide('OFF'));
    expect(v).toContainEqual(['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-02T05:00']);
    expect(v).toContainEqual(['DRIVING_LIMIT', '2026-06-01T23:00', '2026-06-02T05:00']);
  });

  it('P8 3-then-7: a 3 h OFF period paired with a later 7 h SB period is excluded from the 14', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 3], ['D', 6], ['SB', 7], ['D', 5], ['OFF', 10]))).toEqual([]);
  });

  it('P9: after the pair, driving is counted from the end of the first period (11 h reached at 9:00)', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 3], ['D', 6], ['SB', 7], ['D', 5.5], ['OFF', 10]))).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T09:00', '2026-06-02T09:30'],
    ]);
  });

  it('P11 [FAQ-2020 Q6]: 5 h off and a later 7 h SB pair', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 5], ['D', 6], ['SB', 7], ['D', 4], ['OFF', 10]))).toEqual([]);
  });

  it('O3: 3 h OFF and a later 7 h OFF (no berth) do not pair', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['OFF', 3], ['D', 6], ['OFF', 7], ['D', 5], ['OFF', 10]))).toContainEqual([
      'WINDOW_LIMIT',
      '2026-06-01T20:00',
      '2026-06-01T21:00',
    ]);
  });

  it('P8 7-then-3: a 7 h SB period paired with a later 3 h OFF period', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 3], ['D', 1], ['OFF', 10]))).toEqual([]);
  });

  it('invalid pair: 7 h SB + 2 h OFF totals 9 h < 10 h', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 2], ['D', 1]))).toEqual([
      ['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-02T00:00'],
      ['WINDOW_LIMIT', '2026-06-02T02:00', '2026-06-02T03:00'],
    ]);
  });

  it('invalid pair: a rest under 2 h never counts (1.5 h OFF after 7 h SB)', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 1.5], ['D', 1]))).toEqual([
      ['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-02T00:00'],
      ['WINDOW_LIMIT', '2026-06-02T01:30', '2026-06-02T02:30'],
    ]);
  });

  it('hindsight: the later 3 h rest withdraws the window violation the log showed before it', () => {
    const before = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5]);
    expect(audit(before)).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-02T00:00']]);
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 3]))).toEqual([]);
  });

  it('P10 [EXAMPLES Ex15/Ex17 pattern]: a final 10 h reset can be the second member of a pair', () => {
    // Without a pair the 19:00-24:00 driving is past the 14th hour; with (7 h SB, final 10 h off) it is not.
    expect(audit(log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 10]))).toEqual([]);
  });

  it('P12 [FAQ-2020 Q8]: after (7 SB, 3 OFF) another 7 h SB continues the split from the end of the 3 h', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 3], ['D', 5], ['SB', 7], ['D', 6], ['OFF', 10]);
    // Pair 2 = (3 OFF, 7 SB): counted from 03:00, 5 + 6 = 11 h driving, 14 h - 7 h excluded = 7... window 11 h.
    expect(audit(periods)).toEqual([]);
  });

  it('P9 (5): a driver who only ever splits (3 h OFF / 7 h SB, never 10 h) stays within the 11 and the 14', () => {
    const periods = log(
      '2026-06-01T06:00',
      ...(Array.from(
        { length: 30 },
        () =>
          [
            ['D', 5],
            ['OFF', 3],
            ['D', 5],
            ['SB', 7],
          ] as const,
      ).flat() as never[]),
    );
    const rules = new Set(auditLog(periods, P70).violations.map((v) => v.rule));
    expect([...rules]).toEqual(['CYCLE_LIMIT']); // 12 h of driving a day is over 70 h in 8 days
  });

  it('clocksAt: strict counts only completed pairs, provisional assumes the 7 h SB will be paired', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7]);
    const c = clocksAt(periods, utc('2026-06-01T19:00'), P70);
    expect(c.strict.windowMs).toBe(hours(1)); // 13 h of the window used since 6:00
    expect(c.provisional.windowMs).toBe(hours(8)); // 13 h - 7 h excluded = 6 h used
    expect(c.strict.driveMs).toBe(hours(6));
    expect(c.provisional.driveMs).toBe(hours(6));
  });

  it('clocksAt: once the pair is complete strict counts it too', () => {
    const periods = log('2026-06-01T06:00', ['ON', 1], ['D', 5], ['SB', 7], ['D', 5], ['OFF', 3]);
    const c = clocksAt(periods, utc('2026-06-02T03:00'), P70);
    // From the end of the SB (19:00): 8 h elapsed - 3 h excluded = 5 h; 5 h driving.
    expect(c.strict.windowMs).toBe(hours(9));
    expect(c.strict.driveMs).toBe(hours(6));
  });
});

describe('[EXAMPLES] FMCSA split-sleeper examples 13-17 (transcribed; day 1 = 2026-06-01)', () => {
  it('Ex13: team driver, passenger time logged on duty, a 10 h OFF+SB rest; the 14th hour is passed at 15:00 on day 2', () => {
    const periods = log(
      '2026-06-01T00:00',
      ['OFF', 2],
      ['ON', 1],
      ['D', 6],
      ['ON', 2],
      ['D', 4],
      ['OFF', 1],
      ['SB', 7],
      ['OFF', 2],
      ['ON', 1],
      ['D', 5],
      ['OFF', 1],
      ['ON', 1],
      ['D', 3],
      ['ON', 1],
      ['D', 3],
      ['OFF', 10],
    );
    expect(audit(periods)).toEqual([['WINDOW_LIMIT', '2026-06-02T15:00', '2026-06-02T16:00']]);
  });

  it('Ex14: 15 minutes off is no break (18:30-19:00); (3 h OFF, 7 h SB) then (7 h SB, 3 h OFF) carry the rest', () => {
    // The transcription leaves the last driving period open; we end it after 1 h and rest 10 h.
    const periods = log(
      '2026-06-01T00:00',
      ['OFF', 10],
      ['ON', 0.25],
      ['D', 4],
      ['OFF', 0.25],
      ['D', 4.5],
      ['OFF', 3],
      ['ON', 1],
      ['D', 1],
      ['ON', 0.5],
      ['D', 1.5],
      ['SB', 7],
      ['ON', 0.5],
      ['D', 8],
      ['ON', 0.5],
      ['D', 0.5],
      ['OFF', 3],
      ['ON', 0.5],
      ['D', 1],
      ['OFF', 10],
    );
    expect(audit(periods)).toEqual([['BREAK_REQUIRED', '2026-06-01T18:30', '2026-06-01T19:00']]);
  });

  it('Ex15: 2 h OFF + 7 h SB is not a valid split (9 h); 12 h of driving from 10:00 passes the 11 at 06:00', () => {
    const periods = log('2026-06-01T00:00', ['OFF', 10], ['D', 5], ['OFF', 2], ['D', 3], ['SB', 7], ['D', 4], ['OFF', 10]);
    expect(audit(periods)).toEqual([['DRIVING_LIMIT', '2026-06-02T06:00', '2026-06-02T07:00']]);
  });

  it('Ex16: proper use, a rest period in two pairings, driving ending exactly at the limits', () => {
    const periods = log(
      '2026-06-01T00:00',
      ['ON', 0.5],
      ['D', 5],
      ['OFF', 4],
      ['D', 6],
      ['ON', 0.5],
      ['SB', 7],
      ['ON', 1],
      ['D', 5],
      ['ON', 1],
      ['OFF', 3],
      ['D', 4],
      ['OFF', 2],
      ['D', 1],
      ['ON', 1],
      ['SB', 7],
    );
    expect(audit(periods)).toEqual([]);
  });

  it('Ex17: a 2 h OFF period pairs with a following 10 h sleeper period', () => {
    const periods = log('2026-06-01T00:00', ['OFF', 10], ['ON', 1], ['D', 5], ['OFF', 2], ['ON', 1], ['D', 6], ['SB', 10]);
    expect(audit(periods)).toEqual([]);
  });
});

describe('60/70-hour limits and the 34-hour restart (P5, P6)', () => {
  // [GUIDE 70-hour/8-day table]: days 1-10 (Sunday-Tuesday) 0, 10, 8.5, 12.5, 9, 10, 12, 5, 6, 0 h.
  const table = [0, 10, 8.5, 12.5, 9, 10, 12, 5, 6, 0];
  const guideWeek = () => {
    const parts: Parameters<typeof log> extends [string, ...infer P] ? P : never = [];
    for (const h of table) {
      if (h === 0) {
        parts.push(['OFF', 24]);
        continue;
      }
      const drive = Math.min(h, 8);
      parts.push(['OFF', 6]);
      if (h > drive) parts.push(['ON', h - drive]);
      parts.push(['D', drive], ['OFF', 18 - h]);
    }
    return log('2026-05-31T00:00', ...parts);
  };

  it('[GUIDE] 67 h in days 1-8, 73 h in days 2-9: the last 3 h of day 9 driving are over 70', () => {
    const v = auditLog(guideWeek(), P70).violations;
    expect(brief(v)).toEqual([['CYCLE_LIMIT', '2026-06-08T09:00', '2026-06-08T12:00']]);
    expect(v[0]!.severity).toBe('VIOLATION');
  });

  it('[GUIDE] on day 10 the 8-day total is 63 h', () => {
    const c = clocksAt(guideWeek(), utc('2026-06-09T12:00'), P70);
    expect(c.cycleUsedMs).toBe(hours(63));
    expect(c.strict.cycleMs).toBe(hours(7));
  });

  it('60/7: the same log counts 7 days', () => {
    const c = clocksAt(guideWeek(), utc('2026-06-09T12:00'), opts('US_PROPERTY_60_7'));
    expect(c.cycleUsedMs).toBe(hours(63 - 8.5));
    expect(c.strict.cycleMs).toBe(hours(60 - 54.5));
  });

  // [GUIDE 34-hour restart example]: 14 h a day for 5 days = 70 h.
  const fiveDays = (off: number) =>
    log(
      '2026-06-01T06:00',
      ...(Array.from(
        { length: 4 },
        () =>
          [
            ['ON', 6],
            ['D', 8],
            ['OFF', 10],
          ] as const,
      ).flat() as never[]),
      ['ON', 6],
      ['D', 8],
      ['OFF', off],
      ['D', 1],
      ['OFF', 10],
    );

  it('[GUIDE] a restart of exactly 34 h resets the cycle', () => {
    expect(audit(fiveDays(34))).toEqual([]);
  });

  it('33 h 59 min off is not a restart: driving is over 70 h', () => {
    expect(audit(fiveDays(34 - 1 / 60))).toEqual([['CYCLE_LIMIT', '2026-06-07T05:59', '2026-06-07T06:59']]);
  });

  it('clocksAt after the restart: full 70 h', () => {
    const c = clocksAt(fiveDays(34), utc('2026-06-07T06:00'), P70);
    expect(c.cycleUsedMs).toBe(0);
    expect(c.strict.cycleMs).toBe(hours(70));
  });
});

describe('adverse driving conditions (P13)', () => {
  const twelve = log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['OFF', 0.5], ['D', 6], ['OFF', 10]);

  it('without a claim 12 h of driving is a violation', () => {
    expect(audit(twelve)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T19:30']]);
  });

  it('a claim in the shift allows up to 13 h of driving', () => {
    const o = opts('US_PROPERTY_70_8', { exemptions: { adverseDriving: [{ start: utc('2026-06-01T15:00'), end: utc('2026-06-01T16:00') }] } });
    expect(audit(twelve, o)).toEqual([]);
    expect(clocksAt(twelve, utc('2026-06-01T16:00'), o).strict.driveMs).toBe(hours(13 - 8.5));
  });

  it('a claim in another shift does not', () => {
    const o = opts('US_PROPERTY_70_8', { exemptions: { adverseDriving: [{ start: utc('2026-06-03T15:00'), end: utc('2026-06-03T16:00') }] } });
    expect(audit(twelve, o)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T19:30']]);
  });

  it('the window extends to 16 h, from the moment conditions are met', () => {
    const periods = log('2026-06-01T06:00', ['ON', 4], ['D', 4], ['OFF', 4], ['D', 4], ['OFF', 10]);
    expect(audit(periods)).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T22:00']]);
    const at = (start: string) => opts('US_PROPERTY_70_8', { exemptions: { adverseDriving: [{ start: utc(start), end: utc('2026-06-01T22:00') }] } });
    expect(audit(periods, at('2026-06-01T19:00'))).toEqual([]);
    expect(audit(periods, at('2026-06-01T21:00'))).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T21:00']]);
  });
});

describe('16-hour short-haul exception (P16)', () => {
  // [EXAMPLES Ex10]: on duty 10:00, driving until 03:00 the next day, 11 h of driving in all.
  const shift: Parameters<typeof log> extends [string, ...infer P] ? P : never = [
    ['ON', 2],
    ['D', 4],
    ['OFF', 1],
    ['D', 3],
    ['OFF', 1],
    ['D', 1],
    ['ON', 2],
    ['D', 3],
  ];
  const ex10 = log('2026-06-01T00:00', ['OFF', 10], ...shift, ['OFF', 10]);
  const sixteen = opts('US_PROPERTY_70_8', { exemptions: { sixteenHour: true } });

  it('[EXAMPLES Ex10] without the exception driving after midnight is past the 14th hour', () => {
    expect(audit(ex10)).toEqual([['WINDOW_LIMIT', '2026-06-02T00:00', '2026-06-02T03:00']]);
  });

  it('[EXAMPLES Ex10] with it, only driving after the 16th hour (02:00) is a violation', () => {
    expect(audit(ex10, sixteen)).toEqual([['WINDOW_LIMIT', '2026-06-02T02:00', '2026-06-02T03:00']]);
  });

  it('once in 6 consecutive days unless a 34-h restart intervenes', () => {
    const periods = log('2026-06-01T00:00', ['OFF', 10], ...shift, ['OFF', 14], ...shift, ['OFF', 34], ...shift, ['OFF', 10]);
    expect(audit(periods, sixteen)).toEqual([
      ['WINDOW_LIMIT', '2026-06-02T02:00', '2026-06-02T03:00'],
      ['WINDOW_LIMIT', '2026-06-03T07:00', '2026-06-03T10:00'], // second use within 6 days: 14 h applies
      ['WINDOW_LIMIT', '2026-06-05T12:00', '2026-06-05T13:00'], // after the 34-h restart: 16 h again
    ]);
  });

  it('is ignored for rulesets without it', () => {
    expect(audit(ex10, opts('US_PROPERTY_70_8'))).toEqual(audit(ex10, opts('US_PROPERTY_70_8', { exemptions: { sixteenHour: false } })));
  });
});

describe('non-CDL short-haul (P15)', () => {
  it('without the nonCdlShortHaul claim the 14-hour window is enforced (the claim: declared-exceptions.test.ts)', () => {
    expect(audit(log('2026-06-01T06:00', ['ON', 6], ['D', 9], ['OFF', 10]))).toContainEqual(['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T21:00']);
  });
});

describe('personal conveyance, yard moves, passenger seat (P17, P18, P19)', () => {
  const day1: Parameters<typeof log> extends [string, ...infer P] ? P : never = [
    ['ON', 1],
    ['D', 8],
    ['ON', 0.5],
  ];

  it('P17/E1: PC is off duty and part of the 10 consecutive hours', () => {
    expect(audit(log('2026-06-01T06:00', ...day1, ['OFF', 6], ['OFF:PC', 1], ['OFF', 3], ['D', 7], ['OFF', 10]))).toEqual([]);
  });

  it('P17: the same hour logged as driving breaks the rest', () => {
    expect(audit(log('2026-06-01T06:00', ...day1, ['OFF', 6], ['D', 1], ['OFF', 3], ['D', 7], ['OFF', 10])).length).toBeGreaterThan(0);
  });

  it('P18/E2: yard moves count to the 14-hour window, not to driving', () => {
    expect(audit(log('2026-06-01T06:00', ['ON:YM', 10], ['D', 5], ['OFF', 10]))).toEqual([['WINDOW_LIMIT', '2026-06-01T20:00', '2026-06-01T21:00']]);
  });

  it('P18/E2: 30 minutes of yard moves is a break from driving', () => {
    expect(audit(log('2026-06-01T06:00', ['D', 8], ['ON:YM', 0.5], ['D', 1], ['OFF', 10]))).toEqual([]);
  });

  it('P19 [EXAMPLES Ex11]: team driver, 8 h SB + 2 h in the passenger seat is a full rest', () => {
    const periods = log('2026-06-01T00:00', ['ON', 2], ['D', 4], ['SB', 8], ['OFF:PASSENGER', 2], ['ON', 1], ['D', 3], ['OFF', 1], ['D', 3], ['OFF', 10]);
    expect(audit(periods)).toEqual([]);
  });

  it('P19: passenger time without a 7 h berth period next to it is on duty', () => {
    const periods = log('2026-06-01T00:00', ['ON', 2], ['D', 4], ['SB', 6], ['OFF:PASSENGER', 4], ['ON', 1], ['D', 3], ['OFF', 1], ['D', 3], ['OFF', 10]);
    expect(audit(periods)).toContainEqual(['WINDOW_LIMIT', '2026-06-01T21:00', '2026-06-02T00:00']);
  });

  it('P19: only 3 h of passenger time count as rest; the 4th hour is on duty and opens the window', () => {
    const periods = log('2026-06-01T00:00', ['ON', 2], ['D', 4], ['SB', 7], ['OFF:PASSENGER', 4]);
    const c = clocksAt(periods, utc('2026-06-01T17:00'), P70);
    expect(c.strict.windowMs).toBe(hours(13));
    expect(c.strict.driveMs).toBe(hours(11));
    expect(c.cycleUsedMs).toBe(hours(7));
  });
});
