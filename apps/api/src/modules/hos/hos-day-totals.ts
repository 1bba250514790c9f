import type { DailyTotal } from '@fleet/hos';

/** A log day's hours per status as the API shows them (contract `hosDayTotalsSchema`). */
export interface DayTotals {
  lengthMs: number;
  OFF: number;
  SB: number;
  D: number;
  ON: number;
  uncoveredMs: number;
  pendingMs: number;
}

/**
 * The engine's totals of a day made to add up to the day: the part after now is pending, and on a
 * day the driver is on the records for (`onRecords`: a record before the day's end) the part no
 * record covers (before the driver's first record) is counted as OFF and reported as uncoveredMs.
 * So OFF + SB + D + ON + pendingMs = lengthMs on every such day.
 */
export function dayTotals(t: DailyTotal | undefined, startMs: number, endMs: number, nowMs: number, onRecords: boolean): DayTotals {
  const lengthMs = t?.lengthMs ?? endMs - startMs;
  const pendingMs = Math.min(lengthMs, Math.max(0, endMs - Math.max(nowMs, startMs)));
  const covered = t ? t.OFF + t.SB + t.D + t.ON : 0;
  const uncoveredMs = onRecords ? Math.max(0, lengthMs - pendingMs - covered) : 0;
  return { lengthMs, OFF: (t?.OFF ?? 0) + uncoveredMs, SB: t?.SB ?? 0, D: t?.D ?? 0, ON: t?.ON ?? 0, uncoveredMs, pendingMs };
}
