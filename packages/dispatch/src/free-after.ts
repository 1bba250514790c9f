import { clocksAt, type Clocks } from '@fleet/hos';
import { logUpTo, planDutyPeriods } from './duty-log.ts';
import { planTrip } from './plan-trip.ts';
import type { LatLon, PlanDriver, PlanStop, RouteLeg } from './types.ts';

// Where and when a driver on other loads is free (issue 46, decision 0187): the loads they are on
// or assigned to ahead of the new one are planned in turn with the same planner, each from where
// the last ends, and the driver's log grows by what each plan has them do. The new load's plan then
// starts at the last stop of the last of them, at the time its service ends, with the clocks the
// engine reads off that grown log: one HoS model, the planner's, for both.

/** A load the driver must finish first: its team and its stops still to do. */
export interface BusyLoad {
  loadId: string;
  /** Who drives it, lead first (the driver in question among them; else they are planned alone). */
  drivers: PlanDriver[];
  /** Its stops not yet departed, in order, with where they are. */
  stops: Array<PlanStop & LatLon>;
}

export interface FreeAt {
  /** The last load of the chain: the driver is free when it is done. */
  loadId: string;
  /** When its last stop's service ends. */
  at: number;
  /** Where: its last stop. */
  where: LatLon;
  /** The driver as the planner takes them from then: their log with every load's plan appended. */
  driver: PlanDriver;
  /** Their strict clocks at `at` (read from the engine when first asked: a ranking needs them for a page only). */
  readonly clocks: Clocks;
  /** False when a load of the chain had no legal plan to its last stop within the horizon. */
  finished: boolean;
}

/** The points each busy load's legs join: from `origin` (then each last stop) over its stops. */
export function busyPoints(origin: LatLon, busy: readonly BusyLoad[]): LatLon[][] {
  const out: LatLon[][] = [];
  let here = origin;
  for (const b of busy) {
    const points = [here, ...b.stops.map((s) => ({ lat: s.lat, lon: s.lon }))];
    out.push(points);
    if (b.stops.length) here = points[points.length - 1]!;
  }
  return out;
}

/**
 * Plans the busy loads in order from `now` at `origin` (the driver's position) and answers where
 * and when the driver is free, with their log grown by those plans. `legs[i]` are the legs of
 * `busyPoints(origin, busy)[i]` (routed, or estimated for a first pass).
 */
export function freeAfter(now: number, driver: PlanDriver, origin: LatLon, busy: readonly BusyLoad[], legs: readonly RouteLeg[][]): FreeAt {
  let t = now;
  let here = origin;
  let periods: PlanDriver['periods'] = driver.periods;
  let finished = true;
  let loadId = busy[busy.length - 1]?.loadId ?? '';
  for (let i = 0; i < busy.length; i++) {
    const b = busy[i]!;
    if (b.stops.length === 0) continue;
    const me: PlanDriver = { ...driver, periods };
    const team = b.drivers.some((d) => d.driverId === driver.driverId) ? b.drivers.map((d) => (d.driverId === driver.driverId ? me : d)) : [me];
    const plan = planTrip({ now: t, origin: here, drivers: team, stops: b.stops, legs: legs[i]! });
    if (plan.stops.length < b.stops.length) finished = false;
    // What the driver does on that load, up to its end (a split's short part after it is left out:
    // the next plan starts at the end and sees the driver off duty from there).
    const done = plan.segments.filter((s) => s.start < plan.endsAt);
    periods = [...logUpTo(periods, t), ...planDutyPeriods(done, driver.driverId, team.length > 1).map((p) => ({ ...p, end: Math.min(p.end, plan.endsAt) }))];
    t = Math.max(t, plan.endsAt);
    const last = b.stops[b.stops.length - 1]!;
    here = { lat: last.lat, lon: last.lon };
    loadId = b.loadId;
    if (!finished) break;
  }
  const grown: PlanDriver = { ...driver, periods };
  let clocks: Clocks | null = null;
  return {
    loadId,
    at: t,
    where: here,
    driver: grown,
    get clocks() {
      return (clocks ??= clocksAt(logUpTo(periods, t), t, driver.options).strict);
    },
    finished,
  };
}
