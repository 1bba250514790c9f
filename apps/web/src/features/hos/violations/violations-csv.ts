import type { HosViolation } from '@fleet/api-contract';
import { unparseCsv } from '../../../lib/csv.ts';
import { formatHoursMinutes } from '../availability/clock-format.ts';
import { dayFindingLabel, ruleLabel, RULESET_LABELS, SEVERITY_LABELS } from './rule-words.ts';

// Instants are UTC (ISO-8601 with Z) and say so; the log day is the driver's, in the zone named beside it (decision 0140).
const HEADER = [
  'Driver',
  'Rule',
  'Rule code',
  'Start (UTC)',
  'End (UTC)',
  'Duration (H:MM)',
  'Severity',
  'Log day (home terminal)',
  'Home time zone',
  'Ruleset',
];

/**
 * The violations as CSV, the same words as the screen plus the engine's rule code; instants in
 * ISO-8601 so spreadsheets sort them. A leading BOM, as the registry exports, so UTF-8 names read right.
 */
export function violationsCsv(rows: HosViolation[]): string {
  const data = rows.map((v) => [
    `${v.driver.firstName} ${v.driver.lastName}`,
    v.shortMs === null ? ruleLabel(v.rule, v.ruleset) : dayFindingLabel(v.rule),
    v.rule,
    v.start,
    v.end,
    formatHoursMinutes(v.durationMs),
    SEVERITY_LABELS[v.severity],
    v.logDate,
    v.timeZone,
    RULESET_LABELS[v.ruleset],
  ]);
  return `\uFEFF${unparseCsv(HEADER, data)}\r\n`;
}
