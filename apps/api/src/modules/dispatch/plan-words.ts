import type { LoadPlan } from '@fleet/api-contract';
import type { TripPlan } from '@fleet/dispatch';

// How a trip plan reads in the API and in words (issue 33, decision 0167): the issue's `miles`,
// ISO instants, minutes for clocks; times in a reason in the reader's zone, labelled.

const METRES_PER_MILE = 1609.344;
export const milesOf = (metres: number) => Math.round((metres / METRES_PER_MILE) * 10) / 10;
const minutes = (ms: number) => Math.round(ms / 60_000);

/** "Thursday 14:00 CST" in the zone. */
export function dayTimeWords(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(new Date(ms)).replace(',', '');
}

/** "22 h late" / "45 min late". */
export function lateWords(ms: number): string {
  const m = Math.max(1, Math.round(ms / 60_000));
  return m < 60 ? `${m} min late` : `${Math.round(m / 60)} h late`;
}

/**
 * Why a plan misses, in words: the planner's cause ("cycle runs out in Missouri") and, for a late
 * delivery, when it would be and how late ("earliest delivery Thursday 14:00 CST, 22 h late").
 */
export function missWords(plan: TripPlan, windowEnds: ReadonlyMap<string, number>, timeZone: string): string | null {
  if (plan.feasible) return null;
  const parts: string[] = [];
  if (plan.reason) parts.push(plan.reason);
  const last = plan.stops[plan.stops.length - 1];
  const end = last ? windowEnds.get(last.stopId) : undefined;
  if (last && end !== undefined && last.eta > end && !(plan.reason ?? '').includes('earliest delivery')) {
    parts.push(`earliest delivery ${dayTimeWords(last.eta, timeZone)}, ${lateWords(last.eta - end)}`);
  } else if (parts.length === 0) {
    const missed = plan.stops.find((s) => !s.windowMet);
    if (missed) parts.push(`misses an appointment: arrives ${dayTimeWords(missed.eta, timeZone)}`);
  }
  return parts.join('; ') || 'Cannot deliver on time legally';
}

/** The plan as the API answers it. */
export function presentPlan(plan: TripPlan, extra: { driverIds: string[]; routing: 'estimated' | 'osrm'; startsAt: number; origin: { lat: number; lon: number }; reason: string | null }): LoadPlan {
  const c = plan.clocksAtDelivery;
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
    reason: extra.reason,
    driverIds: extra.driverIds,
    clocksAtDelivery: { driveMinutes: minutes(c.driveMs), windowMinutes: minutes(c.windowMs), breakMinutes: c.breakMs === null ? null : minutes(c.breakMs), cycleMinutes: minutes(c.cycleMs) },
    routing: extra.routing,
    startsAt: new Date(extra.startsAt).toISOString(),
    origin: { latitude: extra.origin.lat, longitude: extra.origin.lon },
  };
}
