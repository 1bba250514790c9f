import { clocksAt } from '@fleet/hos';
import { planTrip, rankCandidatesRouted, type CandidateDriver, type LatLon, type PlanDriver, type RoutingPort } from '@fleet/dispatch';
import type { Candidate, LoadPlan, Page } from '@fleet/api-contract';
import type { z } from 'zod';
import type { candidateQuerySchema, planQuerySchema } from '@fleet/api-contract';
import { badRequest, invalidField } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { planDriversOf, type PlanDriverRecord } from '../hos/index.ts';
import { currentLoads, driverFix, fleetPositions, loadWithStops, remainingStops, userTimeZone } from './dispatch-inputs.ts';
import { milesOf, presentPlan } from './plan-words.ts';

// A load's legal plan for a driver, and every active driver ranked for it (issue 33, decision 0167).
// The drivers' logs, options and positions are read in bulk (a few statements for the whole
// organization, the logs from the HoS module's memory); the load's own legs are routed once and
// shared by every candidate, so only each driver's deadhead leg differs.

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
  const timeZone = await userTimeZone(s.db, s.orgId, s.userId);
  const plan = planTrip({ now, origin, drivers, stops: remaining, legs, timeZone });
  return presentPlan(plan, { routing: routing.kind, startsAt: now, origin });
}

type CandidateQuery = z.output<typeof candidateQuerySchema>;

/**
 * GET loads/{id}/candidates: every active driver (a search narrows by name), planned alone from where
 * their vehicle is now, ranked by "delivers on time legally", then deadhead, then drive time left
 * (the planner's ranking: straight-line deadheads first, the best 25 routed exactly); each excluded
 * one with the reason in the reader's zone. A driver whose vehicle never reported comes last.
 */
export async function loadCandidates(s: ReadScope & { userId: string | null }, routing: RoutingPort, loadId: string, q: CandidateQuery): Promise<Page<Candidate>> {
  const now = s.now ?? Date.now();
  const { stops } = await loadWithStops(s.db, s.orgId, loadId);
  const remaining = remainingStops(stops);
  if (remaining.length === 0) throw badRequest('Every stop of this load is done: nobody is left to find');
  const [recs, positions, onLoads, timeZone] = await Promise.all([planDriversOf(s.db, s.orgId, now), fleetPositions(s.db, s.orgId), currentLoads(s.db, s.orgId), userTimeZone(s.db, s.orgId, s.userId)]);
  const term = q.search?.trim().toLowerCase();
  const nameOf = (r: PlanDriverRecord) => `${r.driver.firstName} ${r.driver.lastName}`;
  const chosen = [...recs.values()].filter((r) => !term || nameOf(r).toLowerCase().includes(term));
  const located: CandidateDriver[] = [];
  const unlocated: Candidate[] = [];
  for (const rec of chosen) {
    const driver = planDriver(rec, now);
    const fix = driverFix(positions, rec.driver.id, [rec.driver.vehicle?.id]);
    if (fix) located.push({ driverId: rec.driver.id, origin: fix, drivers: [driver] });
    else
      unlocated.push({
        driverId: rec.driver.id,
        name: nameOf(rec),
        feasible: false,
        deadheadMiles: 0,
        remainingDriveMinutes: remainingDriveMinutes(driver, now),
        lastStopEta: null,
        reason: 'no position known: no vehicle of the driver has reported',
        currentLoad: onLoads.get(rec.driver.id) ?? null,
      });
  }
  const loadLegs = remaining.length > 1 ? await routing.route(remaining) : [];
  const ranked = await rankCandidatesRouted(routing, now, { stops: remaining, firstStop: remaining[0]!, loadLegs }, located, { timeZone });
  const rows: Candidate[] = ranked.map((r) => ({
    driverId: r.driverId,
    name: nameOf(recs.get(r.driverId)!),
    feasible: r.feasible,
    deadheadMiles: milesOf(r.deadheadMetres),
    remainingDriveMinutes: Math.round(r.remainingDriveMs / 60_000),
    lastStopEta: r.lastStopEta === null ? null : new Date(r.lastStopEta).toISOString(),
    reason: r.reason,
    currentLoad: onLoads.get(r.driverId) ?? null,
  }));
  unlocated.sort((a, b) => a.name.localeCompare(b.name));
  const all = [...rows, ...unlocated];
  return toPage(all.slice(q.page * q.size, (q.page + 1) * q.size), all.length, q);
}
