import { describe, expect, it } from 'vitest';
import { VIOLATION_RULES } from '@fleet/api-contract/hos';
import Papa from 'papaparse';
import { RULE_FILTER_LABELS, RULE_HELP, ruleLabel } from './rule-words.ts';
import { violationsCsv } from './violations-csv.ts';
import { daysIn } from './violation-filters.ts';

describe('rule words', () => {
  it('name each rule with its driver’s limit', () => {
    expect(ruleLabel('DRIVING_LIMIT', 'US_PROPERTY_70_8')).toBe('11-hour driving limit');
    expect(ruleLabel('DRIVING_LIMIT', 'US_PASSENGER_70_8')).toBe('10-hour driving limit');
    expect(ruleLabel('DRIVING_LIMIT', 'TX_INTRASTATE')).toBe('12-hour driving limit');
    expect(ruleLabel('DRIVING_LIMIT', 'CA_SOUTH_CYCLE_1')).toBe('13-hour driving limit');
    expect(ruleLabel('WINDOW_LIMIT', 'CA_INTRASTATE')).toBe('16-hour window');
    expect(ruleLabel('CYCLE_LIMIT', 'US_PROPERTY_60_7')).toBe('60-hour/7-day cycle limit');
    expect(ruleLabel('CYCLE_LIMIT', 'CA_SOUTH_CYCLE_2')).toBe('120-hour/14-day cycle limit');
    expect(ruleLabel('ON_DUTY_LIMIT', 'CA_SOUTH_CYCLE_1')).toBe('14-hour on-duty limit');
    expect(ruleLabel('BREAK_REQUIRED', 'US_PROPERTY_70_8')).toBe('30-minute break');
  });

  it('name the Florida, Alaska and Mexican limits (issue 72)', () => {
    expect(ruleLabel('DRIVING_LIMIT', 'FL_INTRASTATE_70_7')).toBe('12-hour driving limit');
    expect(ruleLabel('WINDOW_LIMIT', 'FL_INTRASTATE_80_8')).toBe('16-hour window');
    expect(ruleLabel('DRIVING_LIMIT', 'AK_PASSENGER_80_8')).toBe('15-hour driving limit');
    expect(ruleLabel('ON_DUTY_LIMIT', 'AK_PROPERTY_70_7')).toBe('20-hour on-duty limit');
    expect(ruleLabel('CYCLE_LIMIT', 'AK_PROPERTY_80_8')).toBe('80-hour/8-day cycle limit');
    expect(ruleLabel('DRIVING_LIMIT', 'MX_NOM_087')).toBe('14-hour driving limit');
    expect(ruleLabel('BREAK_REQUIRED', 'MX_NOM_087')).toBe('30-minute pause after 5 hours (NOM-087)');
  });

  it('cover every rule the engine reports, in the filter and in the help', () => {
    for (const r of VIOLATION_RULES) {
      expect(RULE_FILTER_LABELS[r]).toBeTruthy();
      expect(RULE_HELP[r]).toBeTruthy();
    }
  });
});

describe('the CSV', () => {
  it('has a header and one quoted-where-needed row per violation', () => {
    const csv = violationsCsv([
      {
        driver: { id: 'd', firstName: 'Ann', lastName: 'Lee, Jr.' },
        rule: 'DRIVING_LIMIT',
        start: '2026-06-01T17:00:00.000Z',
        end: '2026-06-01T18:30:00.000Z',
        durationMs: 5_400_000,
        severity: 'VIOLATION',
        logDate: '2026-06-01',
        ruleset: 'US_PROPERTY_70_8',
        timeZone: 'America/Chicago',
        logId: 'l',
        shortMs: null,
      },
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<string[]>(csv.slice(1).trim()).data;
    expect(parsed).toEqual([
      ['Driver', 'Rule', 'Rule code', 'Start (UTC)', 'End (UTC)', 'Duration (H:MM)', 'Severity', 'Log day (home terminal)', 'Home time zone', 'Ruleset'],
      [
        'Ann Lee, Jr.',
        '11-hour driving limit',
        'DRIVING_LIMIT',
        '2026-06-01T17:00:00.000Z',
        '2026-06-01T18:30:00.000Z',
        '1:30',
        'Violation',
        '2026-06-01',
        'America/Chicago',
        'US property 70/8',
      ],
    ]);
  });
});

describe('the date range', () => {
  it('counts both ends', () => {
    expect(daysIn('2026-06-01', '2026-06-01')).toBe(1);
    expect(daysIn('2026-06-01', '2026-07-01')).toBe(31);
    expect(daysIn('2026-03-01', '2026-03-31')).toBe(31);
  });
});
