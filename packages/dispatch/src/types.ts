import type { Clocks, DutyPeriodInput, HosOptions } from '@fleet/hos';

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
  options: HosOptions;
}

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
}
