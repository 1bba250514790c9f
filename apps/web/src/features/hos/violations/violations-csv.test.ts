// @vitest-environment node
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { HosViolation } from '@fleet/api-contract';
import { violationsCsv } from './violations-csv.ts';

const violation = (firstName: string, lastName: string): HosViolation => ({
  driver: { id: 'd1', firstName, lastName },
  rule: 'DRIVING_LIMIT',
  start: '2026-06-01T17:00:00.000Z',
  end: '2026-06-01T17:30:00.000Z',
  durationMs: 1_800_000,
  severity: 'VIOLATION',
  logDate: '2026-06-01',
  ruleset: 'US_PROPERTY_70_8',
  timeZone: 'America/Chicago',
  logId: 'l1',
  shortMs: null,
});

describe('violationsCsv', () => {
  it('writes a driver name a spreadsheet would run as a formula as text', () => {
    const csv = violationsCsv([violation('=HYPERLINK("http://evil.example")', 'X'), violation('@Ann', 'Lee'), violation('Bo', 'Ray')]);
    const rows = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' }).data;
    expect(rows.map((r) => r.Driver)).toEqual(['\'=HYPERLINK("http://evil.example") X', "'@Ann Lee", 'Bo Ray']);
  });

  it('names a day-level finding (s. 14) as such, its duration the shortfall', () => {
    const day: HosViolation = {
      ...violation('Ann', 'Lee'),
      rule: 'DAILY_OFF_DUTY',
      start: '2026-06-01T05:00:00.000Z',
      end: '2026-06-02T05:00:00.000Z',
      durationMs: 3_600_000,
      shortMs: 3_600_000,
    };
    const rows = Papa.parse<Record<string, string>>(violationsCsv([day]).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' }).data;
    expect(rows.map((r) => [r.Rule, r['Rule code'], r['Duration (H:MM)']])).toEqual([['Less than 10 h off in the day (Canada)', 'DAILY_OFF_DUTY', '1:00']]);
  });
});
