import { formatHm, ROWS, toMs, type DaySpan, type DutyStatus, type LogDay, type RowTotals, type SpecialCondition } from './graph-grid-geometry.ts';

/** Row names as printed on the grid; the short ones are used on small screens. */
export const ROW_NAMES: Record<DutyStatus, string> = { OFF: 'Off duty', SB: 'Sleeper berth', D: 'Driving', ON: 'On duty' };
export const ROW_SHORT: Record<DutyStatus, string> = { OFF: 'OFF', SB: 'SB', D: 'D', ON: 'ON' };
export const SPECIAL_NAMES: Record<SpecialCondition, string> = { PC: 'personal conveyance', YM: 'yard moves' };

/** "Off duty", or "Off duty, personal conveyance (PC)". */
export function statusName(span: Pick<DaySpan, 'status' | 'special'>): string {
  const base = ROW_NAMES[span.status];
  return span.special ? `${base}, ${SPECIAL_NAMES[span.special]} (${span.special})` : base;
}

/** "DRIVING_LIMIT" → "Driving limit". */
export function ruleName(rule: string): string {
  const words = rule.toLowerCase().replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Clock time of a moment of the day (ms after its start), 12-hour en-US: in `timeZone` when given,
 * else counted from the day's start as if it were midnight (as the hour labels are).
 */
export function clockTime(offsetMs: number, day: LogDay, timeZone?: string): string {
  if (timeZone) {
    let f = clockFormats.get(timeZone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true });
      clockFormats.set(timeZone, f);
    }
    return f.format(toMs(day.start) + offsetMs);
  }
  const minutes = Math.floor(offsetMs / 60_000) % (24 * 60);
  const h = Math.floor(minutes / 60);
  const m = String(minutes % 60).padStart(2, '0');
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Duration of a span as h:mm, to the nearest minute. */
export function spanDuration(span: DaySpan): string {
  return formatHm((span.to - span.from) / 60_000);
}

/**
 * The accessible summary of the grid, e.g. "Record of duty status, 2026-06-10: Off duty 10:15,
 * Sleeper berth 0:00, Driving 11:00, On duty 2:45, total 24:00. 1 violation."
 */
export function gridSummary(args: {
  day: LogDay;
  totals: RowTotals;
  live: boolean;
  nowLabel?: string;
  violations: number;
}): string {
  const { day, totals, live, nowLabel, violations } = args;
  const hours = Math.round(day.lengthMs / 3_600_000);
  const length = hours === 24 ? '' : ` (${hours}-hour day)`;
  const rows = ROWS.map((r) => `${ROW_NAMES[r]} ${formatHm(totals[r])}`).join(', ');
  const total = formatHm(ROWS.reduce((a, r) => a + totals[r], 0));
  const sofar = live ? `, total so far ${total}${nowLabel ? ` at ${nowLabel}` : ''}` : `, total ${total}`;
  const v = violations === 0 ? '' : ` ${violations} violation${violations === 1 ? '' : 's'}.`;
  return `Record of duty status, ${day.date}${length}: ${rows}${sofar}.${v}`;
}
