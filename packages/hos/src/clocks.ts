import { cycleAt, markRest, noRestMarks, nonCdlLongDay, sixteenAvailable, walk } from './audit.ts';
import { applySwitches } from './cycle-switch.ts';
import { gridFor, parseInput } from './context.ts';
import { dayIndex } from './days.ts';
import { dayOff, longestRest, noSplitOnDeferralDays } from './deferral.ts';
import { HosInputError } from './errors.ts';
import { BREAK_AFTER_DRIVING_MS, BREAK_MS, OFF24_MS, SIXTEEN_HOUR_WINDOW_MS, type RulesetConfig } from './rulesets.ts';
import { candidates, type Best } from './sleeper.ts';
import { buildTimeline, D, driveAt, onAt, readInstant } from './timeline.ts';
import { acquire, release, type Workspace } from './workspace.ts';
import type { Clocks, ClocksResult, DutyPeriodInput, HosOptions } from './types.ts';

function pos(ms: number): number {
  return ms > 0 ? ms : 0;
}

/**
 * Clocks at the instant `at`, judged only from the periods before it (a period running through `at`
 * counts up to `at`; time after the last period and before `at` has no recorded work and counts as
 * off duty). `strict` counts only completed sleeper-berth pairs; `provisional` also assumes the most
 * recent qualifying rest period will be paired later, as a driver planning a split would.
 * Remaining values never go below 0. Throws HosInputError for bad periods, options or `at`.
 */
export function clocksAt(periods: DutyPeriodInput[], at: string | number, options: HosOptions): ClocksResult {
  const ws = acquire();
  try {
    return clocksWith(ws, periods, at, options);
  } finally {
    release(ws);
  }
}

function clocksWith(ws: Workspace, periods: DutyPeriodInput[], at: string | number, options: HosOptions): ClocksResult {
  // `at` is read first: nothing the caller supplies may run once the log is parsed (log-memo.ts).
  const atValue = typeof at === 'number' ? at : String(at);
  const { raw, set } = parseInput(periods, options, ws);
  const now = readInstant(atValue);
  if (Number.isNaN(now)) throw new HosInputError(`at ${JSON.stringify(at)} is not an ISO-8601 instant with offset or Z (or epoch milliseconds)`, null, 'at');
  const tl = buildTimeline(raw, ws, now, set.waiting);
  // Only the cycle's days before `now` matter, unless the 16-hour exception needs the whole history.
  // A Canadian driver's cycle switch may lengthen the cycle's days to cycle 2's 14.
  const grid = set.sixteenHour || set.nonCdl ? gridFor(set, tl, now) : gridFor(set, tl, now, (set.switches.length > 0 ? 14 : set.cfg.cycle.days) + 1);
  noSplitOnDeferralDays(set, tl, grid);
  const cfg = applySwitches(set, tl, grid, null);
  const { nb, bEnd } = tl;

  // State after the last rest block before `now`.
  const marks = noRestMarks();
  for (let b = 0; b < nb; b++) markRest(marks, cfg, tl, b);
  const { reset, past, restartEnd, last24 } = marks;
  const dp = tl.driveBefore[tl.n]!;
  const op = tl.onBefore[tl.n]!;
  const shiftStart = tl.n > 0 ? bEnd[reset]! : now;
  let adverse = false;
  for (const a of set.adverse) if (a.start <= now && a.end > shiftStart) adverse = true;

  let elapsedLimit = cfg.elapsedMs === null ? null : cfg.elapsedMs + (adverse ? cfg.adverse.elapsedMs : 0);
  if (set.sixteenHour && elapsedLimit !== null && elapsedLimit < SIXTEEN_HOUR_WINDOW_MS && tl.n > 0) {
    const state = walk({ set, cfg, tl, grid }, null);
    if (sixteenAvailable(state, shiftStart, dayIndex(grid, shiftStart), restartEnd)) elapsedLimit = SIXTEEN_HOUR_WINDOW_MS;
  } else if (set.nonCdl && elapsedLimit !== null && elapsedLimit < SIXTEEN_HOUR_WINDOW_MS && tl.n > 0) {
    // P15: the 16th hour if fewer than 2 of the last 7 days drove past the 14th (or this shift already may).
    const state = walk({ set, cfg, tl, grid }, null);
    if (nonCdlLongDay(state, dayIndex(grid, shiftStart), false)) elapsedLimit = SIXTEEN_HOUR_WINDOW_MS;
  }

  // 30-minute break: driving since the end of the last ≥ 30-min non-driving period.
  let breakMs: number | null = null;
  if (set.breakRule && cfg.ownBreak?.restOnly === true) {
    // Mexico (NOM-087): driving since the last rest block of ≥ 30 min (the virtual block counts).
    let b = nb - 1;
    while (b > 0 && tl.bLen[b]! < BREAK_MS) b--;
    breakMs = pos(cfg.ownBreak.afterDrivingMs - (dp - tl.driveBefore[tl.bNext[b]!]!));
  } else if (set.breakRule) {
    let since = 0;
    let prevEnd = -Infinity;
    for (let i = 0; i < tl.n; i++) {
      if (tl.cat[i] !== D) continue;
      if (tl.start[i]! - prevEnd >= BREAK_MS) since = 0;
      since += tl.end[i]! - tl.start[i]!;
      prevEnd = tl.end[i]!;
    }
    if (now - prevEnd >= BREAK_MS) since = 0;
    breakMs = pos((cfg.ownBreak?.afterDrivingMs ?? BREAK_AFTER_DRIVING_MS) - since);
  }

  // Cycle and Canada's day rules.
  const d = dayIndex(grid, now);
  const cyc = cycleAt(cfg, now);
  const w = d - cyc.cycle.days + 1;
  const windowStart = w >= 0 ? grid.starts[w]! : -Infinity;
  let base = windowStart > restartEnd ? windowStart : restartEnd;
  if (cyc.zeroFrom > base) base = cyc.zeroFrom;
  const cycleUsedMs = op - onAt(tl, base);
  let cycleMs = pos(cyc.cycle.limitMs - cycleUsedMs);
  let dailyDrive = Infinity;
  let dailyShift = Infinity;
  const canada = cfg.canada;
  if (canada) {
    const ds = grid.starts[d]!;
    const de = grid.starts[d + 1]!;
    const dsDrive = driveAt(tl, ds);
    const dsOn = onAt(tl, ds);
    const extra = adverse ? cfg.adverse.driveMs : 0;
    const rule = dayOff(set, tl, grid, d, { offMs: 0, consecutiveMs: 0, pairFrom: NaN });
    dailyDrive = canada.dailyDriveMs + extra - (dp - dsDrive);
    // C6: days 1 and 2 of a deferral together allow 26 h of driving.
    if (rule.pairFrom === rule.pairFrom) dailyDrive = Math.min(dailyDrive, canada.deferTwoDayDriveMs - (dp - driveAt(tl, rule.pairFrom)));
    const offSoFar = now - ds - (op - dsOn);
    // Off time still owed today must fit before the day ends; once it is taken it no longer binds.
    const owed = rule.offMs - offSoFar;
    let offLeft = owed > 0 ? de - now - owed : Infinity;
    // C6 day 2: the consecutive off-duty period (8 h + the deferred time) must still fit in the day.
    if (rule.consecutiveMs > 0 && longestRest(tl, ds, now) < rule.consecutiveMs) offLeft = Math.min(offLeft, de - rule.consecutiveMs - now);
    dailyShift = Math.min(canada.dailyOnDutyMs + extra - (op - dsOn), offLeft);
    const w14 = d - canada.off24Days + 1;
    const w14Start = w14 >= 0 ? grid.starts[w14]! : -Infinity;
    const l24Start = tl.bStart[last24]!;
    const from24 = l24Start > w14Start ? l24Start : w14Start;
    if (from24 !== -Infinity && Math.min(bEnd[last24]!, now) - from24 < OFF24_MS) cycleMs = 0;
    if (cyc.onDutyBefore24OffMs !== null) {
      const from = cyc.zeroFrom > bEnd[last24]! ? onAt(tl, cyc.zeroFrom) : tl.onBefore[tl.bNext[last24]!]!;
      cycleMs = Math.min(cycleMs, pos(cyc.onDutyBefore24OffMs - (op - from)));
    }
  }

  // The two judgements differ only in the calculation period (strict: completed pairs only).
  const waitNow = tl.waitBefore === null ? 0 : tl.waitBefore[tl.n]!;
  const j: Judge = { dp, now, op, empty: tl.n === 0, cfg, adverse, elapsedLimit, dailyDrive, dailyShift, breakMs, cycleMs, waitNow };
  const best: Best = { d0: 0, o0: 0, windowFrom: 0 };
  return {
    strict: clocksFor(j, candidates(tl, cfg.split, reset, past, 0, 0, false, best)),
    provisional: clocksFor(j, candidates(tl, cfg.split, reset, past, 0, 0, true, best)),
    cycleUsedMs: pos(cycleUsedMs),
  };
}

/** What clocksFor needs besides the calculation period. */
interface Judge {
  dp: number;
  now: number;
  op: number;
  empty: boolean;
  cfg: RulesetConfig;
  adverse: boolean;
  elapsedLimit: number | null;
  dailyDrive: number;
  dailyShift: number;
  breakMs: number | null;
  cycleMs: number;
  /** §395.1(d)(2): well-site waiting time before `now` (0 without the oilfield exemption). */
  waitNow: number;
}

function clocksFor(j: Judge, best: Best): Clocks {
  const { cfg, adverse } = j;
  let minDrive = j.dp - best.d0;
  let minWin = j.now - j.waitNow - best.windowFrom;
  let minOn = j.op - best.o0;
  if (j.empty) minDrive = minWin = minOn = 0;
  const driveLeft = cfg.driveMs + (adverse ? cfg.adverse.driveMs : 0) - minDrive;
  let windowLeft = Infinity;
  if (j.elapsedLimit !== null) windowLeft = j.elapsedLimit - minWin;
  if (cfg.onDutyMs !== null) windowLeft = Math.min(windowLeft, cfg.onDutyMs + (adverse ? cfg.adverse.onDutyMs : 0) - minOn);
  // A ruleset without a shift limit (Mexico's NOM-087) has its driving time as the shift's: a clock is a finite number.
  if (windowLeft === Infinity && j.dailyShift === Infinity) windowLeft = driveLeft;
  return {
    driveMs: pos(Math.min(driveLeft, j.dailyDrive)),
    windowMs: pos(Math.min(windowLeft, j.dailyShift)),
    breakMs: j.breakMs,
    cycleMs: j.cycleMs,
  };
}
