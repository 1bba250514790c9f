import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { ACTIVE_LOAD_STATUSES } from '@fleet/api-contract';
import type { LatLon, PlanStop } from '@fleet/dispatch';
import type { DbOrTx } from '../../db/client.ts';
import { latestPositions, loads, loadStops, organizations, places, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

// What a plan reads besides the drivers' logs (issue 33, decision 0167): the load and its stops,
// where the vehicles are, which load each driver is on, and the zone to word times in. Each is one
// statement for the whole organization, so candidates among hundreds of drivers cost a few reads.

export type LoadRow = typeof loads.$inferSelect;
export type StopRow = typeof loadStops.$inferSelect;

export async function loadWithStops(db: DbOrTx, orgId: string, loadId: string): Promise<{ load: LoadRow; stops: StopRow[] }> {
  const [load] = await db
    .select()
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
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
export async function fleetPositions(
  db: DbOrTx,
  orgId: string,
  assetIds?: readonly string[],
): Promise<{ byAsset: Map<string, Fix>; byDriver: Map<string, Fix> }> {
  const rows = await db
    .select({
      assetId: latestPositions.assetId,
      driverId: latestPositions.driverId,
      lat: latestPositions.latitude,
      lon: latestPositions.longitude,
      t: latestPositions.fixTime,
    })
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
export function driverFix(
  p: { byAsset: Map<string, Fix>; byDriver: Map<string, Fix> },
  driverId: string,
  assetIds: ReadonlyArray<string | null | undefined>,
): Fix | null {
  for (const a of assetIds) {
    const f = a ? p.byAsset.get(a) : undefined;
    if (f) return f;
  }
  return p.byDriver.get(driverId) ?? null;
}

/** A load a driver is on or assigned to, with its stops (and their places' names) in order. */
export interface BusyLoadRow {
  id: string;
  number: string;
  status: LoadRow['status'];
  driverId: string | null;
  coDriverId: string | null;
  assetId: string | null;
  stops: Array<StopRow & { placeName: string | null }>;
}

const UNDER_WAY = new Set<LoadRow['status']>(['EN_ROUTE', 'AT_STOP']);

/**
 * The loads each driver is on or assigned to (lead or co-driver; ASSIGNED, EN_ROUTE, AT_STOP), in the
 * order they will drive them: those under way first, then by their first appointment (issue 46). Two
 * statements for the organization (or the listed drivers).
 */
export async function busyLoads(db: DbOrTx, orgId: string, driverIds?: readonly string[]): Promise<Map<string, BusyLoadRow[]>> {
  const out = new Map<string, BusyLoadRow[]>();
  if (driverIds && driverIds.length === 0) return out;
  const rows = await db
    .select({
      id: loads.id,
      number: loads.number,
      status: loads.status,
      driverId: loads.driverId,
      coDriverId: loads.coDriverId,
      assetId: loads.assetId,
      createdAt: loads.createdAt,
    })
    .from(loads)
    .where(
      and(
        eq(loads.organizationId, orgId),
        inArray(loads.status, [...ACTIVE_LOAD_STATUSES]),
        driverIds
          ? or(inArray(loads.driverId, [...driverIds]), inArray(loads.coDriverId, [...driverIds]))
          : or(sql`${loads.driverId} is not null`, sql`${loads.coDriverId} is not null`),
      ),
    );
  if (rows.length === 0) return out;
  const stopRows = await db
    .select({ stop: loadStops, placeName: places.name })
    .from(loadStops)
    .leftJoin(places, and(eq(places.id, loadStops.placeId), eq(places.organizationId, loadStops.organizationId)))
    .where(
      and(
        eq(loadStops.organizationId, orgId),
        inArray(
          loadStops.loadId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(loadStops.loadId), asc(loadStops.seq));
  const stopsOf = new Map<string, BusyLoadRow['stops']>();
  for (const r of stopRows) {
    const list = stopsOf.get(r.stop.loadId) ?? [];
    list.push({ ...r.stop, placeName: r.placeName });
    stopsOf.set(r.stop.loadId, list);
  }
  const first = (l: BusyLoadRow) => l.stops[0]?.windowStart.getTime() ?? Infinity;
  const all = rows.map((r) => ({
    row: r,
    load: { id: r.id, number: r.number, status: r.status, driverId: r.driverId, coDriverId: r.coDriverId, assetId: r.assetId, stops: stopsOf.get(r.id) ?? [] },
  }));
  all.sort((a, b) => {
    const ua = UNDER_WAY.has(a.load.status) ? 0 : 1;
    const ub = UNDER_WAY.has(b.load.status) ? 0 : 1;
    if (ua !== ub) return ua - ub;
    if (ua === 0 && a.row.createdAt.getTime() !== b.row.createdAt.getTime()) return a.row.createdAt.getTime() - b.row.createdAt.getTime();
    return first(a.load) - first(b.load) || (a.load.id < b.load.id ? -1 : 1);
  });
  for (const { load } of all) {
    for (const d of [load.driverId, load.coDriverId]) {
      if (!d || (driverIds && !driverIds.includes(d))) continue;
      const list = out.get(d) ?? [];
      list.push(load);
      out.set(d, list);
    }
  }
  return out;
}

/**
 * Of a driver's loads, those they finish before `target` (a load, by id and first appointment): every
 * one under way, and the assigned ones whose first appointment opens before the target's.
 */
export function loadsBefore(busy: readonly BusyLoadRow[] | undefined, target: { id: string; firstWindowStart: number }): BusyLoadRow[] {
  return (busy ?? []).filter(
    (l) => l.id !== target.id && (UNDER_WAY.has(l.status) || (l.stops[0]?.windowStart.getTime() ?? Infinity) < target.firstWindowStart),
  );
}

/** The load a driver is on: the first under way, else the first assigned; null when none. */
export function currentLoadOf(busy: readonly BusyLoadRow[] | undefined, except?: string): { id: string; number: string } | null {
  const l = busy?.find((b) => b.id !== except);
  return l ? { id: l.id, number: l.number } : null;
}

/** "Minneapolis, MN" of an address written "street, city, ST zip" or "city, ST"; else the place's name. */
export function stopPlaceWords(s: { address: string | null; placeName: string | null }): string | null {
  const parts = (s.address ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length >= 3) return `${parts[parts.length - 2]}, ${parts[parts.length - 1]!.split(/\s+/)[0]}`;
  if (parts.length) return parts.join(', ');
  return s.placeName;
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
