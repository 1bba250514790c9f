import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { ACTIVE_LOAD_STATUSES } from '@fleet/api-contract';
import type { LatLon, PlanStop } from '@fleet/dispatch';
import type { DbOrTx } from '../../db/client.ts';
import { latestPositions, loads, loadStops, organizations, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

// What a plan reads besides the drivers' logs (issue 33, decision 0167): the load and its stops,
// where the vehicles are, which load each driver is on, and the zone to word times in. Each is one
// statement for the whole organization, so candidates among hundreds of drivers cost a few reads.

export type LoadRow = typeof loads.$inferSelect;
export type StopRow = typeof loadStops.$inferSelect;

export async function loadWithStops(db: DbOrTx, orgId: string, loadId: string): Promise<{ load: LoadRow; stops: StopRow[] }> {
  const [load] = await db.select().from(loads).where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
  if (!load) throw notFound('Load');
  const stops = await db.select().from(loadStops).where(eq(loadStops.loadId, loadId)).orderBy(asc(loadStops.seq));
  return { load, stops };
}

/** The stops still to do (not departed), as the planner takes them. */
export function remainingStops(stops: readonly StopRow[]): Array<PlanStop & LatLon> {
  return stops
    .filter((s) => s.departedAt === null)
    .map((s) => ({
      stopId: s.id,
      kind: s.kind,
      windowStart: s.windowStart.getTime(),
      windowEnd: s.windowEnd.getTime(),
      serviceMinutes: s.serviceMinutes,
      arrivedAt: s.arrivedAt?.getTime() ?? null,
      departedAt: null,
      lat: s.latitude,
      lon: s.longitude,
    }));
}

export interface Fix extends LatLon {
  t: number;
}

/** The newest fix of every vehicle of the organization, by vehicle and by the driver it last reported. */
export async function fleetPositions(db: DbOrTx, orgId: string, assetIds?: readonly string[]): Promise<{ byAsset: Map<string, Fix>; byDriver: Map<string, Fix> }> {
  const rows = await db
    .select({ assetId: latestPositions.assetId, driverId: latestPositions.driverId, lat: latestPositions.latitude, lon: latestPositions.longitude, t: latestPositions.fixTime })
    .from(latestPositions)
    .where(and(eq(latestPositions.organizationId, orgId), assetIds ? inArray(latestPositions.assetId, [...assetIds]) : undefined));
  const byAsset = new Map<string, Fix>();
  const byDriver = new Map<string, Fix>();
  for (const r of rows) {
    const fix = { lat: r.lat, lon: r.lon, t: r.t.getTime() };
    byAsset.set(r.assetId, fix);
    const had = r.driverId ? byDriver.get(r.driverId) : undefined;
    if (r.driverId && (!had || had.t < fix.t)) byDriver.set(r.driverId, fix);
  }
  return { byAsset, byDriver };
}

/** Where a driver is: the given vehicle's fix, else their assigned vehicle's, else the newest fix they reported. */
export function driverFix(p: { byAsset: Map<string, Fix>; byDriver: Map<string, Fix> }, driverId: string, assetIds: ReadonlyArray<string | null | undefined>): Fix | null {
  for (const a of assetIds) {
    const f = a ? p.byAsset.get(a) : undefined;
    if (f) return f;
  }
  return p.byDriver.get(driverId) ?? null;
}

/** The running load each driver is on (lead or team), one statement. */
export async function currentLoads(db: DbOrTx, orgId: string): Promise<Map<string, { id: string; number: string }>> {
  const rows = await db
    .select({ id: loads.id, number: loads.number, driverId: loads.driverId, coDriverId: loads.coDriverId })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), inArray(loads.status, [...ACTIVE_LOAD_STATUSES]), or(sql`${loads.driverId} is not null`, sql`${loads.coDriverId} is not null`)))
    .orderBy(asc(loads.createdAt));
  const out = new Map<string, { id: string; number: string }>();
  for (const r of rows) for (const d of [r.driverId, r.coDriverId]) if (d && !out.has(d)) out.set(d, { id: r.id, number: r.number });
  return out;
}

/** The zone a signed-in user reads times in: their profile's, else the organization's (decision 0140). */
export async function userTimeZone(db: DbOrTx, orgId: string, userId: string | null): Promise<string> {
  if (userId) {
    const [me] = await db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId));
    if (me?.tz) return me.tz;
  }
  const [o] = await db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return o?.tz ?? 'UTC';
}
