import type { Clocks } from '@fleet/hos';
import { distanceM } from '@fleet/geo/distance';
import { busyPoints, freeAfter, type BusyLoad } from './free-after.ts';
import { planTrip } from './plan-trip.ts';
import { BUILT_IN_SPEED_MPS } from './routing-builtin.ts';
import type { LatLon, PlanDriver, PlanIssue, PlanStop, RouteLeg, RoutingPort } from './types.ts';

// Who can take a load (decision 0165): every candidate's legal plan from where they are, ranked by
// "delivers on time legally", then deadhead distance, then time left to drive. The load's own legs are
// routed once by the caller; only the deadhead leg differs per driver. A candidate on other loads
// (issue 46, decision 0187) is planned from where and when those end, with the clocks they will
// have there (`freeAfter`).

/** Roads are longer than the straight line: the first pass's estimate (US interstate circuity ~1.2). */
export const DETOUR_FACTOR = 1.2;

export interface LoadToPlan {
  /** The load's stops in order (not yet departed). */
  stops: PlanStop[];
  /** Where the first stop is: the deadhead leg's end. */
  firstStop: LatLon;
  /** The load's own legs, routed once: loadLegs[i] from stops[i] to stops[i + 1] (stops.length - 1 legs). */
  loadLegs: RouteLeg[];
}

export interface CandidateDriver {
  /** The candidate's id (the lead driver's). */
  driverId: string;
  /** Where their vehicle is now. */
  origin: LatLon;
  /** The driver, or a team of two (lead first). */
  drivers: PlanDriver[];
  /** The routed deadhead leg when the caller has it; else estimated (straight line × DETOUR_FACTOR). */
  deadhead?: RouteLeg;
  /** Loads the candidate must finish first (under way, then assigned ahead), in order. */
  busy?: BusyLoad[];
  /** The routed legs of those loads (as `busyPoints(origin, busy)` joins them) where the caller has them (a running load's, followed along); the others estimated, then routed for the best. */
  busyLegs?: Array<RouteLeg[] | null | undefined>;
}

export interface RankedCandidate {
  driverId: string;
  feasible: boolean;
  deadheadMetres: number;
  /** Whether the deadhead is the straight-line estimate rather than a routed leg. */
  deadheadEstimated: boolean;
  /** The lead driver's time left to drive now (min of drive, window and cycle clocks). */
  remainingDriveMs: number;
  lastStopEta: number | null;
  reason: string | null;
  issue: PlanIssue | null;
  /** When and where the plan starts: now at the candidate's position, or where their other loads end. */
  startsAt: number;
  startsFrom: LatLon;
  /** The last of the loads they finish first (null: free now), whether it was planned to its end, and their clocks then (read when asked). */
  after: { loadId: string; finished: boolean; readonly clocks: Clocks } | null;
}

export interface RankOptions {
  /** IANA zone the reasons are written in; default 'UTC'. */
  timeZone?: string;
}

/** A straight-line deadhead leg: length × DETOUR_FACTOR at the built-in router's speed. */
export function estimatedLeg(from: LatLon, to: LatLon): RouteLeg {
  const metres = distanceM(from, to) * DETOUR_FACTOR;
  return { metres, seconds: metres / BUILT_IN_SPEED_MPS, line: [from, to] };
}

/** What the order reads of a ranked candidate. */
type RankKeys = Pick<RankedCandidate, 'driverId' | 'feasible' | 'deadheadMetres' | 'remainingDriveMs' | 'lastStopEta'>;

/** Feasible first, then shorter deadhead, then more time left to drive, then the earlier last stop. */
export function compareCandidates(a: RankKeys, b: RankKeys): number {
  if (a.feasible !== b.feasible) return a.feasible ? -1 : 1;
  if (a.deadheadMetres !== b.deadheadMetres) return a.deadheadMetres - b.deadheadMetres;
  if (a.remainingDriveMs !== b.remainingDriveMs) return b.remainingDriveMs - a.remainingDriveMs;
  const ea = a.lastStopEta ?? Infinity;
  const eb = b.lastStopEta ?? Infinity;
  if (ea !== eb) return ea < eb ? -1 : 1;
  return a.driverId < b.driverId ? -1 : a.driverId > b.driverId ? 1 : 0;
}

/** The legs given, else straight-line legs joining each list of points. */
function legsOrEstimated(points: readonly LatLon[][], given: CandidateDriver['busyLegs']): RouteLeg[][] {
  return points.map((ps, k) => given?.[k] ?? ps.slice(1).map((p, i) => estimatedLeg(ps[i]!, p)));
}

function judge(now: number, load: LoadToPlan, c: CandidateDriver, timeZone: string | undefined): RankedCandidate {
  let from = c.origin;
  let startsAt = now;
  let drivers = c.drivers;
  let after: RankedCandidate['after'] = null;
  if (c.busy?.length) {
    const free = freeAfter(now, c.drivers[0]!, c.origin, c.busy, legsOrEstimated(busyPoints(c.origin, c.busy), c.busyLegs));
    from = free.where;
    startsAt = free.at;
    drivers = [free.driver, ...c.drivers.slice(1)];
    after = {
      loadId: free.loadId,
      finished: free.finished,
      get clocks() {
        return free.clocks;
      },
    };
  }
  const deadhead = c.deadhead ?? estimatedLeg(from, load.firstStop);
  const plan = planTrip({ now: startsAt, origin: from, drivers, stops: load.stops, legs: [deadhead, ...load.loadLegs], timeZone });
  const last = plan.stops.length === load.stops.length ? plan.stops[plan.stops.length - 1] : undefined;
  const finished = after?.finished ?? true;
  return {
    driverId: c.driverId,
    feasible: plan.feasible && finished,
    deadheadMetres: deadhead.metres,
    deadheadEstimated: c.deadhead === undefined,
    remainingDriveMs: plan.remainingDriveMs,
    lastStopEta: last?.eta ?? null,
    reason: finished ? plan.reason : 'no legal plan finishes the loads the driver is on within the planning horizon',
    issue: plan.issue,
    startsAt,
    startsFrom: from,
    after,
  };
}

/**
 * Ranks candidates for a load: a legal plan for each (pure, synchronous). Deadhead legs are the ones
 * given, else straight-line estimates; use `rankCandidatesRouted` to route the best ones exactly.
 */
export function rankCandidates(now: number, load: LoadToPlan, candidates: readonly CandidateDriver[], options: RankOptions = {}): RankedCandidate[] {
  if (load.loadLegs.length !== Math.max(0, load.stops.length - 1)) throw new RangeError('rankCandidates needs stops.length - 1 load legs');
  return candidates.map((c) => judge(now, load, c, options.timeZone)).sort(compareCandidates);
}

export interface RoutedRankOptions extends RankOptions {
  /** How many of the first pass's best get their deadhead routed exactly (default 25; Infinity for all). */
  exactTop?: number;
}

/**
 * Two passes: every candidate with a straight-line deadhead, then the first `exactTop` of that ranking
 * re-planned with their deadhead routed by `routing` (one leg each, in parallel), and all ranked again.
 * Candidates given a `deadhead` leg keep it. A routing failure leaves that candidate's estimate. A
 * candidate on other loads has those loads' legs routed too, and the deadhead from where they end.
 */
export async function rankCandidatesRouted(
  routing: RoutingPort,
  now: number,
  load: LoadToPlan,
  candidates: readonly CandidateDriver[],
  options: RoutedRankOptions = {},
): Promise<RankedCandidate[]> {
  const first = rankCandidates(now, load, candidates, options);
  const byId = new Map(candidates.map((c) => [c.driverId, c]));
  const top = first.filter((r) => r.deadheadEstimated).slice(0, options.exactTop ?? 25);
  const routed = await Promise.all(
    top.map(async (r) => {
      const c = byId.get(r.driverId)!;
      try {
        const busyLegs = c.busy?.length ? await Promise.all(busyPoints(c.origin, c.busy).map((ps, k) => c.busyLegs?.[k] ?? routing.route(ps))) : c.busyLegs;
        const [leg] = await routing.route([r.startsFrom, load.firstStop]);
        return leg ? judge(now, load, { ...c, deadhead: leg, busyLegs }, options.timeZone) : r;
      } catch {
        return r;
      }
    }),
  );
  const replaced = new Map(routed.map((r) => [r.driverId, r]));
  return first.map((r) => replaced.get(r.driverId) ?? r).sort(compareCandidates);
}
