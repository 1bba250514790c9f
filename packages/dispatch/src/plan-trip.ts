import {
  auditAcrossBorders,
  clocksAcrossBorders,
  RESTART_MS,
  type Clocks,
  type DutyStatus,
  type HosOptions,
  type RuleSegment,
  type RulesetId,
} from '@fleet/hos';
import { legCrossings } from './border-crossings.ts';
import { appendPeriod, logUpTo, splitHabit, type NumericPeriod } from './duty-log.ts';
import { measure, pointAlong, type MeasuredLine } from './leg-line.ts';
import { clockWords, formatPlanReason, jurisdictionCodeAt } from './reason.ts';
import type { BorderSide, ClockName, LatLon, PlanInput, PlanIssue, PlannedSegment, PlanStop, RouteLeg, SegmentKind, TripPlan } from './types.ts';

// The legal trip planner (decision 0165). A greedy walk in time: at each decision the engine's strict
// clocks (completed sleeper pairs only, so hindsight can only withdraw a violation) say how long the
// driver at the wheel may drive; when nobody may, the team rests as long as the clock that ran out
// needs. The engine is the only judge of the rules: every ruleset it supports is planned the same way.
// A driver who splits their rest is also planned with splits (provisional clocks); that plan is kept
// only if it is no later and `auditLog` finds it legal with hindsight.

const MIN = 60_000;
const H = 60 * MIN;
/** No driving slice shorter than this (a minute of clock left is not worth starting the engine for). */
const MIN_DRIVE_MS = MIN;
export const BREAK_MS = 30 * MIN;
export const REST_MS = 10 * H;
/** A plan that cannot reach the last stop within this is given up as "no legal plan". */
export const HORIZON_MS = 21 * 24 * H;
/** When the cycle is out: waiting for hours to roll off beats a restart if it gives this much driving (or the leg's rest). */
const ROLL_OFF_USEFUL_MS = 8 * H;
/** Off-duty blocks at least this long are labelled REST; shorter ones BREAK. */
const REST_LABEL_MS = 2 * H;

interface DriverState {
  driverId: string;
  options: HosOptions;
  log: NumericPeriod[];
  /** The driver's ruleset on each side of the border (issue 72); null: options.ruleset throughout. */
  rulesets: Readonly<Record<BorderSide, RulesetId>> | null;
  /** The planned border crossings: from each, the ruleset of the side entered (decision 0313). */
  segments: RuleSegment[];
}

/** The ruleset a driver is planned under at the planner's present (after the crossings so far). */
function rulesetNow(d: DriverState): RulesetId {
  return d.segments.length ? d.segments[d.segments.length - 1]!.ruleset : d.options.ruleset;
}

function avail(c: Clocks): number {
  return Math.min(c.driveMs, c.windowMs, c.breakMs ?? Infinity, c.cycleMs);
}

/** The clock that stops the driver (the most restrictive to recover from first). */
function binding(c: Clocks, threshold: number): ClockName {
  if (c.cycleMs < threshold) return 'CYCLE';
  if (c.driveMs < threshold) return 'DRIVE';
  if (c.windowMs < threshold) return 'WINDOW';
  return 'BREAK';
}

/** Time since the driver's last driving or on-duty period ended (their current rest so far). */
function offRun(log: NumericPeriod[], t: number): number {
  for (let i = log.length - 1; i >= 0; i--) {
    const p = log[i]!;
    if (p.status === 'D' || p.status === 'ON') return t - p.end;
  }
  return t - (log[0]?.start ?? t);
}

class Planner {
  readonly drivers: DriverState[];
  readonly team: boolean;
  readonly segments: PlannedSegment[] = [];
  /** Per rest segment: how long the lead driver had already been off when it began (a restart counts it). */
  readonly offBefore = new Map<PlannedSegment, number>();
  t: number;
  cur = 0;
  here: LatLon;
  gaveUp = false;
  /** A solo US-property driver who splits their rest: the berth part and the short part (ms). */
  readonly split: { long: number; short: number; label: 'SPLIT_7_3' | 'SPLIT_8_2' } | null = null;
  /** A solo US-property driver whose recent log shows sleeper splits. */
  splitHabit = false;
  /** 1 while a split's long part is taken and its short part is still owed. */
  phase: 0 | 1 = 0;
  readonly planned: TripPlan['stops'] = [];
  deadheadMetres = 0;
  remainingDriveMs = 0;
  /** When the last stop's service is over. */
  endsAt: number;

  constructor(
    readonly input: PlanInput,
    allowSplit: boolean,
  ) {
    this.t = input.now;
    this.endsAt = input.now;
    this.here = input.origin;
    this.drivers = input.drivers.map((d) => ({
      driverId: d.driverId,
      options: d.options,
      log: logUpTo(d.periods, input.now),
      rulesets: d.rulesets ?? null,
      segments: [],
    }));
    this.team = this.drivers.length > 1;
    const lead = this.drivers[0]!;
    if (!this.team && lead.options.ruleset.startsWith('US_PROPERTY') && !lead.options.exemptions?.nonCdlShortHaul) {
      const berth = splitHabit(lead.log, input.now);
      this.splitHabit = berth !== null;
      if (berth !== null && allowSplit) this.split = { long: berth * H, short: (10 - berth) * H, label: berth === 8 ? 'SPLIT_8_2' : 'SPLIT_7_3' };
    }
  }

  /** The lead's or co-driver's clocks: strict (completed sleeper pairs only). */
  clocks(i: number, at = this.t): Clocks {
    const d = this.drivers[i]!;
    return clocksAcrossBorders(d.log, at, d.segments, d.options).strict;
  }

  /**
   * What the planner drives by: strict clocks, or for a driver planning a split the provisional ones
   * (the split's long part counted as paired: the plan takes the short part later, and the whole plan
   * is audited before it is returned).
   */
  drivable(i: number): Clocks {
    const d = this.drivers[i]!;
    const r = clocksAcrossBorders(d.log, this.t, d.segments, d.options);
    return this.split ? r.provisional : r.strict;
  }

  /** The route enters `side` now: each driver with a ruleset there is planned under it from now on. */
  enter(side: BorderSide): void {
    for (const d of this.drivers) {
      const r = d.rulesets?.[side];
      if (!r || r === rulesetNow(d)) continue;
      const last = d.segments[d.segments.length - 1];
      if (last && last.from === this.t) d.segments.pop();
      d.segments.push({ from: this.t, ruleset: r });
    }
  }

  /** Advances time to `end`: the driver `who` in `status`, everyone else resting (team: in the berth). */
  advance(end: number, who: number | null, status: DutyStatus, sleeper = false): void {
    for (let i = 0; i < this.drivers.length; i++) {
      const s = i === who ? status : this.team || sleeper ? 'SB' : 'OFF';
      appendPeriod(this.drivers[i]!.log, s, this.t, end);
    }
    this.t = end;
  }

  push(
    kind: SegmentKind,
    end: number,
    metres: number,
    driver: number | null,
    stopId: string | null,
    note: string | null,
    clock: ClockName | null = null,
    split: PlannedSegment['split'] = null,
    sleeper = false,
  ): void {
    const last = this.segments[this.segments.length - 1];
    const resting = kind === 'BREAK' || kind === 'REST' || kind === 'RESTART';
    // A rest extended by another (a clock still out after it) is one segment, unless one is a split's part.
    if (
      resting &&
      last &&
      last.end === this.t &&
      last.stopId === stopId &&
      !last.split &&
      split === null &&
      (last.kind === 'BREAK' || last.kind === 'REST' || last.kind === 'RESTART')
    ) {
      last.end = end;
      last.kind = this.restKind(last.end - last.start, this.offBefore.get(last) ?? 0, last.clock ?? clock);
      if (last.clock) last.note = this.restNote(last.clock, last.kind);
      return;
    }
    const driverId = driver === null ? null : this.drivers[driver]!.driverId;
    const segment: PlannedSegment = { kind, start: this.t, end, metres, driverId, stopId, note, at: this.here, clock, split, sleeper };
    this.segments.push(segment);
    if (resting) this.offBefore.set(segment, offRun(this.drivers[0]!.log, this.t));
  }

  /** BREAK, REST or RESTART: a restart once the off time (with `before`, off already before it) makes one. */
  restKind(length: number, before: number, clock: ClockName | null): SegmentKind {
    const restart = RESTART_MS[rulesetNow(this.drivers[0]!)];
    if (clock === 'CYCLE' && restart !== null && before + length >= restart) return 'RESTART';
    return length >= REST_LABEL_MS ? 'REST' : 'BREAK';
  }

  restNote(clock: ClockName, kind: SegmentKind): string {
    if (clock === 'BREAK') return '30-minute break due';
    const what = kind === 'RESTART' ? 'cycle restart' : kind === 'REST' ? 'rest' : 'break';
    return `${what}: ${clockWords(clock)}`;
  }

  /** How long the driver must rest before they may drive again, and why (a split's part where the driver splits). */
  restFor(i: number, c: Clocks, threshold: number, needMs: number): { ms: number; clock: ClockName; split?: 'LONG' | 'SHORT' } {
    const d = this.drivers[i]!;
    const clock = binding(c, threshold);
    const run = offRun(d.log, this.t);
    // A split's part only when the driver just stopped (a rest still short after one is extended instead):
    // the berth part where a 30-minute break falls due (it is the break too), the short part when the
    // shift's driving or window runs out after it; the pair gives the next shift's hours (P9).
    if (this.split && clock !== 'CYCLE' && run < BREAK_MS) {
      if (this.phase === 1 && clock !== 'BREAK') return { ms: this.split.short, clock, split: 'SHORT' };
      if (this.phase === 0) return { ms: this.split.long, clock, split: 'LONG' };
    }
    if (clock === 'BREAK') return { ms: BREAK_MS, clock };
    const rest = Math.max(REST_MS - run, BREAK_MS);
    if (clock !== 'CYCLE') return { ms: rest, clock };
    // The cycle is out: wait for hours to roll off (probed hour by hour from a plain rest) if that gives
    // a shift's driving (or the rest of the leg) before a restart would; else restart.
    const restart = Math.max((RESTART_MS[rulesetNow(d)] ?? 24 * H) - run, BREAK_MS);
    const useful = Math.min(needMs, ROLL_OFF_USEFUL_MS);
    for (let ms = rest; ms < restart; ms += H) {
      if (avail(this.clocks(i, this.t + ms)) >= useful) return { ms, clock };
    }
    return { ms: restart, clock };
  }

  /** Drives one leg; false if the horizon is passed first. */
  drive(leg: RouteLeg, kind: 'DRIVE' | 'DEADHEAD'): boolean {
    const legMs = Math.round(leg.seconds * 1000);
    if (legMs <= 0 || leg.metres <= 0) {
      this.here = leg.line[leg.line.length - 1] ?? this.here;
      return true;
    }
    const line: MeasuredLine = measure(leg);
    const limit = this.input.now + HORIZON_MS;
    // Where the road crosses the border (issue 72): a slice of driving ends there, the rules switch.
    const crossings = this.drivers.some((d) => d.rulesets) ? legCrossings(line).map((c) => ({ at: Math.round(c.fraction * legMs), to: c.to })) : [];
    let next = 0;
    let done = 0;
    while (done < legMs) {
      if (this.t > limit) return false;
      while (next < crossings.length && crossings[next]!.at <= done) this.enter(crossings[next++]!.to);
      const toCrossing = next < crossings.length ? crossings[next]!.at - done : Infinity;
      const need = legMs - done;
      const threshold = Math.min(MIN_DRIVE_MS, need);
      let c = this.drivable(this.cur);
      let a = avail(c);
      if (a < threshold && this.team) {
        const other = 1 - this.cur;
        const c2 = this.drivable(other);
        if (avail(c2) >= threshold) {
          this.cur = other;
          c = c2;
          a = avail(c2);
        }
      }
      if (a >= threshold) {
        const slice = Math.min(a, need, toCrossing);
        done += slice;
        const metres = (leg.metres * slice) / legMs;
        const end = this.t + slice;
        this.here = pointAlong(line, done / legMs);
        this.push(kind, end, metres, this.cur, null, null);
        this.advance(end, this.cur, 'D');
        continue;
      }
      // Nobody may drive: rest as long as the quickest driver to recover needs.
      let best = this.restFor(this.cur, c, threshold, need);
      if (this.team) {
        const other = 1 - this.cur;
        const r = this.restFor(other, this.drivable(other), threshold, need);
        if (r.ms < best.ms) best = r;
      }
      const end = this.t + best.ms;
      const before = offRun(this.drivers[0]!.log, this.t);
      const restKind = this.restKind(best.ms, before, best.clock);
      if (best.split && this.split) {
        const long = best.split === 'LONG';
        const hours = (long ? this.split.long : this.split.short) / H;
        const note = `sleeper split ${this.split.label.slice(6).replace('_', '/')}: ${hours} h ${long ? 'in the berth' : 'off duty'}; ${clockWords(best.clock)}`;
        this.push('REST', end, 0, this.cur, null, note, best.clock, this.split.label, long);
        this.advance(end, null, 'OFF', long);
        this.phase = long ? 1 : 0;
        // The short part completes the pair; the next long part pairs with it again (P9 (5)).
        continue;
      }
      this.push(restKind, end, 0, this.team ? null : this.cur, null, this.restNote(best.clock, restKind), best.clock);
      this.advance(end, null, 'OFF');
      if (before + best.ms >= REST_MS) this.phase = 0;
    }
    this.here = leg.line[leg.line.length - 1] ?? this.here;
    return true;
  }

  /** Off duty at a stop until its window opens (counts as rest, not as on-duty time). */
  waitFor(stop: PlanStop): void {
    if (this.t >= stop.windowStart) return;
    this.push('REST', stop.windowStart, 0, this.team ? null : this.cur, stop.stopId, 'off duty: waiting for the appointment window');
    this.advance(stop.windowStart, null, 'OFF');
  }

  serve(stop: PlanStop, ms: number): void {
    if (ms <= 0) return;
    const end = this.t + ms;
    this.push('STOP', end, 0, this.cur, stop.stopId, stop.kind === 'PICKUP' ? 'loading' : 'unloading');
    this.advance(end, this.cur, 'ON');
  }
}

/**
 * The legal timeline for the drivers from `now`: deadhead to the first stop, driving with the breaks,
 * rests and restarts the engine's clocks require, waiting for windows off duty, on duty at each stop.
 * Pure and synchronous; every plan judged by `auditLog` on the drivers' logs with `planDutyPeriods`
 * appended has no violation (property test).
 */
export function planTrip(input: PlanInput): TripPlan {
  if (input.drivers.length < 1 || input.drivers.length > 2) throw new RangeError('planTrip plans for one driver or a team of two');
  if (input.legs.length !== input.stops.length)
    throw new RangeError(`planTrip needs one leg per stop (${input.stops.length} stops, ${input.legs.length} legs)`);
  const plain = lay(input, false);
  if (!plain.splitHabit) return result(input, plain);
  // The driver splits their rest: plan that way too, and keep it if it is no later. It relied on
  // provisional clocks, so it also stands only if the engine, judging it with hindsight, agrees.
  const split = lay(input, true);
  if (!split.segments.some((s) => s.split) || later(split, plain)) return result(input, plain);
  if (split.drivers.some((d) => auditAcrossBorders(d.log, d.segments, d.options).violations.some((v) => Date.parse(v.end) > input.now)))
    return result(input, plain);
  return result(input, split);
}

/** Whether plan a reaches its stops later than b (or fewer of them). */
function later(a: Planner, b: Planner): boolean {
  if (a.planned.length !== b.planned.length) return a.planned.length < b.planned.length;
  const ea = a.planned[a.planned.length - 1]?.eta ?? 0;
  const eb = b.planned[b.planned.length - 1]?.eta ?? 0;
  return ea > eb || (ea === eb && a.endsAt > b.endsAt);
}

/** Lays out the timeline (the planner's walk). */
function lay(input: PlanInput, allowSplit: boolean): Planner {
  const { stops, legs } = input;
  const p = new Planner(input, allowSplit);
  const lead0 = p.clocks(0);
  p.remainingDriveMs = Math.min(lead0.driveMs, lead0.windowMs, lead0.cycleMs);
  const planned = p.planned;
  for (let i = 0; i < stops.length; i++) {
    const stop = stops[i]!;
    if (stop.departedAt != null) {
      const eta = stop.arrivedAt ?? stop.departedAt;
      planned.push({ stopId: stop.stopId, eta, windowMet: eta <= stop.windowEnd });
      continue;
    }
    let eta: number;
    if (stop.arrivedAt != null) {
      eta = stop.arrivedAt;
      p.here = legs[i]!.line[legs[i]!.line.length - 1] ?? p.here;
    } else {
      // Deadhead: driving to the first stop before the load is picked up.
      const kind = i === 0 && stop.kind === 'PICKUP' ? 'DEADHEAD' : 'DRIVE';
      if (kind === 'DEADHEAD') p.deadheadMetres = legs[i]!.metres;
      if (!p.drive(legs[i]!, kind)) {
        p.gaveUp = true;
        break;
      }
      eta = p.t;
    }
    planned.push({ stopId: stop.stopId, eta, windowMet: eta <= stop.windowEnd });
    p.waitFor(stop);
    const serviceMs = stop.serviceMinutes * MIN;
    const begun = stop.arrivedAt != null ? Math.max(stop.arrivedAt, stop.windowStart) : p.t;
    p.serve(stop, Math.max(0, begun + serviceMs - p.t));
  }
  p.endsAt = p.t;
  if (p.split && p.phase === 1 && !p.gaveUp) {
    // The split's short part after the last stop completes the pair the driving relied on.
    p.push(
      'REST',
      p.t + p.split.short,
      0,
      0,
      null,
      `sleeper split ${p.split.label.slice(6).replace('_', '/')}: ${p.split.short / H} h off duty after the last stop, completing the pair`,
      null,
      p.split.label,
    );
    p.advance(p.t + p.split.short, null, 'OFF');
  }
  return p;
}

function result(input: PlanInput, p: Planner): TripPlan {
  const { planned, endsAt } = p;
  const { stops } = input;
  const feasible = !p.gaveUp && planned.length === stops.length && planned.every((s) => s.windowMet);
  const issue = feasible ? null : issueOf(p, stops, planned);
  return {
    segments: p.segments,
    stops: planned,
    feasible,
    reason: issue ? formatPlanReason(issue, input.timeZone ?? 'UTC') : null,
    clocksAtDelivery: p.clocks(0, endsAt),
    issue,
    driverIds: p.drivers.map((d) => d.driverId),
    remainingDriveMs: p.remainingDriveMs,
    deadheadMetres: p.deadheadMetres,
    endsAt,
  };
}

const WEIGHT: Record<SegmentKind, number> = { RESTART: 3, REST: 2, BREAK: 1, DRIVE: 0, DEADHEAD: 0, STOP: 0 };

/** The first missed stop and the longest clock-forced rest before it, located. */
function issueOf(p: Planner, stops: readonly PlanStop[], planned: TripPlan['stops']): PlanIssue {
  const missedAt = planned.findIndex((s) => !s.windowMet);
  const index = missedAt >= 0 ? missedAt : planned.length;
  const stop = stops[Math.min(index, stops.length - 1)] ?? null;
  const eta = missedAt >= 0 ? planned[missedAt]!.eta : null;
  let cause: PlannedSegment | null = null;
  for (const s of p.segments) {
    if (eta !== null && s.start >= eta) break;
    if (s.clock && (cause === null || WEIGHT[s.kind] > WEIGHT[cause.kind])) cause = s;
  }
  return {
    kind: missedAt >= 0 ? 'LATE' : 'NO_PLAN',
    stopId: stop?.stopId ?? null,
    stopKind: stop?.kind ?? null,
    eta,
    lateMs: eta !== null && stop ? eta - stop.windowEnd : 0,
    clock: cause?.clock ?? null,
    jurisdiction: cause ? jurisdictionCodeAt(cause.at) : null,
    clockAt: cause?.start ?? null,
    rest: cause && (cause.kind === 'BREAK' || cause.kind === 'REST' || cause.kind === 'RESTART') ? cause.kind : null,
    restMs: cause ? cause.end - cause.start : null,
  };
}
