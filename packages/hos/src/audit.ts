import { gridFor, parseInput, type Context } from './context.ts';
import { applySwitches } from './cycle-switch.ts';
import { dayFindings } from './day-findings.ts';
import { checkZone, dayIndex } from './days.ts';
import { dayOff, longestRest, noSplitOnDeferralDays, type DayOff } from './deferral.ts';
import { formatInstant } from './instant.ts';
import { BREAK_AFTER_DRIVING_MS, BREAK_MS, NON_CDL_LONG_DAYS, NON_CDL_PERIOD_DAYS, OFF24_MS, SIXTEEN_HOUR_WINDOW_MS, type RulesetConfig } from './rulesets.ts';
import { candidates, MAX_PAIR_REACH, qualifies, type Best } from './sleeper.ts';
import { buildTimeline, D, driveAt, onAt, type Timeline } from './timeline.ts';
import { acquire, release } from './workspace.ts';
import type { AuditResult, DayFinding, DutyPeriodInput, HosOptions, Severity, Violation, ViolationRule } from './types.ts';

const MIN = 60_000;
const H = 3_600_000;
const NOMINAL_MS = 15 * MIN;
const EGREGIOUS_MS = 3 * H;

/** Severity bands (E6, FAQ-2020 Q4): nominal < 15 min, egregious > 3 h. */
export function severityOf(ms: number): Severity {
  return ms < NOMINAL_MS ? 'NOMINAL' : ms > EGREGIOUS_MS ? 'EGREGIOUS' : 'VIOLATION';
}

const RULE_ORDER: ViolationRule[] = [
  'DRIVING_LIMIT',
  'WINDOW_LIMIT',
  'ON_DUTY_LIMIT',
  'SHIFT_ELAPSED_LIMIT',
  'BREAK_REQUIRED',
  'CYCLE_LIMIT',
  'DAILY_DRIVING_LIMIT',
  'DAILY_ON_DUTY_LIMIT',
  'DAILY_OFF_DUTY',
  'CYCLE_OFF_DUTY_REQUIRED',
];

/** Collects violation intervals per rule, merging an interval that continues the previous one. */
class Collector {
  readonly items: Array<{ rule: ViolationRule; start: number; end: number }> = [];
  private readonly last: Partial<Record<ViolationRule, { rule: ViolationRule; start: number; end: number }>> = {};

  /** Driving in (from, to] is over the limit when it lies beyond `threshold`. */
  add(rule: ViolationRule, threshold: number, from: number, to: number): void {
    if (!(threshold < to)) return;
    const start = threshold > from ? threshold : from;
    const prev = this.last[rule];
    if (prev && prev.end === start) {
      prev.end = to;
      return;
    }
    const item = { rule, start, end: to };
    this.items.push(item);
    this.last[rule] = item;
  }

  /** The violations in time order; driving inside a declared emergency (s. 76) cut out of them. */
  result(emergencies: ReadonlyArray<{ start: number; end: number }> = []): Violation[] {
    const items = emergencies.length ? outside(this.items, emergencies) : this.items;
    return items
      .sort((a, b) => a.start - b.start || RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule))
      .map((v) => ({ rule: v.rule, start: formatInstant(v.start), end: formatInstant(v.end), severity: severityOf(v.end - v.start) }));
  }
}

/**
 * s. 76: the parts of each violation outside the emergencies (sorted by start); a violation split by
 * one becomes two, each with a severity of its own length.
 */
function outside(
  items: ReadonlyArray<{ rule: ViolationRule; start: number; end: number }>,
  emergencies: ReadonlyArray<{ start: number; end: number }>,
): Array<{ rule: ViolationRule; start: number; end: number }> {
  const out: Array<{ rule: ViolationRule; start: number; end: number }> = [];
  for (const v of items) {
    let from = v.start;
    for (const e of emergencies) {
      if (e.end <= from) continue;
      if (e.start >= v.end) break;
      if (e.start > from) out.push({ rule: v.rule, start: from, end: e.start });
      from = Math.max(from, e.end);
      if (from >= v.end) break;
    }
    if (from < v.end) out.push({ rule: v.rule, start: from, end: v.end });
  }
  return out;
}

/** State of the 16-hour exceptions (P16, P15) across shifts. */
export interface SixteenState {
  /** Start of the last shift that drove past the 14th hour under the exception. */
  lastUseShift: number;
  lastUseDay: number;
  /** P15: days (grid indexes of the shift starts) with driving past the 14th hour, in order. */
  longDays: number[];
  /** Whether the last of longDays was allowed to go to the 16th hour. */
  lastLongAllowed: boolean;
}

/**
 * P15 (§395.1(e)(2)): may the shift that came on duty on day `shiftDay` drive past the 14th hour?
 * Yes while fewer than 2 of the 7 consecutive days ending that day already did. Every day that
 * drove past the 14th hour counts, allowed or not (the rule counts days of driving, not claims).
 * With `use` the day is recorded.
 */
export function nonCdlLongDay(s: SixteenState, shiftDay: number, use: boolean): boolean {
  const days = s.longDays;
  const n = days.length;
  if (n > 0 && days[n - 1] === shiftDay) return s.lastLongAllowed;
  let recent = 0;
  for (let k = n - 1; k >= 0 && days[k]! > shiftDay - NON_CDL_PERIOD_DAYS; k--) recent++;
  const allowed = recent < NON_CDL_LONG_DAYS;
  if (use) {
    days.push(shiftDay);
    s.lastLongAllowed = allowed;
  }
  return allowed;
}

export function sixteenAvailable(s: SixteenState, shiftStart: number, shiftDay: number, restartEnd: number): boolean {
  return (
    s.lastUseShift === shiftStart ||
    s.lastUseShift === -Infinity ||
    // "not used in the previous 6 consecutive days" ...
    shiftDay - s.lastUseDay >= 7 ||
    // ... "unless a new 7/8-day period began with a ≥ 34-h restart" after that use.
    restartEnd > s.lastUseShift
  );
}

/**
 * What the rest blocks read so far leave behind, for the audit's walk and the clocks alike: the last
 * full reset, the sleeper-berth candidates since it, the end of the last cycle restart and the last
 * block of 24 h off (0, the virtual block, where none).
 */
export interface RestMarks {
  reset: number;
  past: number[];
  restartEnd: number;
  last24: number;
}

export const noRestMarks = (): RestMarks => ({ reset: 0, past: [], restartEnd: -Infinity, last24: 0 });

/** Takes rest block `b` (blocks in order) into the marks. */
export function markRest(m: RestMarks, cfg: RulesetConfig, tl: Timeline, b: number): void {
  const len = tl.bLen[b]!;
  if (len >= cfg.resetMs) {
    m.reset = b;
    m.past.length = 0;
  } else if (cfg.split && qualifies(cfg.split, tl, b)) {
    m.past.push(b);
    if (m.past.length > MAX_PAIR_REACH) m.past.shift();
  }
  // The restart length of the cycle in force when the block begins (s. 29: a switch may change it).
  const restartMs = cfg.switches ? cycleAt(cfg, tl.bStart[b]!).cycle.restartMs : cfg.cycle.restartMs;
  if (restartMs !== null && len >= restartMs) m.restartEnd = tl.bEnd[b]!;
  if (len >= OFF24_MS) m.last24 = b;
}

/** The cycle in force at `t` (Canada: after the declared switches before it), and where its hours start. */
export interface CycleNow {
  cycle: RulesetConfig['cycle'];
  onDutyBefore24OffMs: number | null;
  zeroFrom: number;
}

export function cycleAt(cfg: RulesetConfig, t: number): CycleNow {
  let now: CycleNow = { cycle: cfg.cycle, onDutyBefore24OffMs: cfg.canada?.onDutyBefore24OffMs ?? null, zeroFrom: -Infinity };
  for (const s of cfg.switches ?? []) {
    if (s.from > t) break;
    now = s;
  }
  return now;
}

/** Per-run state the piece judge reads. */
interface WalkState {
  best: Best;
  shiftStart: number;
  restartEnd: number;
  /** Index of the last rest block of ≥ 24 h (0, the virtual block, if none). */
  last24: number;
  sixteen: SixteenState;
  /** Scratch for the day's off-duty rule (no allocation per piece). */
  dayOff: DayOff;
  /** §395.1(d)(2): well-site waiting time before the piece judged (0 without the exemption). */
  waitAt: number;
}

/**
 * Walks the log once. For each work run between two rest blocks the candidate calculation periods
 * are fixed, so they are computed once per run; each driving period is cut into pieces at day
 * boundaries and at adverse-condition starts, inside which every limit grows linearly.
 */
export function walk(ctx: Context, out: Collector | null): SixteenState {
  const { tl, cfg, set, grid } = ctx;
  const { start, end, cat, nb, bLen, bEnd, bFirst, bNext } = tl;
  const sixteen: SixteenState = { lastUseShift: -Infinity, lastUseDay: -Infinity, longDays: [], lastLongAllowed: false };
  const marks = noRestMarks();
  let prevDriveEnd = -Infinity;
  let sinceBreak = 0;
  // Mexico (NOM-087): only a rest block of ≥ 30 min is a pause; elsewhere any non-driving gap is.
  const restOnly = cfg.ownBreak?.restOnly === true;
  const waitBefore = tl.waitBefore;
  const starts = grid.starts;
  const st: WalkState = {
    best: { d0: 0, o0: 0, windowFrom: 0 },
    shiftStart: 0,
    restartEnd: -Infinity,
    last24: 0,
    sixteen,
    dayOff: { offMs: 0, consecutiveMs: 0, pairFrom: NaN },
    waitAt: 0,
  };

  for (let b = 0; b < nb; b++) {
    markRest(marks, cfg, tl, b);
    if (restOnly && bLen[b]! >= BREAK_MS) sinceBreak = 0;
    const { reset, past, restartEnd, last24 } = marks;
    const runFrom = bNext[b]!;
    const runTo = b + 1 < nb ? bFirst[b + 1]! : tl.n;
    if (tl.driveBefore[runTo]! === tl.driveBefore[runFrom]!) continue;

    // Hindsight: later rest blocks up to and including the next reset may complete a pair.
    let futureTo = b + 1;
    if (cfg.split && past.length > 0) {
      while (futureTo < nb && futureTo - b - 1 < MAX_PAIR_REACH) {
        futureTo++;
        if (bLen[futureTo - 1]! >= cfg.resetMs) break;
      }
    }
    candidates(tl, cfg.split, reset, past, b + 1, futureTo, false, st.best);
    st.shiftStart = bEnd[reset]!;
    st.restartEnd = restartEnd;
    st.last24 = last24;
    const shiftStart = st.shiftStart;

    for (let i = runFrom; i < runTo; i++) {
      if (cat[i] !== D) continue;
      const s = start[i]!;
      const e = end[i]!;
      if (!restOnly && s - prevDriveEnd >= BREAK_MS) sinceBreak = 0;
      // §395.1(d)(2): the window runs on time that is not well-site waiting (see sleeper.ts).
      st.waitAt = waitBefore === null ? 0 : waitBefore[i]!;
      let d = dayIndex(grid, s);
      let ps = s;
      while (ps < e) {
        // Next cut: day boundary or the start of an adverse-conditions claim.
        let pe = d + 1 < starts.length && starts[d + 1]! < e ? starts[d + 1]! : e;
        let adverse = false;
        for (const a of set.adverse) {
          if (a.start <= ps) {
            if (a.end > shiftStart) adverse = true;
          } else if (a.start < pe) {
            pe = a.start;
            break;
          } else break;
        }
        const dp = tl.driveBefore[i]! + (ps - s);
        const op = tl.onBefore[i]! + (ps - s);
        piece(ctx, st, out, ps, pe, d, dp, op, adverse, sinceBreak + (ps - s));
        ps = pe;
        if (d + 1 < starts.length && ps >= starts[d + 1]!) d++;
      }
      sinceBreak += e - s;
      prevDriveEnd = e;
    }
  }
  return sixteen;
}

/** Judges driving in (ps, pe]: one day, constant adverse status, every limit growing linearly. */
function piece(
  ctx: Context,
  st: WalkState,
  out: Collector | null,
  ps: number,
  pe: number,
  d: number,
  dp: number,
  op: number,
  adverse: boolean,
  brk: number,
): void {
  const { tl, cfg, set, grid } = ctx;
  const { best, shiftStart, restartEnd, last24, sixteen } = st;
  const canada = cfg.canada;
  const starts = grid.starts;
  // Used by the most favourable calculation period (see sleeper.ts).
  const minDrive = dp - best.d0;
  const minWin = ps - st.waitAt - best.windowFrom;
  const minOn = op - best.o0;
  out?.add('DRIVING_LIMIT', ps + cfg.driveMs + (adverse ? cfg.adverse.driveMs : 0) - minDrive, ps, pe);
  if (cfg.elapsedMs !== null) {
    let limit = cfg.elapsedMs + (adverse ? cfg.adverse.elapsedMs : 0);
    if (set.sixteenHour && ps + limit - minWin < pe && limit < SIXTEEN_HOUR_WINDOW_MS) {
      const shiftDay = dayIndex(grid, shiftStart);
      if (sixteenAvailable(sixteen, shiftStart, shiftDay, restartEnd)) {
        limit = SIXTEEN_HOUR_WINDOW_MS;
        sixteen.lastUseShift = shiftStart;
        sixteen.lastUseDay = shiftDay;
      }
    } else if (set.nonCdl && ps + cfg.elapsedMs - minWin < pe) {
      // Driving past the 14th hour uses a long day, also when adverse conditions already allow it.
      if (nonCdlLongDay(sixteen, dayIndex(grid, shiftStart), true) && limit < SIXTEEN_HOUR_WINDOW_MS) limit = SIXTEEN_HOUR_WINDOW_MS;
    }
    out?.add(cfg.elapsedRule, ps + limit - minWin, ps, pe);
  }
  if (cfg.onDutyMs !== null) {
    out?.add('ON_DUTY_LIMIT', ps + cfg.onDutyMs + (adverse ? cfg.adverse.onDutyMs : 0) - minOn, ps, pe);
  }
  if (!out) return;
  // P4: 8 h of driving since the last ≥ 30-min non-driving period.
  if (set.breakRule) out.add('BREAK_REQUIRED', ps + (cfg.ownBreak?.afterDrivingMs ?? BREAK_AFTER_DRIVING_MS) - brk, ps, pe);
  // Cycle: on-duty time in the rolling days ending with this day, since the last restart (or switch).
  let cycle = cfg.cycle;
  let on24 = canada ? canada.onDutyBefore24OffMs : null;
  let zeroFrom = -Infinity;
  if (cfg.switches) ({ cycle, onDutyBefore24OffMs: on24, zeroFrom } = cycleAt(cfg, ps));
  const w = d - cycle.days + 1;
  const windowStart = w >= 0 ? starts[w]! : -Infinity;
  let base = windowStart > restartEnd ? windowStart : restartEnd;
  if (zeroFrom > base) base = zeroFrom;
  out.add('CYCLE_LIMIT', ps + cycle.limitMs - (op - onAt(tl, base)), ps, pe);
  if (canada) {
    const ds = starts[d]!;
    const de = starts[d + 1]!;
    const dsDrive = driveAt(tl, ds);
    const dsOn = onAt(tl, ds);
    const extra = adverse ? cfg.adverse.driveMs : 0;
    const rule = dayOff(set, tl, grid, d, st.dayOff);
    let driveFrom = ps + canada.dailyDriveMs + extra - (dp - dsDrive);
    // C6: days 1 and 2 of a deferral together allow 26 h of driving.
    if (rule.pairFrom === rule.pairFrom) driveFrom = Math.min(driveFrom, ps + canada.deferTwoDayDriveMs - (dp - driveAt(tl, rule.pairFrom)));
    out.add('DAILY_DRIVING_LIMIT', driveFrom, ps, pe);
    out.add('DAILY_ON_DUTY_LIMIT', ps + canada.dailyOnDutyMs + extra - (op - dsOn), ps, pe);
    // The day must still hold its off time: driving past (day end − the off time still owed) violates.
    const offSoFar = ps - ds - (op - dsOn);
    let offFrom = de - (rule.offMs - offSoFar);
    // s. 76(2): under adverse driving conditions the off time owed shrinks by the driving past the
    // day's 13 h, up to the claim's 2 h. While it shrinks as fast as the driving grows, a shortfall
    // that had not begun by the 13th hour waits until the 2 h are used.
    if (adverse && offFrom > ps + canada.dailyDriveMs - (dp - dsDrive)) offFrom += cfg.adverse.driveMs;
    // C6 day 2: its consecutive off-duty period (8 h + the deferred time) must still fit in the day.
    if (rule.consecutiveMs > 0 && longestRest(tl, ds, ps) < rule.consecutiveMs) offFrom = Math.min(offFrom, de - rule.consecutiveMs);
    out.add('DAILY_OFF_DUTY', offFrom, ps, pe);
    // C5: a 24-h off period must lie within the 14 days ending with this day.
    const w14 = d - canada.off24Days + 1;
    const w14Start = w14 >= 0 ? starts[w14]! : -Infinity;
    const l24Start = tl.bStart[last24]!;
    const from24 = l24Start > w14Start ? l24Start : w14Start;
    if (from24 !== -Infinity && Math.min(tl.bEnd[last24]!, ps) - from24 < OFF24_MS) {
      out.add('CYCLE_OFF_DUTY_REQUIRED', -Infinity, ps, pe);
    }
    if (on24 !== null) {
      // A switch sets the hours back to zero as a 24-h rest would (its rest is longer).
      const since = zeroFrom > tl.bEnd[last24]! ? op - onAt(tl, zeroFrom) : op - tl.onBefore[tl.bNext[last24]!]!;
      out.add('CYCLE_OFF_DUTY_REQUIRED', ps + on24 - since, ps, pe);
    }
  }
}

/**
 * Judges a whole log with hindsight: a later rest period can complete a sleeper-berth pair and
 * withdraw a violation. Returns every interval of driving beyond a limit of the ruleset.
 * Throws HosInputError for bad periods or options.
 */
export function auditLog(periods: DutyPeriodInput[], options: HosOptions): AuditResult {
  const ws = acquire();
  try {
    const { raw, set } = parseInput(periods, options, ws);
    const tl = buildTimeline(raw, ws, undefined, set.waiting);
    if (tl.n === 0) {
      checkZone(set.zone, true);
      return { violations: [], dayFindings: [] };
    }
    const grid = gridFor(set, tl, tl.end[tl.n - 1]!);
    noSplitOnDeferralDays(set, tl, grid);
    const out = new Collector();
    const dayFindingsOut: DayFinding[] = [];
    const cfg = applySwitches(set, tl, grid, dayFindingsOut);
    walk({ set, cfg, tl, grid }, out);
    dayFindings(set, tl, grid, dayFindingsOut);
    // By day; within a day a switch's finding comes first (sort is stable).
    if (dayFindingsOut.length > 1) dayFindingsOut.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    return { violations: out.result(set.emergencies), dayFindings: dayFindingsOut };
  } finally {
    release(ws);
  }
}
