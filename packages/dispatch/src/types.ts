import type { Clocks, DutyPeriodInput, HosOptions, RulesetId } from '@fleet/hos';

// The legal trip planner's inputs and outputs (issue 33, decision 0165). Pure: the API loads a
// driver's duty periods, options and position and the road legs, and the planner lays out a timeline
// that `packages/hos` judges free of violations. Times are epoch milliseconds, distances metres.

export interface LatLon {
  lat: number;
  lon: number;
}

/** One road leg between two consecutive points of a trip, as the routing port answers it. */
export interface RouteLeg {
  metres: number;
  /** Traffic-free drive time. */
  seconds: number;
  /** The road's polyline from the leg's start to its end (at least the two ends). */
  line: LatLon[];
}

/** Road distance and time between points: the built-in network ("estimated") or an OSRM-compatible service. */
export interface RoutingPort {
  readonly kind: 'estimated' | 'osrm';
  /** The legs between consecutive points: `points.length - 1` of them. */
  route(points: LatLon[]): Promise<RouteLeg[]>;
}

/** A driver as the planner sees them: their log so far and the rules they drive under. */
export interface PlanDriver {
  driverId: string;
  /** Their duty periods up to `now` (at least the last 8 days where known), sorted and contiguous. */
  periods: DutyPeriodInput[];
  /** The options with the ruleset in force at `now` (where the driver is). */
  options: HosOptions;
  /**
   * The ruleset the driver follows on each side of the US-Canada border (issue 72): where the route
   * crosses, the rules of the side entered apply from the crossing. Absent: `options.ruleset` throughout.
   */
  rulesets?: Readonly<Record<BorderSide, RulesetId>>;
}

/** The two sides of the border a trip may cross. */
export type BorderSide = 'US' | 'CA';

export interface PlanStop {
  stopId: string;
  kind: 'PICKUP' | 'DELIVERY';
  windowStart: number;
  windowEnd: number;
  serviceMinutes: number;
  /** A stop already reached (live re-planning) is not driven to again. */
  arrivedAt?: number | null;
  departedAt?: number | null;
}

export interface PlanInput {
  now: number;
  /** Where the driver (their vehicle) is now. */
  origin: LatLon;
  /** One driver, or a team of two alternating at the wheel (the first drives first). */
  drivers: PlanDriver[];
  /** The stops still to do, in order. */
  stops: PlanStop[];
  /** legs[0]: origin to stops[0] (deadhead while the load is not picked up); legs[i]: stops[i-1] to stops[i]. */
  legs: RouteLeg[];
  /** IANA zone the `reason` is written in (the signed-in user's profile zone); default 'UTC'. */
  timeZone?: string;
}

export type SegmentKind = 'DEADHEAD' | 'DRIVE' | 'BREAK' | 'REST' | 'RESTART' | 'STOP';

export interface PlannedSegment {
  kind: SegmentKind;
  start: number;
  end: number;
  metres: number;
  /** Who drives, or who rests. */
  driverId: string | null;
  stopId: string | null;
  note: string | null;
  /** Where the segment ends (interpolated along the leg's line). */
  at: LatLon;
  /** For a BREAK, REST or RESTART taken because a clock ran out: which one (null for waiting at a stop). */
  clock?: ClockName | null;
  /** A rest that is one part of a sleeper-berth split (US property, for a driver whose log shows splits). */
  split?: 'SPLIT_7_3' | 'SPLIT_8_2' | null;
  /** The rest is logged in the sleeper berth (a split's long part; a team's rests). */
  sleeper?: boolean;
}

/** The clock that stops a driver: drive time, the shift's window (or on-duty limit), the 30-minute break, the cycle. */
export type ClockName = 'DRIVE' | 'WINDOW' | 'BREAK' | 'CYCLE';

/** Why a plan is not feasible, as data (`formatPlanReason` words it in a zone). */
export interface PlanIssue {
  /** LATE: an appointment is missed; NO_PLAN: no legal timeline within the planning horizon. */
  kind: 'LATE' | 'NO_PLAN';
  /** The first stop whose window is missed (or not reached). */
  stopId: string | null;
  stopKind: 'PICKUP' | 'DELIVERY' | null;
  /** Earliest legal arrival there, and how late that is against its window's end (ms, > 0). */
  eta: number | null;
  lateMs: number;
  /** The clock whose rest delays the driver most before that stop, where (postal code) and when it runs out. */
  clock: ClockName | null;
  jurisdiction: string | null;
  clockAt: number | null;
  /** That rest: BREAK, REST or RESTART, and how long (ms); null without one. */
  rest: 'BREAK' | 'REST' | 'RESTART' | null;
  restMs: number | null;
}

export interface TripPlan {
  segments: PlannedSegment[];
  stops: Array<{ stopId: string; eta: number; windowMet: boolean }>;
  /** Every appointment met, legally. */
  feasible: boolean;
  /** Why not feasible, in words (a required rest, the cycle running out, and where). */
  reason: string | null;
  /** The lead driver's clocks when the last stop is done. */
  clocksAtDelivery: Clocks;
  /** The same reason as data. */
  issue: PlanIssue | null;
  /** The drivers planned for (lead first). */
  driverIds: string[];
  /** The lead driver's time left to drive at `now`: min(drive, window, cycle) of their strict clocks. */
  remainingDriveMs: number;
  /** Driving metres of the deadhead leg (0 once the load is picked up). */
  deadheadMetres: number;
  /** When the last stop is done (its service over). */
  endsAt: number;
}
