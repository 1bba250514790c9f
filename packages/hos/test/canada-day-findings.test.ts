// Canada's day-level findings (SOR/2005-313 s. 14, with the C6 deferral of s. 16): a log day that
// holds less than its off-duty time is a finding of that day, whatever took the time.
import { describe, expect, it } from 'vitest';
import { auditLog, type HosOptions } from '../src/index.ts';
import { brief, hours, log, opts } from './helpers.ts';

const C1 = opts('CA_SOUTH_CYCLE_1');
const C2 = opts('CA_SOUTH_CYCLE_2');

describe('Canada day-level findings: daily off-duty time (SOR/2005-313 s. 14)', () => {
  it('s. 14(1): on-duty work after the last driving that leaves 9 h off is a finding of the day, with no violation', () => {
    // 00-08 off, 08-18 driving, 18-23 on duty (no driving), 23-24 off, then 10 h off.
    const periods = log('2026-06-01T00:00', ['OFF', 8], ['D', 10], ['ON', 5], ['OFF', 11]);
    const r = auditLog(periods, C1);
    expect(r.violations).toEqual([]);
    expect(r.dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(1) }]);
    expect(auditLog(periods, C2).dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(1) }]);
  });

  it('s. 14(1): exactly 10 h off is no finding', () => {
    expect(auditLog(log('2026-06-01T00:00', ['OFF', 8], ['D', 10], ['ON', 4], ['OFF', 12]), C1).dayFindings).toEqual([]);
  });

  it('s. 14(2): off-duty time beyond the 8 consecutive hours counts only in blocks of ≥ 30 min', () => {
    // 8 h + two blocks of 30 min + 1 h = 10 h: compliant.
    const halfHours = log('2026-06-01T00:00', ['OFF', 8], ['D', 6], ['OFF', 0.5], ['D', 6], ['OFF', 0.5], ['ON', 2], ['OFF', 1]);
    expect(auditLog(halfHours, C1)).toEqual({ violations: [], dayFindings: [] });
    // The same day with blocks of 20 min: the 40 minutes do not count, the day holds 9 h.
    const third = 1 / 3;
    const short = log('2026-06-01T00:00', ['OFF', 8], ['D', 6], ['OFF', third], ['D', 6], ['OFF', third], ['ON', 2 + 2 * (0.5 - third)], ['OFF', 1]);
    expect(auditLog(short, C1).dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(1) }]);
  });

  it('s. 14(3): a block of 10 consecutive hours holds both the 8 h and the 2 h beyond them', () => {
    expect(auditLog(log('2026-06-01T00:00', ['OFF', 10], ['ON', 1], ['D', 12], ['ON', 1]), C1).dayFindings).toEqual([]);
  });

  it('every day of a multi-day log is judged; rest across midnight counts in each day for its part', () => {
    // Day 1: 00-08 off, 08-20 work, 20-24 off (4 h, part of a 12-h block). Day 2: 00-08 off, 08-23 work, 23-24 off.
    const periods = log('2026-06-01T00:00', ['OFF', 8], ['ON', 1], ['D', 10], ['ON', 1], ['OFF', 12], ['D', 10], ['ON', 5], ['OFF', 1], ['OFF', 10]);
    expect(auditLog(periods, C1).dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-02', shortMs: hours(1) }]);
  });

  it('a day the log does not cover to its end: only a certain shortfall is a finding', () => {
    // Log ends at 12:00 after 12 h of work: 12 h are left, the day can still hold 10 h off.
    expect(auditLog(log('2026-06-01T00:00', ['ON', 2], ['D', 10]), C1).dayFindings).toEqual([]);
    // 15 h of work by 15:00: at most 9 h off are left.
    expect(auditLog(log('2026-06-01T00:00', ['ON', 5], ['D', 10]), C1).dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(1) }]);
    // A log ending at 23:50 with a 20-min rest may continue it past midnight: 9 h + 20 min + 10 min.
    expect(auditLog(log('2026-06-01T00:00', ['OFF', 9], ['D', 13], ['ON', 1.5], ['OFF', 1 / 3]), C1).dayFindings).toEqual([
      { rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(0.5) },
    ]);
  });

  it('s. 16 (C6): a declared day 1 needs 8 h; day 2 needs 10 h plus the deferred time', () => {
    // Day 1: 00-08 off, 08-20 driving, 20-22:30 on duty, 22:30-24 off: 9.5 h off (0.5 h deferred).
    // Day 2: 00-09 off, 09-18 driving, 18-23 on duty, 23-24 off: 10 h off, 10.5 h owed.
    const periods = log('2026-06-01T00:00', ['OFF', 8], ['D', 12], ['ON', 2.5], ['OFF', 10.5], ['D', 9], ['ON', 5], ['OFF', 1]);
    const plain = auditLog(periods, C1);
    expect(plain.dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(0.5) }]);
    const deferred: HosOptions = { ...C1, deferrals: [{ day: '2026-06-01' }] };
    const r = auditLog(periods, deferred);
    expect(brief(r.violations)).toEqual([]);
    expect(r.dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-02', shortMs: hours(0.5) }]);
  });

  it('the day follows the carrier’s day start (cycleDayStart)', () => {
    // With days starting at 06:00 the 8 h off 00-08 are split 6 + 2 between two days.
    const periods = log('2026-06-01T06:00', ['OFF', 2], ['D', 10], ['ON', 5], ['OFF', 7], ['OFF', 10]);
    // Day 2026-06-01 (06:00-06:00): 2 h + 7 h (23:00-06:00) = 9 h.
    expect(auditLog(periods, { ...C1, cycleDayStart: '06:00' }).dayFindings).toEqual([{ rule: 'DAILY_OFF_DUTY', day: '2026-06-01', shortMs: hours(1) }]);
  });

  it('US and state rulesets never produce day findings', () => {
    const periods = log('2026-06-01T00:00', ['OFF', 8], ['D', 10], ['ON', 5], ['OFF', 11]);
    for (const id of ['US_PROPERTY_70_8', 'US_PROPERTY_60_7', 'US_PASSENGER_70_8', 'US_PASSENGER_60_7', 'TX_INTRASTATE', 'CA_INTRASTATE'] as const) {
      expect(auditLog(periods, opts(id)).dayFindings).toEqual([]);
    }
  });
});
