import { formatHm, ROWS, toMs, type DaySpan, type DutyStatus, type LogDay, type RowTotals, type SpecialCondition } from './graph-grid-geometry.ts';

/** Row names as printed on the grid; the short ones are used on small screens. */
export const ROW_NAMES: Record<DutyStatus, string> = { OFF: 'Off duty', SB: 'Sleeper berth', D: 'Driving', ON: 'On duty' };
export const ROW_SHORT: Record<DutyStatus, string> = { OFF: 'OFF', SB: 'SB', D: 'D', ON: 'ON' };
export const SPECIAL_NAMES: Record<SpecialCondition, string> = { PC: 'personal conveyance', YM: 'yard moves' };

/** "DRIVING_LIMIT" → "Driving limit". */
export function ruleName(rule: string): string {
  const words = rule.toLowerCase().replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The grid's words in the viewer's language (issue 44: the driver's screens in Spanish and French).
 * ENGLISH is what the grid always said; the ELD's short row codes (OFF, SB, D, ON, PC, YM) stay.
 */
export interface GridWords {
  rows: Record<DutyStatus, string>;
  special: Record<SpecialCondition, string>;
  /** Hour labels for midnight and noon. */
  mid: string;
  noon: string;
  total: string;
  now: string;
  /** Rule and severity codes in words. */
  rule: (code: string) => string;
  /** Intl locale of clock times (12-hour in English). */
  clockLocale: string;
  table: { statusesOn: string; violationsOn: string; start: string; end: string; status: string; duration: string; rule: string; severity: string };
  legend: { pc: string; ym: string; violation: string };
  summary: { record: string; hourDay: (hours: number) => string; total: string; totalSoFar: string; at: string; violations: (n: number) => string };
}

export const ENGLISH: GridWords = {
  rows: ROW_NAMES,
  special: SPECIAL_NAMES,
  mid: 'Mid',
  noon: 'Noon',
  total: 'Total',
  now: 'Now',
  rule: ruleName,
  clockLocale: 'en-US',
  table: {
    statusesOn: 'Duty statuses on',
    violationsOn: 'Violations on',
    start: 'Start',
    end: 'End',
    status: 'Status',
    duration: 'Duration',
    rule: 'Rule',
    severity: 'Severity',
  },
  legend: { pc: 'PC: personal conveyance, counted as off duty', ym: 'YM: yard moves, counted as on duty', violation: 'Violation' },
  summary: {
    record: 'Record of duty status',
    hourDay: (hours) => `${hours}-hour day`,
    total: 'total',
    totalSoFar: 'total so far',
    at: 'at',
    violations: (n) => `${n} violation${n === 1 ? '' : 's'}`,
  },
};

/** "Off duty", or "Off duty, personal conveyance (PC)". */
export function statusName(span: Pick<DaySpan, 'status' | 'special'>, w: GridWords = ENGLISH): string {
  const base = w.rows[span.status];
  return span.special ? `${base}, ${w.special[span.special]} (${span.special})` : base;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Clock time of a moment of the day (ms after its start), 12-hour en-US: in `timeZone` when given,
 * else counted from the day's start as if it were midnight (as the hour labels are).
 */
export function clockTime(offsetMs: number, day: LogDay, timeZone?: string, locale = 'en-US'): string {
  const english = locale === 'en-US';
  if (timeZone) {
    const key = `${locale}|${timeZone}`;
    let f = clockFormats.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit', hour12: english });
      clockFormats.set(key, f);
    }
    return f.format(toMs(day.start) + offsetMs);
  }
  const minutes = Math.floor(offsetMs / 60_000) % (24 * 60);
  const h = Math.floor(minutes / 60);
  const m = String(minutes % 60).padStart(2, '0');
  return english ? `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'AM' : 'PM'}` : `${h}:${m}`;
}

/** Duration of a span as h:mm, to the nearest minute. */
export function spanDuration(span: DaySpan): string {
  return formatHm((span.to - span.from) / 60_000);
}

/**
 * The accessible summary of the grid, e.g. "Record of duty status, 2026-06-10: Off duty 10:15,
 * Sleeper berth 0:00, Driving 11:00, On duty 2:45, total 24:00. 1 violation."
 */
export function gridSummary(args: { day: LogDay; totals: RowTotals; live: boolean; nowLabel?: string; violations: number; words?: GridWords }): string {
  const { day, totals, live, nowLabel, violations, words: w = ENGLISH } = args;
  const hours = Math.round(day.lengthMs / 3_600_000);
  const length = hours === 24 ? '' : ` (${w.summary.hourDay(hours)})`;
  const rows = ROWS.map((r) => `${w.rows[r]} ${formatHm(totals[r])}`).join(', ');
  const total = formatHm(ROWS.reduce((a, r) => a + totals[r], 0));
  const sofar = live ? `, ${w.summary.totalSoFar} ${total}${nowLabel ? ` ${w.summary.at} ${nowLabel}` : ''}` : `, ${w.summary.total} ${total}`;
  const v = violations === 0 ? '' : ` ${w.summary.violations(violations)}.`;
  return `${w.summary.record}, ${day.date}${length}: ${rows}${sofar}.${v}`;
}
