import type { Settings } from './context.ts';
import type { DayGrid } from './days.ts';
import { onAt, type Timeline } from './timeline.ts';

/** Canada's off-duty requirement of one log day, with C6 deferrals (SOR/2005-313 s. 16) applied. */
export interface DayOff {
  /** Off-duty time the day must hold. */
  offMs: number;
  /** Consecutive off-duty time the day must hold (0: nothing beyond the shift rules). */
  consecutiveMs: number;
  /** Day 2 of a deferral: start of day 1, from which the two days' driving limit counts; else NaN. */
  pairFrom: number;
}

/**
 * The off-duty rule of day `d` of the grid. Day 1 may defer up to 2 h: it needs 10 h − 2 h. Day 2
 * needs 10 h plus what day 1 deferred (so that the two days hold ≥ 20 h), and the deferred time
 * added to the 8 consecutive hours, inside day 2. Deferring more than 2 h is day 1's violation; day
 * 2 still owes all of it (the literal reading of s. 16 (b)-(c)).
 */
export function dayOff(set: Settings, tl: Timeline, grid: DayGrid, d: number, out: DayOff): DayOff {
  const canada = set.cfg.canada!;
  out.offMs = canada.dailyOffMs;
  out.consecutiveMs = 0;
  out.pairFrom = NaN;
  const days = set.deferDays;
  if (days.size === 0) return out;
  const epoch = grid.firstDay + d;
  if (days.has(epoch)) {
    out.offMs = canada.dailyOffMs - canada.deferMaxMs;
  } else if (d > 0 && days.has(epoch - 1)) {
    const s1 = grid.starts[d - 1]!;
    const s2 = grid.starts[d]!;
    const deferred = canada.dailyOffMs - (s2 - s1 - (onAt(tl, s2) - onAt(tl, s1)));
    if (deferred > 0) {
      out.offMs = canada.dailyOffMs + deferred;
      out.consecutiveMs = set.cfg.resetMs + deferred;
    }
    out.pairFrom = s1;
  }
  return out;
}

/** Longest rest (OFF/SB) inside [from, to), rest blocks clipped to it. */
export function longestRest(tl: Timeline, from: number, to: number): number {
  let best = 0;
  for (let b = 0; b < tl.nb && tl.bStart[b]! < to; b++) {
    const s = tl.bStart[b]! > from ? tl.bStart[b]! : from;
    const e = tl.bEnd[b]! < to ? tl.bEnd[b]! : to;
    if (e - s > best) best = e - s;
  }
  return best;
}

/**
 * C6: s. 16 lets only a driver who is not splitting off-duty time (s. 18/19) defer. A declared
 * deferral binds (reading of decision 0090), so rest blocks touching a declared day 1 or its day 2
 * cannot be sleeper-berth periods: their berth length is cleared in this call's timeline.
 */
export function noSplitOnDeferralDays(set: Settings, tl: Timeline, grid: DayGrid): void {
  if (set.deferDays.size === 0 || !set.cfg.split) return;
  const starts = grid.starts;
  for (const day of set.deferDays) {
    const k = day - grid.firstDay;
    if (k + 2 <= 0 || k >= starts.length) continue;
    const from = k >= 0 ? starts[k]! : -Infinity;
    const to = k + 2 < starts.length ? starts[k + 2]! : Infinity;
    for (let b = 1; b < tl.nb; b++) if (tl.bStart[b]! < to && tl.bEnd[b]! > from) tl.bSb[b] = 0;
  }
}
