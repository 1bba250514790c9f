import { clocksAt } from '@fleet/hos';
import { planTrip, type LatLon, type PlanDriver, type RouteLeg, type RoutingPort, type TripPlan } from '@fleet/dispatch';
import type { Candidate, LoadPlan } from '@fleet/api-contract';
import type { z } from 'zod';
import type { candidateQuerySchema, planQuerySchema } from '@fleet/api-contract';
import { badRequest, invalidField } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { planDriversOf, type PlanDriverRecord } from '../hos/index.ts';
import { currentLoads, driverFix, fleetPositions, loadWithStops, remainingStops, userTimeZone, type Fix } from './dispatch-inputs.ts';
import { milesOf, missWords, presentPlan } from './plan-words.ts';

// A load's legal plan for a driver, and every active driver ranked for it (issue 33, decision 0167).
// The drivers' logs, options and positions are read in bulk; the load's own legs are routed once
// and shared by every candidate, so only each driver's deadhead leg differs.

const DAY_MS = 86_400_000;

/** The planner's view of a driver: their log (a driver without records has been off duty), their options. */
export function planDriver(rec: PlanDriverRecord, now: number): PlanDriver {
  const periods = rec.periods.length ? rec.periods : [{ status: 'OFF' as const, start: now - 8 * DAY_MS, end: now }];
  return { driverId: rec.driver.id, periods, options: rec.options };
}

/** Drive time the driver has now: the least of their drive, shift and cycle clocks (minutes). */
export function remainingDriveMinutes(d: PlanDriver, now: number): number {
  const s = clocksAt(d.periods, now, d.options).strict;
  return Math.round(Math.min(s.driveMs, s.windowMs, s.cycleMs) / 60_000);
}

type PlanQuery = z.output<typeof planQuerySchema>;

/** GET loads/{id}/plan: the driver's (default: the load's lead driver's, with its co-driver) legal timeline from where they are now. */
export async function planLoad(s: ReadScope & { userId: string | null }, routing: RoutingPort, loadId: string, q: PlanQuery): Promise<LoadPlan> {
  const now = s.now ?? Date.now();
  const { load, stops } = await loadWithStops(s.db, s.orgId, loadId);
  const leadId = q.driverId ?? load.driverId;
  if (!leadId) throw invalidField('driverId', 'The load has no driver: choose one (driverId)');
  const coId = q.coDriverId ?? (leadId === load.driverId ? load.coDriverId : null);
  if (coId === leadId) throw invalidField('coDriverId', 'The co-driver must be another driver');
  const remaining = remainingStops(stops);
  if (remaining.length === 0) throw badRequest('Every stop of this load is done: nothing is left to plan');
  const ids = coId ? [leadId, coId] : [leadId];
  const recs = await planDriversOf(s.db, s.orgId, now, ids);
  const lead = recs.get(leadId);
  if (!lead) throw invalidField('driverId', 'No such driver in this organization');
  const co = coId ? recs.get(coId) : undefined;
  if (coId && !co) throw invalidField('coDriverId', 'No such driver in this organization');
  const positions = await fleetPositions(s.db, s.orgId);
  const fix = driverFix(positions, leadId, [leadId === load.driverId ? load.assetId : null, lead.driver.vehicle?.id]);
  const origin: LatLon = fix ?? { lat: remaining[0]!.lat, lon: remaining[0]!.lon };
  const legs = await routing.route([origin, ...remaining]);
  const drivers = [lead, ...(co ? [co] : [])].map((r) => planDriver(r, now));
  const plan = planTrip({ now, origin, drivers, stops: remaining, legs });
  const tz = await userTimeZone(s.db, s.orgId, s.userId);
  const reason = missWords(plan, new Map(remaining.map((r) => [r.stopId, r.windowEnd])), tz);
  return presentPlan(plan, { driverIds: ids, routing: routing.kind, startsAt: now, origin, reason });
}

type CandidateQuery = z.output<typeof candidateQuerySchema>;

interface Ranked extends Candidate {
  rank: number;
}

/**
 * GET loads/{id}/candidates: every active driver, planned alone from where they are now, ranked by
 * "delivers on time legally", then deadhead, then drive time left; each excluded one with the reason.
 */
export async function loadCandidates(s: ReadScope & { userId: string | null }, routing: RoutingPort, loadId: string, q: CandidateQuery): Promise<ReturnType<typeof toPage<Candidate>>> {
  const now = s.now ?? Date.now();
  const { load, stops } = await loadWithStops(s.db, s.orgId, loadId);
  const remaining = remainingStops(stops);
  if (remaining.length === 0) throw badRequest('Every stop of this load is done: nobody is left to find');
  const [recs, positions, onLoads, tz] = await Promise.all([planDriversOf(s.db, s.orgId, now), fleetPositions(s.db, s.orgId), currentLoads(s.db, s.orgId), userTimeZone(s.db, s.orgId, s.userId)]);
  const term = q.search?.trim().toLowerCase();
  const first = remaining[0]!;
  const loadLegs = remaining.length > 1 ? await routing.route(remaining) : [];
  const windowEnds = new Map(remaining.map((r) => [r.stopId, r.windowEnd]));
  const rows: Ranked[] = [];
  for (const rec of recs.values()) {
    const d = rec.driver;
    const name = `${d.firstName} ${d.lastName}`;
    if (term && !name.toLowerCase().includes(term)) continue;
    const driver = planDriver(rec, now);
    const left = remainingDriveMinutes(driver, now);
    const currentLoad = onLoads.get(d.id) ?? null;
    const fix: Fix | null = driverFix(positions, d.id, [d.vehicle?.id]);
    if (!fix) {
      rows.push({ driverId: d.id, name, feasible: false, deadheadMiles: 0, remainingDriveMinutes: left, lastStopEta: null, reason: 'No position known: the driver has no vehicle reporting', currentLoad, rank: Infinity });
      continue;
    }
    const [deadhead] = (await routing.route([fix, first])) as [RouteLeg];
    const plan: TripPlan = planTrip({ now, origin: fix, drivers: [driver], stops: remaining, legs: [deadhead, ...loadLegs] });
    const last = plan.stops[plan.stops.length - 1];
    rows.push({
      driverId: d.id,
      name,
      feasible: plan.feasible,
      deadheadMiles: milesOf(deadhead.metres),
      remainingDriveMinutes: left,
      lastStopEta: last ? new Date(last.eta).toISOString() : null,
      reason: missWords(plan, windowEnds, tz),
      currentLoad,
      rank: deadhead.metres,
    });
  }
  // Feasible first, then the shortest deadhead, then the most drive time left; names break ties.
  rows.sort((a, b) => Number(b.feasible) - Number(a.feasible) || a.rank - b.rank || b.remainingDriveMinutes - a.remainingDriveMinutes || a.name.localeCompare(b.name));
  const page = rows.slice(q.page * q.size, (q.page + 1) * q.size).map(({ rank: _r, ...c }) => c);
  return toPage(page, rows.length, q);
}
