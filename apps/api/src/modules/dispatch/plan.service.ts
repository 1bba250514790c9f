import { clocksAt, type Clocks } from '@fleet/hos';
import {
  busyPoints,
  freeAfter,
  planTrip,
  rankCandidatesRouted,
  type BusyLoad,
  type CandidateDriver,
  type LatLon,
  type PlanDriver,
  type RouteLeg,
  type RoutingPort,
} from '@fleet/dispatch';
import type { Candidate, FreeAfter, LoadPlan, Page, PlanRouteLeg } from '@fleet/api-contract';
import type { z } from 'zod';
import type { candidateQuerySchema, planQuerySchema } from '@fleet/api-contract';
import { badRequest, invalidField } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { dispatchRefusals, loadEndsAt } from '../compliance/index.ts';
import { planDriversOf, type PlanDriverRecord } from '../hos/index.ts';
import {
  busyLoads,
  currentLoadOf,
  driverFix,
  fleetPositions,
  loadsBefore,
  loadWithStops,
  remainingStops,
  stopPlaceWords,
  userTimeZone,
  type BusyLoadRow,
  type StopRow,
} from './dispatch-inputs.ts';
import { clockMinutes, milesOf, presentPlan } from './plan-words.ts';
import { thinLeg } from './remaining-leg.ts';

// A load's legal plan for a driver, and every active driver ranked for it (issue 33, decision 0167).
// The drivers' logs, options and positions are read in bulk (a few statements for the whole
// organization, the logs from the HoS module's memory); the load's own legs are routed once and
// shared by every candidate, so only each driver's deadhead leg differs. A driver on other loads is
// planned from where and when they end, with the clocks they will have then (issue 46, decision 0187).

const DAY_MS = 86_400_000;

/** The planner's view of a driver: their log (a driver without records has been off duty), their options. */
export function planDriver(rec: PlanDriverRecord, now: number): PlanDriver {
  const periods = rec.periods.length ? rec.periods : [{ status: 'OFF' as const, start: now - 8 * DAY_MS, end: now }];
  // The rules of each side of the border: a route into Canada (or out of it) switches there (issue 72).
  return { driverId: rec.driver.id, periods, options: rec.options, rulesets: rec.rulesets };
}

/** Drive time the driver has now: the least of their drive, shift and cycle clocks (minutes). */
export function remainingDriveMinutes(d: PlanDriver, now: number): number {
  const s = clocksAt(d.periods, now, d.options).strict;
  return Math.round(Math.min(s.driveMs, s.windowMs, s.cycleMs) / 60_000);
}

type PlanQuery = z.output<typeof planQuerySchema>;

/** The loads a driver finishes first, as the planner takes them: each with its team and stops still to do. */
function busyOf(rows: readonly BusyLoadRow[], recs: ReadonlyMap<string, PlanDriverRecord>, now: number): Array<BusyLoad & { row: BusyLoadRow }> {
  return rows.flatMap((row) => {
    const stops = remainingStops(row.stops);
    const team = [row.driverId, row.coDriverId].flatMap((d) => (d && recs.get(d) ? [planDriver(recs.get(d)!, now)] : []));
    return stops.length ? [{ loadId: row.id, drivers: team, stops, row }] : [];
  });
}

/** A running load's road legs from `at`, as the live ETAs follow them (null: not known). */
export type KnownLegs = (loadId: string, at: LatLon, stopIds: readonly string[]) => RouteLeg[] | null;

/** The first busy load's legs when it is under way and its legs are followed from the driver's fix; undefined for the rest. */
function knownBusyLegs(
  busy: ReadonlyArray<BusyLoad & { row: BusyLoadRow }>,
  fix: LatLon | null,
  known: KnownLegs | undefined,
): Array<RouteLeg[] | null | undefined> | undefined {
  const b = busy[0];
  if (!b || !fix || !known || (b.row.status !== 'EN_ROUTE' && b.row.status !== 'AT_STOP')) return undefined;
  const legs = known(
    b.loadId,
    fix,
    b.stops.map((s) => s.stopId),
  );
  return legs ? [legs] : undefined;
}

/** The API's words for where and when the driver is free. */
function freeAfterOf(row: BusyLoadRow, count: number, at: number, clocks: Clocks): FreeAfter {
  const last = row.stops[row.stops.length - 1]!;
  return {
    loadId: row.id,
    number: row.number,
    loads: count,
    freeAt: new Date(at).toISOString(),
    place: stopPlaceWords(last),
    latitude: last.latitude,
    longitude: last.longitude,
    clocks: clockMinutes(clocks),
  };
}

const ROUTE_STEP_M = 1000;
const UNFINISHED = 'no legal plan finishes the loads the driver is on within the planning horizon';
const pair = (p: LatLon): [number, number] => [Math.round(p.lon * 1e5) / 1e5, Math.round(p.lat * 1e5) / 1e5];

/**
 * The load's roads for the map: every leg between its stops (those already driven too), then the
 * plan's first leg, from its origin to the next stop; a vertex a kilometre apart or more.
 */
async function routeOf(routing: RoutingPort, stops: readonly StopRow[], first: RouteLeg, nextStopId: string): Promise<PlanRouteLeg[]> {
  const points = stops.map((s) => ({ lat: s.latitude, lon: s.longitude }));
  const legs = points.length > 1 ? await routing.route(points) : [];
  const out: PlanRouteLeg[] = legs.map((l, i) => ({ fromStopId: stops[i]!.id, toStopId: stops[i + 1]!.id, line: thinLeg(l, ROUTE_STEP_M).line.map(pair) }));
  out.push({ fromStopId: null, toStopId: nextStopId, line: thinLeg(first, ROUTE_STEP_M).line.map(pair) });
  return out;
}

/**
 * GET loads/{id}/plan: the driver's (default: the load's lead driver's, with its co-driver) legal
 * timeline from where they are now, or from where and when the loads they finish first end.
 */
export async function planLoad(
  s: ReadScope & { userId: string | null },
  routing: RoutingPort,
  loadId: string,
  q: PlanQuery,
  known?: KnownLegs,
): Promise<LoadPlan> {
  const now = s.now ?? Date.now();
  const { load, stops } = await loadWithStops(s.db, s.orgId, loadId);
  const leadId = q.driverId ?? load.driverId;
  if (!leadId) throw invalidField('driverId', 'The load has no driver: choose one (driverId)');
  const coId = q.coDriverId ?? (leadId === load.driverId ? load.coDriverId : null);
  if (coId === leadId) throw invalidField('coDriverId', 'The co-driver must be another driver', 'hos.co_driver_self');
  const remaining = remainingStops(stops);
  if (remaining.length === 0) throw badRequest('Every stop of this load is done: nothing is left to plan');
  // The loads the driver finishes first, and whoever drives them with them (a team's other driver).
  const before = loadsBefore((await busyLoads(s.db, s.orgId, [leadId])).get(leadId), { id: load.id, firstWindowStart: stops[0]!.windowStart.getTime() });
  const others = before.flatMap((b) => [b.driverId, b.coDriverId]).filter((d): d is string => !!d);
  const recs = await planDriversOf(s.db, s.orgId, now, [...new Set([leadId, ...(coId ? [coId] : []), ...others])]);
  const lead = recs.get(leadId);
  if (!lead) throw invalidField('driverId', 'No such driver in this organization');
  const co = coId ? recs.get(coId) : undefined;
  if (coId && !co) throw invalidField('coDriverId', 'No such driver in this organization');
  const positions = await fleetPositions(s.db, s.orgId);
  const busy = busyOf(before, recs, now);
  const fix = driverFix(positions, leadId, [leadId === load.driverId ? load.assetId : null, busy[0]?.row.assetId, lead.driver.vehicle?.id]);
  const here: LatLon = fix ?? (busy[0] ? busy[0].stops[0]! : { lat: remaining[0]!.lat, lon: remaining[0]!.lon });
  let origin: LatLon = { lat: here.lat, lon: here.lon };
  let startsAt = now;
  let leadDriver = planDriver(lead, now);
  let after: FreeAfter | null = null;
  let finished = true;
  if (busy.length) {
    const given = knownBusyLegs(busy, fix, known);
    const busyLegs = await Promise.all(busyPoints(origin, busy).map((ps, k) => given?.[k] ?? routing.route(ps)));
    const free = freeAfter(now, leadDriver, origin, busy, busyLegs);
    origin = free.where;
    startsAt = free.at;
    leadDriver = free.driver;
    finished = free.finished;
    const last = busy.find((b) => b.loadId === free.loadId) ?? busy[busy.length - 1]!;
    after = freeAfterOf(last.row, busy.length, free.at, free.clocks);
  }
  const legs = await routing.route([origin, ...remaining]);
  const drivers = [leadDriver, ...(co ? [planDriver(co, now)] : [])];
  const timeZone = await userTimeZone(s.db, s.orgId, s.userId);
  const plan = planTrip({ now: startsAt, origin, drivers, stops: remaining, legs, timeZone });
  if (!finished) {
    plan.feasible = false;
    plan.reason = UNFINISHED;
  }
  const route = await routeOf(routing, stops, legs[0]!, remaining[0]!.stopId);
  return presentPlan(plan, { routing: routing.kind, startsAt, origin, after, route });
}

type CandidateQuery = z.output<typeof candidateQuerySchema>;

/**
 * GET loads/{id}/candidates: every active driver (a search narrows by name), planned alone from where
 * their vehicle is now, ranked by "delivers on time legally", then deadhead, then drive time left
 * (the planner's ranking: straight-line deadheads first, the best 25 routed exactly); each excluded
 * one with the reason in the reader's zone. A driver whose licence or medical certificate has expired
 * by the load's end is not planned: listed after them with the paper as the reason (issue 71); a
 * driver whose vehicle never reported comes last.
 */
export async function loadCandidates(
  s: ReadScope & { userId: string | null },
  routing: RoutingPort,
  loadId: string,
  q: CandidateQuery,
  known?: KnownLegs,
): Promise<Page<Candidate>> {
  const now = s.now ?? Date.now();
  const { stops } = await loadWithStops(s.db, s.orgId, loadId);
  const remaining = remainingStops(stops);
  if (remaining.length === 0) throw badRequest('Every stop of this load is done: nobody is left to find');
  const target = { id: loadId, firstWindowStart: stops[0]!.windowStart.getTime() };
  const [recs, positions, busyByDriver, timeZone] = await Promise.all([
    planDriversOf(s.db, s.orgId, now),
    fleetPositions(s.db, s.orgId),
    busyLoads(s.db, s.orgId),
    userTimeZone(s.db, s.orgId, s.userId),
  ]);
  const term = q.search?.trim().toLowerCase();
  const nameOf = (r: PlanDriverRecord) => `${r.driver.firstName} ${r.driver.lastName}`;
  const chosen = [...recs.values()].filter((r) => !term || nameOf(r).toLowerCase().includes(term));
  // A driver whose licence or medical certificate has expired by the load's end is not offered (issue 71, decision 0302).
  // So is one whose own truck, which "Assign" gives the load with them, is kept off it by its papers.
  const truckOf = (r: PlanDriverRecord) => (r.driver.vehicle?.type === 'VEHICLE' ? r.driver.vehicle : null);
  const refused = await dispatchRefusals(
    s.db,
    s.orgId,
    { driverIds: chosen.map((r) => r.driver.id), assetIds: chosen.flatMap((r) => (truckOf(r) ? [truckOf(r)!.id] : [])) },
    loadEndsAt(stops, now),
    now,
  );
  const refusalOf = (r: PlanDriverRecord): string | null => {
    const own = refused.get(r.driver.id);
    if (own) return own.reason;
    const truck = truckOf(r);
    const unit = truck ? refused.get(truck.id) : undefined;
    return truck && unit ? `their truck ${truck.unitNumber}: ${unit.reason}` : null;
  };
  const located: CandidateDriver[] = [];
  const unlocated: Candidate[] = [];
  const unqualified: Candidate[] = [];
  const firstLoads = new Map<string, Array<BusyLoad & { row: BusyLoadRow }>>();
  for (const rec of chosen) {
    const driver = planDriver(rec, now);
    const refusal = refusalOf(rec);
    if (refusal) {
      unqualified.push({
        driverId: rec.driver.id,
        name: nameOf(rec),
        feasible: false,
        deadheadMiles: 0,
        remainingDriveMinutes: remainingDriveMinutes(driver, now),
        lastStopEta: null,
        reason: refusal,
        currentLoad: currentLoadOf(busyByDriver.get(rec.driver.id), loadId),
        after: null,
      });
      continue;
    }
    const busy = busyOf(loadsBefore(busyByDriver.get(rec.driver.id), target), recs, now);
    const fix = driverFix(positions, rec.driver.id, [busy[0]?.row.assetId, rec.driver.vehicle?.id]);
    // A driver on a load whose vehicle never reported starts from that load's next stop.
    const origin = fix ?? (busy[0] ? { lat: busy[0].stops[0]!.lat, lon: busy[0].stops[0]!.lon } : null);
    if (busy.length) firstLoads.set(rec.driver.id, busy);
    if (origin)
      located.push({
        driverId: rec.driver.id,
        origin: { lat: origin.lat, lon: origin.lon },
        drivers: [driver],
        busy: busy.length ? busy : undefined,
        busyLegs: knownBusyLegs(busy, fix, known),
      });
    else
      unlocated.push({
        driverId: rec.driver.id,
        name: nameOf(rec),
        feasible: false,
        deadheadMiles: 0,
        remainingDriveMinutes: remainingDriveMinutes(driver, now),
        lastStopEta: null,
        reason: 'no position known: no vehicle of the driver has reported',
        currentLoad: currentLoadOf(busyByDriver.get(rec.driver.id), loadId),
        after: null,
      });
  }
  const loadLegs = remaining.length > 1 ? await routing.route(remaining) : [];
  const ranked = await rankCandidatesRouted(routing, now, { stops: remaining, firstStop: remaining[0]!, loadLegs }, located, { timeZone });
  // Only the page's rows are worded (a busy driver's clocks are read then).
  const from = q.page * q.size;
  const rows: Array<Candidate | null> = ranked.map((r, i) => {
    if (i < from || i >= from + q.size) return null;
    const busy = firstLoads.get(r.driverId);
    const last = r.after && busy ? (busy.find((b) => b.loadId === r.after!.loadId) ?? busy[busy.length - 1]!) : null;
    return {
      driverId: r.driverId,
      name: nameOf(recs.get(r.driverId)!),
      feasible: r.feasible,
      deadheadMiles: milesOf(r.deadheadMetres),
      remainingDriveMinutes: Math.round(r.remainingDriveMs / 60_000),
      lastStopEta: r.lastStopEta === null ? null : new Date(r.lastStopEta).toISOString(),
      reason: r.reason,
      currentLoad: currentLoadOf(busyByDriver.get(r.driverId), loadId),
      after: r.after && last && busy ? freeAfterOf(last.row, busy.length, r.startsAt, r.after.clocks) : null,
    };
  });
  unqualified.sort((a, b) => a.name.localeCompare(b.name));
  unlocated.sort((a, b) => a.name.localeCompare(b.name));
  const all = [...rows, ...unqualified, ...unlocated];
  return toPage(all.slice(from, from + q.size) as Candidate[], all.length, q);
}
