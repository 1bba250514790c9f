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
    expect(audit(within, opts('US_PROPERTY_70_8'))).toEqual([['DRIVING_LIMIT', '2026-06-01T18:30', '2026-06-01T20:00']]);
    expect(audit(within, opts('US_PROPERTY_70_8', { exemptions: claimAt('2026-06-01T15:00') }))).toEqual([]);
    // 14 h of driving: the hour past the 13 is a violation even with the claim.
    const beyond = log('2026-06-01T06:00', ['ON', 1], ['D', 7], ['OFF', 0.5], ['D', 7], ['OFF', 10]);
    expect(audit(beyond, opts('US_PROPERTY_70_8', { exemptions: claimAt('2026-06-01T15:00') }))).toEqual([
      ['DRIVING_LIMIT', '2026-06-01T20:30', '2026-06-01T21:30'],
    ]);
    // The claim holds for its shift only: the next shift has the plain 11 h.
    const twoShifts = log('2026-06-01T06:00', ['D', 12], ['OFF', 10], ['D', 12], ['OFF', 10]);
    expect(audit(twoShifts, opts('US_PROPERTY_70_8', { exemptions: { ...claimAt('2026-06-01T10:00'), shortHaul150: true } }))).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T15:00', '2026-06-02T16:00'],
    ]);
  });

  it('Canada, s. 77: 2 h more driving and on duty in the shift; past them is a violation', () => {
    // Overnight from 16:00: each log day keeps its 10 h off and 13 h of driving; the shift's limits bind.
    const C1 = opts('CA_SOUTH_CYCLE_1');
    const claimed = opts('CA_SOUTH_CYCLE_1', { exemptions: claimAt('2026-06-02T03:00') });
    const d14 = log('2026-06-01T16:00', ['D', 14], ['OFF', 10]);
    expect(audit(d14, C1)).toEqual([['DRIVING_LIMIT', '2026-06-02T05:00', '2026-06-02T06:00']]);
    expect(audit(d14, claimed)).toEqual([]);
    const d16 = log('2026-06-01T16:00', ['D', 16], ['OFF', 10]);
    expect(audit(d16, C1)).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T05:00', '2026-06-02T08:00'],
      ['ON_DUTY_LIMIT', '2026-06-02T06:00', '2026-06-02T08:00'],
    ]);
    expect(audit(d16, claimed)).toEqual([['DRIVING_LIMIT', '2026-06-02T07:00', '2026-06-02T08:00']]);
  });
});

describe('emergencies (SOR/2005-313 s. 76)', () => {
  const night = log('2026-06-01T16:00', ['D', 16], ['OFF', 10]);
  const C1 = opts('CA_SOUTH_CYCLE_1');
  const emergency = (from: string, to: string): HosOptions => ({ ...C1, emergencies: [{ start: utc(from), end: utc(to) }] });
  const withSeverity = (o: HosOptions) => auditLog(night, o).violations.map((v) => [...brief([v])[0]!, v.severity]);

  it('driving to reach safety inside the declared emergency is no violation of the limits', () => {
    expect(audit(night, C1).length).toBe(2);
    expect(audit(night, emergency('2026-06-02T04:00', '2026-06-02T08:00'))).toEqual([]);
  });

  it('driving on after safety was reached is judged as usual, each piece with its own length', () => {
    expect(withSeverity(emergency('2026-06-02T04:00', '2026-06-02T07:00'))).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T07:00', '2026-06-02T08:00', 'VIOLATION'],
      ['ON_DUTY_LIMIT', '2026-06-02T07:00', '2026-06-02T08:00', 'VIOLATION'],
    ]);
    // An emergency in the middle of a violation splits it in two.
    expect(withSeverity(emergency('2026-06-02T05:30', '2026-06-02T06:30'))).toEqual([
      ['DRIVING_LIMIT', '2026-06-02T05:00', '2026-06-02T05:30', 'VIOLATION'],
      ['DRIVING_LIMIT', '2026-06-02T06:30', '2026-06-02T08:00', 'VIOLATION'],
      ['ON_DUTY_LIMIT', '2026-06-02T06:30', '2026-06-02T08:00', 'VIOLATION'],
    ]);
  });

  it('is checked as input and ignored on US rules (the US has the adverse-conditions extension)', () => {
    expect(() => auditLog(night, emergency('2026-06-02T08:00', '2026-06-02T07:00'))).toThrow(HosInputError);
    expect(() => auditLog(night, { ...C1, emergencies: [{ start: 'soon', end: utc('2026-06-02T07:00') }] })).toThrow(HosInputError);
    const P70 = opts('US_PROPERTY_70_8');
    expect(auditLog(night, { ...P70, emergencies: [{ start: utc('2026-06-01T06:00'), end: utc('2026-06-03T06:00') }] })).toEqual(auditLog(night, P70));
  });
});
