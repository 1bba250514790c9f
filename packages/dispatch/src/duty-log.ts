import type { DutyPeriodInput, DutyStatus, Special } from '@fleet/hos';
import type { PlannedSegment } from './types.ts';

// A driver's log as the planner grows it: epoch-millisecond periods (the engine reads numbers without
// parsing text, decision 0099), contiguous, the same status merged.

export interface NumericPeriod {
  status: DutyStatus;
  start: number;
  end: number;
  special?: Special;
}

const DAY = 86_400_000;
/** History the planner keeps: Canada's cycle 2 looks back 14 days; older periods change no clock. */
export const HISTORY_MS = 16 * DAY;

function ms(v: string | number): number {
  return typeof v === 'number' ? v : Date.parse(v);
}

/**
 * The driver's periods up to `now` as numbers: those that ended more than HISTORY_MS before `now` are
 * dropped, one running past `now` is cut there, and a gap before `now` is filled with OFF (no recorded
 * work is off duty, as `clocksAt` reads it; the engine refuses gaps in a log).
 */
export function logUpTo(periods: readonly DutyPeriodInput[], now: number): NumericPeriod[] {
  const out: NumericPeriod[] = [];
  const from = now - HISTORY_MS;
  for (const p of periods) {
    const start = ms(p.start);
    const end = Math.min(ms(p.end), now);
    if (end <= from || start >= now || end <= start) continue;
    const q: NumericPeriod = { status: p.status, start, end };
    if (p.special) q.special = p.special;
    out.push(q);
  }
  const last = out[out.length - 1];
  if (last && last.end < now) out.push({ status: 'OFF', start: last.end, end: now });
  return out;
}

/** Appends [start, end) in `status`, extending the last period when it has the same plain status. */
export function appendPeriod(log: NumericPeriod[], status: DutyStatus, start: number, end: number): void {
  if (end <= start) return;
  const last = log[log.length - 1];
  if (last && last.status === status && last.special === undefined && last.end === start) {
    last.end = end;
    return;
  }
  log.push({ status, start, end });
}

/**
 * Whether the driver's recent log shows sleeper-berth splits: a rest block under 10 h holding 7-10 h
 * of consecutive berth time. Returns the berth length they use (7 or 8 h), or null.
 */
export function splitHabit(log: readonly NumericPeriod[], now: number, lookbackMs = 8 * DAY): number | null {
  let blockStart = -1;
  let sbRun = 0;
  let longest = 0;
  let found: number | null = null;
  const close = (end: number) => {
    if (blockStart >= 0 && end - blockStart < 10 * 3_600_000 && longest >= 7 * 3_600_000 && end > now - lookbackMs) {
      found = longest >= 8 * 3_600_000 ? 8 : 7;
    }
    blockStart = -1;
    longest = 0;
    sbRun = 0;
  };
  for (const p of log) {
    if (p.status === 'OFF' || p.status === 'SB') {
      if (blockStart < 0) blockStart = p.start;
      sbRun = p.status === 'SB' ? sbRun + (p.end - p.start) : 0;
      if (sbRun > longest) longest = sbRun;
    } else close(p.start);
  }
  return found;
}

/** The duty status a segment means for one driver of the plan. */
export function statusIn(segment: PlannedSegment, driverId: string, team: boolean): DutyStatus {
  if (segment.driverId === driverId) {
    if (segment.kind === 'DRIVE' || segment.kind === 'DEADHEAD') return 'D';
    if (segment.kind === 'STOP') return 'ON';
    return team || segment.sleeper ? 'SB' : 'OFF';
  }
  // A team's other driver rides in the berth while one drives or works a stop; both rest in it.
  return 'SB';
}

/**
 * A plan's segments as one driver's duty periods (epoch ms): what the driver's log would show if the
 * plan is followed. A solo driver rests OFF; a team's driver not at the wheel is in the sleeper berth.
 */
export function planDutyPeriods(segments: readonly PlannedSegment[], driverId: string, team: boolean): NumericPeriod[] {
  const out: NumericPeriod[] = [];
  for (const s of segments) appendPeriod(out, statusIn(s, driverId, team), s.start, s.end);
  return out;
}
