import { parseInput } from './context.ts';
import { buildDayGrid, checkZone, formatDay } from './days.ts';
import { loggedStatus } from './timeline.ts';
import { acquire, release, type Workspace } from './workspace.ts';
import type { DailyTotal, DutyPeriodInput, HosOptions } from './types.ts';

const KEYS = ['OFF', 'SB', 'D', 'ON'] as const;

/**
 * Time per logged status in each log day (the RODS grid totals): days of 24 h from cycleDayStart in
 * the home-terminal zone (23 or 25 h on daylight-saving days), from the day of the first period to
 * the day of the last one. Statuses are as logged: PC and PASSENGER count as OFF, YM as ON.
 */
export function dailyTotals(periods: DutyPeriodInput[], options: HosOptions): DailyTotal[] {
  const ws = acquire();
  try {
    return totals(ws, periods, options);
  } finally {
    release(ws);
  }
}

function totals(ws: Workspace, periods: DutyPeriodInput[], options: HosOptions): DailyTotal[] {
  const { raw, set } = parseInput(periods, options, ws);
  const n = raw.n;
  if (n === 0) {
    checkZone(set.zone, true);
    return [];
  }
  const first = raw.start[0]!;
  const last = raw.end[n - 1]!;
  const grid = buildDayGrid(set.zone, set.dayStartMin, first, last);
  const out: DailyTotal[] = [];
  const s = grid.starts;
  let i = 0;
  for (let k = 0; k + 1 < s.length && s[k]! < Math.max(last, first + 1); k++) {
    const ds = s[k]!;
    const de = s[k + 1]!;
    const row: DailyTotal = { date: formatDay(grid.firstDay + k), lengthMs: de - ds, OFF: 0, SB: 0, D: 0, ON: 0 };
    while (i < n && raw.end[i]! <= ds) i++;
    for (let j = i; j < n && raw.start[j]! < de; j++) {
      const a = Math.max(raw.start[j]!, ds);
      const b = Math.min(raw.end[j]!, de);
      if (b > a) row[KEYS[loggedStatus(raw.cat[j]!)]!] += b - a;
    }
    out.push(row);
  }
  return out;
}
