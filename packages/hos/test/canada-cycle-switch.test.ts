// Canada's cycle switching (SOR/2005-313 s. 29 south of 60°, s. 54 north). June 2026, America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, clocksAt, HosInputError, type HosOptions } from '../src/index.ts';
import { brief, hours, log, opts } from './helpers.ts';

type Parts = Parameters<typeof log> extends [string, ...infer P] ? P : never;
const repeat = (n: number, parts: Parts): Parts => Array.from({ length: n }, () => parts).flat();
const day13: Parts = [
  ['ON', 3],
  ['D', 10],
  ['OFF', 11],
];

/** A 13-hour day, `rest` hours off, then six 13-hour days (78 h); the switch is declared as the rest ends. */
function week(rest: number) {
  const periods = log('2026-06-01T06:00', ['ON', 3], ['D', 10], ['OFF', rest], ...repeat(6, day13));
  return { periods, restEnd: periods[2]!.end };
}

describe('cycle switching (s. 29)', () => {
  it('from cycle 2 to cycle 1 after 72 h off: cycle 1 (70 h in 7 days) applies from the end of the rest, hours at zero', () => {
    const { periods, restEnd } = week(72);
    const C2: HosOptions = opts('CA_SOUTH_CYCLE_2');
    // Staying on cycle 2: the 70 h without 24 h off of s. 27(b).
    expect(brief(auditLog(periods, C2).violations)).toEqual([['CYCLE_OFF_DUTY_REQUIRED', '2026-06-10T00:00', '2026-06-10T08:00']]);
    // Switched: the 70 h in 7 days of s. 26, counted from the switch.
    const switched = auditLog(periods, { ...C2, cycleSwitches: [{ at: restEnd, to: 1 }] });
    expect(brief(switched.violations)).toEqual([['CYCLE_LIMIT', '2026-06-10T00:00', '2026-06-10T08:00']]);
    expect(switched.dayFindings).toEqual([]);
  });

  it('from cycle 2 to cycle 1 after 48 h off is a finding of the day, 24 h short; cycle 1 applies from the instant', () => {
    const { periods, restEnd } = week(48);
    const r = auditLog(periods, { ...opts('CA_SOUTH_CYCLE_2'), cycleSwitches: [{ at: restEnd, to: 1 }] });
    expect(r.dayFindings).toEqual([{ rule: 'CYCLE_SWITCH', day: '2026-06-03', shortMs: hours(24) }]);
    expect(r.violations.map((v) => v.rule)).toContain('CYCLE_LIMIT');
  });

  it('from cycle 1 to cycle 2 needs 36 h off: then cycle 2 (120 h / 14 days) applies', () => {
    // Ten 13-hour days after 36 h off with a 24-h rest after the fifth: 130 h in 11 days.
    const periods = log('2026-06-01T06:00', ['ON', 3], ['D', 10], ['OFF', 36], ...repeat(5, day13), ['OFF', 24], ...repeat(5, day13));
    const at = periods[2]!.end;
    const C1 = opts('CA_SOUTH_CYCLE_1');
    const stay = auditLog(periods, C1);
    expect(stay.violations.map((v) => v.rule)).toContain('CYCLE_LIMIT');
    const switched = auditLog(periods, { ...C1, cycleSwitches: [{ at, to: 2 }] });
    // Nine days (117 h) since the switch, then 3 h on duty: the last day's driving is past the 120 h of s. 27(a).
    expect(switched.dayFindings).toEqual([]);
    expect(brief(switched.violations)).toEqual([['CYCLE_LIMIT', '2026-06-13T10:00', '2026-06-13T20:00']]);
    // With 35 h off the switch is 1 h short.
    const short = log('2026-06-01T06:00', ['ON', 3], ['D', 10], ['OFF', 35], ...repeat(2, day13));
    expect(auditLog(short, { ...C1, cycleSwitches: [{ at: short[2]!.end, to: 2 }] }).dayFindings).toEqual([
      { rule: 'CYCLE_SWITCH', day: '2026-06-03', shortMs: hours(1) },
    ]);
  });

  it('the clocks follow the switched cycle', () => {
    const { periods, restEnd } = week(72);
    const at = periods.at(-1)!.end;
    const C2: HosOptions = opts('CA_SOUTH_CYCLE_2');
    const c = clocksAt(periods, at, { ...C2, cycleSwitches: [{ at: restEnd, to: 1 }] });
    // 78 h since the switch against cycle 1's 70.
    expect(c.cycleUsedMs).toBe(hours(78));
    expect(c.strict.cycleMs).toBe(0);
  });

  it('s. 54: north of 60° switches between its own cycles (80 h / 7 days and 120 h / 14 days)', () => {
    const periods = log('2026-06-01T06:00', ['ON', 3], ['D', 10], ['OFF', 72], ...repeat(7, day13));
    const at = periods[2]!.end;
    // North cycle 2: the 7th day's driving is past 80 h without 24 h off (s. 52(b)).
    expect(brief(auditLog(periods, opts('CA_NORTH_CYCLE_2')).violations)).toEqual([['CYCLE_OFF_DUTY_REQUIRED', '2026-06-10T22:00', '2026-06-11T08:00']]);
    // Switched to north cycle 1: 80 h in the 7 days (s. 51); at midnight the first day's 5 h leave the 7 days.
    expect(brief(auditLog(periods, { ...opts('CA_NORTH_CYCLE_2'), cycleSwitches: [{ at, to: 1 }] }).violations)).toEqual([
      ['CYCLE_LIMIT', '2026-06-10T22:00', '2026-06-11T00:00'],
      ['CYCLE_LIMIT', '2026-06-11T02:00', '2026-06-11T08:00'],
    ]);
  });

  it('a switch to the cycle in force changes nothing; bad declarations are input errors; US rulesets ignore them', () => {
    const { periods, restEnd } = week(72);
    const C1 = opts('CA_SOUTH_CYCLE_1');
    expect(auditLog(periods, { ...C1, cycleSwitches: [{ at: restEnd, to: 1 }] })).toEqual(auditLog(periods, C1));
    expect(() => auditLog(periods, { ...C1, cycleSwitches: [{ at: 'yesterday', to: 2 }] })).toThrow(HosInputError);
    expect(() => auditLog(periods, { ...C1, cycleSwitches: [{ at: restEnd, to: 3 as 1 }] })).toThrow(HosInputError);
    const US = opts('US_PROPERTY_70_8');
    expect(auditLog(periods, { ...US, cycleSwitches: [{ at: restEnd, to: 2 }] })).toEqual(auditLog(periods, US));
  });
});
