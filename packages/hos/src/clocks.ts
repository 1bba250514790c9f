import { walk, sixteenAvailable } from './audit.ts';
import { gridFor, parseInput } from './context.ts';
import { dayIndex } from './days.ts';
import { HosInputError } from './errors.ts';
import { parseInstant } from './instant.ts';
import { BREAK_AFTER_DRIVING_MS, BREAK_MS, OFF24_MS, SIXTEEN_HOUR_WINDOW_MS } from './rulesets.ts';
import { candidates, MAX_PAIR_REACH, qualifies, type Best } from './sleeper.ts';
import { buildTimeline, D, driveAt, onAt, type RestBlock } from './timeline.ts';
import { acquire, release, type Workspace } from './workspace.ts';
import type { Clocks, ClocksResult, DutyPeriod, HosOptions } from './types.ts';

const pos = (ms: number): number => (ms > 0 ? ms : 0);

/**
 * Clocks at the instant `at`, judged only from the periods before it (a period running through `at`
 * counts up to `at`; time after the last period and before `at` has no recorded work and counts as
 * off duty). `strict` counts only completed sleeper-berth pairs; `provisional` also assumes the most
 * recent qualifying rest period will be paired later, as a driver planning a split would.
 * Remaining values never go below 0. Throws HosInputError for bad periods, options or `at`.
 */
export function clocksAt(periods: DutyPeriod[], at: string, options: HosOptions): ClocksResult {
  const ws = acquire();
  try {
    return clocksWith(ws, periods, at, options);
  } finally {
    release(ws);
  }
}

function clocksWith(ws: Workspace, periods: DutyPeriod[], at: string, options: HosOptions): ClocksResult {
  const { raw, set } = parseInput(periods, options, ws);
  const now = parseInstant(String(at));
  if (Number.isNaN(now)) throw new HosInputError(`at ${JSON.stringify(at)} is not an ISO-8601 instant with offset or Z`, null, 'at');
  const { cfg } = set;
  const tl = buildTimeline(raw, ws, now);
  // Only the cycle's days before `now` matter, unless the 16-hour exception needs the whole history.
  const grid = set.sixteenHour ? gridFor(set, tl, now) : gridFor(set, tl, now, cfg.cycle.days + 1);
  const { blocks } = tl;

  // State after the last rest block before `now`.
  let reset: RestBlock = blocks[0]!;
  let past: RestBlock[] = [];
  let restartEnd = -Infinity;
  let last24: RestBlock = blocks[0]!;
  for (const blk of blocks) {
    if (blk.len >= cfg.resetMs) {
      reset = blk;
      past = [];
    } else if (cfg.split && qualifies(cfg.split, blk)) {
      past.push(blk);
      if (past.length > MAX_PAIR_REACH) past.shift();
    }
    if (cfg.cycle.restartMs !== null && blk.len >= cfg.cycle.restartMs) restartEnd = blk.end;
    if (blk.len >= OFF24_MS) last24 = blk;
  }
  const dp = tl.driveBefore[tl.n]!;
  const op = tl.onBefore[tl.n]!;
  const shiftStart = tl.n > 0 ? reset.end : now;
  const adverse = set.adverse.some((a) => a.start <= now && a.end > shiftStart);

  let elapsedLimit = cfg.elapsedMs === null ? null : cfg.elapsedMs + (adverse ? cfg.adverse.elapsedMs : 0);
  if (set.sixteenHour && elapsedLimit !== null && elapsedLimit < SIXTEEN_HOUR_WINDOW_MS && tl.n > 0) {
    const state = walk({ set, cfg, tl, grid }, null);
    if (sixteenAvailable(state, shiftStart, dayIndex(grid, shiftStart), restartEnd)) elapsedLimit = SIXTEEN_HOUR_WINDOW_MS;
  }

  // 30-minute break: driving since the end of the last ≥ 30-min non-driving period.
  let breakMs: number | null = null;
  if (set.breakRule) {
    let since = 0;
    let prevEnd = -Infinity;
    for (let i = 0; i < tl.n; i++) {
      if (tl.cat[i] !== D) continue;
      if (tl.start[i]! - prevEnd >= BREAK_MS) since = 0;
      since += tl.end[i]! - tl.start[i]!;
      prevEnd = tl.end[i]!;
    }
    if (now - prevEnd >= BREAK_MS) since = 0;
    breakMs = pos(BREAK_AFTER_DRIVING_MS - since);
  }

  // Cycle and Canada's day rules.
  const d = dayIndex(grid, now);
  const w = d - cfg.cycle.days + 1;
  const windowStart = w >= 0 ? grid.starts[w]! : -Infinity;
  const base = windowStart > restartEnd ? windowStart : restartEnd;
  const cycleUsedMs = op - onAt(tl, base);
  let cycleMs = pos(cfg.cycle.limitMs - cycleUsedMs);
  let dailyDrive = Infinity;
  let dailyShift = Infinity;
  const canada = cfg.canada;
  if (canada) {
    const ds = grid.starts[d]!;
    const de = grid.starts[d + 1]!;
    const dsDrive = driveAt(tl, ds);
    const dsOn = onAt(tl, ds);
    const extra = adverse ? cfg.adverse.driveMs : 0;
    dailyDrive = canada.dailyDriveMs + extra - (dp - dsDrive);
    const offSoFar = now - ds - (op - dsOn);
    // Off time still owed today must fit before the day ends; once 10 h are taken it no longer binds.
    const owed = canada.dailyOffMs - offSoFar;
    dailyShift = Math.min(canada.dailyOnDutyMs + extra - (op - dsOn), owed > 0 ? de - now - owed : Infinity);
    const w14 = d - canada.off24Days + 1;
    const w14Start = w14 >= 0 ? grid.starts[w14]! : -Infinity;
    const from24 = last24.start > w14Start ? last24.start : w14Start;
    if (from24 !== -Infinity && Math.min(last24.end, now) - from24 < OFF24_MS) cycleMs = 0;
    if (canada.onDutyBefore24OffMs !== null) {
      cycleMs = Math.min(cycleMs, pos(canada.onDutyBefore24OffMs - (op - tl.onBefore[last24.endSeg]!)));
    }
  }

  const clocks = (best: Best): Clocks => {
    let minDrive = dp - best.d0;
    let minWin = now - best.windowFrom;
    let minOn = op - best.o0;
    if (tl.n === 0) minDrive = minWin = minOn = 0;
    const driveLeft = cfg.driveMs + (adverse ? cfg.adverse.driveMs : 0) - minDrive;
    let windowLeft = Infinity;
    if (elapsedLimit !== null) windowLeft = elapsedLimit - minWin;
    if (cfg.onDutyMs !== null) windowLeft = Math.min(windowLeft, cfg.onDutyMs + (adverse ? cfg.adverse.onDutyMs : 0) - minOn);
    return {
      driveMs: pos(Math.min(driveLeft, dailyDrive)),
      windowMs: pos(Math.min(windowLeft, dailyShift)),
      breakMs,
      cycleMs,
    };
  };

  return {
    strict: clocks(candidates(tl, cfg.split, reset, past, null, false)),
    provisional: clocks(candidates(tl, cfg.split, reset, past, null, true)),
    cycleUsedMs: pos(cycleUsedMs),
  };
}
