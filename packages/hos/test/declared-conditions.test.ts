// What the driver declares of the conditions of a trip (issue 72, decision 0315), as the API passes
// it: adverse driving conditions claimed from an instant for the rest of that shift (49 CFR
// 395.1(b)(1); SOR/2005-313 s. 76(2) and (3)) and an emergency until the driver reached safety (s. 76(1)).
// Dates are June 2026 in America/Chicago.
import { describe, expect, it } from 'vitest';
import { auditLog, HosInputError, type HosOptions } from '../src/index.ts';
import { brief, hours, log, opts, utc } from './helpers.ts';

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

  it('Canada south of 60°, s. 76(2): 2 h more driving and on duty in the shift; past them is a violation', () => {
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

describe('adverse driving conditions and the day (SOR/2005-313 s. 76(2) and (3))', () => {
  it('south of 60°, s. 76(2): the 2 h of daily off-duty time shrink by the driving past the 13 h of the day', () => {
    // June 2: 6 h off, 15 h driving, 3 h off: 9 h off in the day, 2 h of driving past the 13.
    const day = log('2026-06-01T22:00', ['OFF', 8], ['D', 15], ['OFF', 10]);
    const plain = auditLog(day, opts('CA_SOUTH_CYCLE_1'));
    expect(plain.dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-02', shortMs: hours(1) }]);
    const claimed = auditLog(day, opts('CA_SOUTH_CYCLE_1', { exemptions: claimAt('2026-06-02T18:00') }));
    expect(brief(claimed.violations)).toEqual([]);
    expect(claimed.dayFindings).toEqual([]);
    // 14 h of driving: the hour past the 13 takes an hour off the 2; 8 h off is then an hour short.
    const less = log('2026-06-01T22:00', ['OFF', 8], ['D', 14], ['OFF', 2], ['ON', 2], ['OFF', 10]);
    expect(auditLog(less, opts('CA_SOUTH_CYCLE_1', { exemptions: claimAt('2026-06-02T18:00') })).dayFindings).toEqual([
      { rule: 'DAILY_OFF_DUTY', day: '2026-06-02', shortMs: hours(1) },
    ]);
  });

  it('north of 60°, s. 76(3): 2 h more driving only; on-duty and elapsed time keep their limits', () => {
    const N1 = opts('CA_NORTH_CYCLE_1');
    const claimed = opts('CA_NORTH_CYCLE_1', { exemptions: claimAt('2026-06-01T20:00') });
    // 16 h of driving: an hour past the 15, within the 2 h of the claim.
    const d16 = log('2026-06-01T06:00', ['D', 16], ['OFF', 10]);
    expect(brief(auditLog(d16, N1).violations)).toEqual([['DRIVING_LIMIT', '2026-06-01T21:00', '2026-06-01T22:00']]);
    expect(brief(auditLog(d16, claimed).violations)).toEqual([]);
    // 2 h on duty, then 17 h of driving: driving past 18 h on duty, claim or not.
    const on19 = log('2026-06-01T06:00', ['ON', 2], ['D', 17], ['OFF', 10]);
    expect(brief(auditLog(on19, claimed).violations)).toEqual([['ON_DUTY_LIMIT', '2026-06-02T00:00', '2026-06-02T01:00']]);
  });
});

describe('emergencies (SOR/2005-313 s. 76(1))', () => {
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
