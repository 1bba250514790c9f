import type { FreeAfter, LoadPlan, PlanRouteLeg } from '@fleet/api-contract';
import type { TripPlan } from '@fleet/dispatch';
import type { Clocks } from '@fleet/hos';

// How a trip plan reads in the API and in words (issue 33, decision 0167): the issue's `miles`,
// ISO instants, minutes for clocks (the planner words its reason in the reader's zone).

const METRES_PER_MILE = 1609.344;
export const milesOf = (metres: number) => Math.round((metres / METRES_PER_MILE) * 10) / 10;
const minutes = (ms: number) => Math.round(ms / 60_000);

/** The engine's clocks in the API's minutes. */
export const clockMinutes = (c: Clocks) => ({
  driveMinutes: minutes(c.driveMs),
  windowMinutes: minutes(c.windowMs),
  breakMinutes: c.breakMs === null ? null : minutes(c.breakMs),
  cycleMinutes: minutes(c.cycleMs),
});

/** The plan as the API answers it. */
export function presentPlan(
  plan: TripPlan,
  extra: { routing: 'estimated' | 'osrm'; startsAt: number; origin: { lat: number; lon: number }; after: FreeAfter | null; route: PlanRouteLeg[] },
): LoadPlan {
  return {
    segments: plan.segments.map((s) => ({
      kind: s.kind,
      start: new Date(s.start).toISOString(),
      end: new Date(s.end).toISOString(),
      miles: milesOf(s.metres),
      driverId: s.driverId,
      stopId: s.stopId,
      note: s.note,
    })),
    stops: plan.stops.map((s) => ({ stopId: s.stopId, eta: new Date(s.eta).toISOString(), windowMet: s.windowMet })),
    feasible: plan.feasible,
    reason: plan.reason,
    driverIds: plan.driverIds,
    clocksAtDelivery: clockMinutes(plan.clocksAtDelivery),
    routing: extra.routing,
    startsAt: new Date(extra.startsAt).toISOString(),
    origin: { latitude: extra.origin.lat, longitude: extra.origin.lon },
    after: extra.after,
    route: extra.route,
  };
}
