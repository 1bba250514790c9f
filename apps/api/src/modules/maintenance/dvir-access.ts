import { and, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, dvirs, hosEvents, vehicleDefects } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { AuthContext } from '../auth/index.ts';

// Who reaches which inspection reports (issue 31, decision 0158), as hos-access does for logs: an
// office user holding DVIR_LIST reads the whole organization; a caller holding only the driver's code
// reaches the reports of the vehicles they drive. Only a driver signs a report or a review, so those
// need the caller's own driver record. What a driver may not reach answers 404, never 403.

/** How far back duty-status records on a vehicle make it one the driver drives (the 8 days of a roadside log). */
export const DRIVEN_WINDOW_MS = 8 * 24 * 3_600_000;

/** True when the caller reads only as a driver: it lacks the office code. */
export const selfOnly = (ctx: AuthContext): boolean => !ctx.permissions.has('DVIR_LIST');

export interface CallerDriver {
  id: string;
  name: string;
}

/** The driver record linked to the caller's account; 404 "Driver" for an office account without one. */
export async function callerDriver(db: DbOrTx, orgId: string, ctx: AuthContext): Promise<CallerDriver> {
  const [d] = await db
    .select({ id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
    .from(drivers)
    .where(and(eq(drivers.userId, ctx.userId), eq(drivers.organizationId, orgId)));
  if (!d) throw notFound('Driver');
  return { id: d.id, name: `${d.firstName} ${d.lastName}`.trim() };
}

/**
 * The vehicles a driver drives: the one assigned to them now, and those they have active duty-status
 * records on in the last 8 days (so the vehicle they drove yesterday stays readable after a swap).
 */
export async function vehiclesDrivenBy(db: DbOrTx, orgId: string, driverId: string, nowMs: number): Promise<string[]> {
  const [assigned, logged] = await Promise.all([
    db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, driverId))),
    db
      .selectDistinct({ id: hosEvents.vehicleId })
      .from(hosEvents)
      .where(
        and(
          eq(hosEvents.driverId, driverId),
          eq(hosEvents.organizationId, orgId),
          eq(hosEvents.recordStatus, 1),
          gte(hosEvents.eventTime, new Date(nowMs - DRIVEN_WINDOW_MS)),
          sql`${hosEvents.vehicleId} is not null`,
        ),
      ),
  ]);
  return [...new Set([...assigned.map((r) => r.id), ...logged.flatMap((r) => (r.id ? [r.id] : []))])];
}

/** 404 "Vehicle" unless the driver drives `assetId` (a vehicle of another driver is as unknown as a foreign one). */
export async function assertDrives(db: DbOrTx, orgId: string, driverId: string, assetId: string, nowMs: number): Promise<void> {
  if (!(await vehiclesDrivenBy(db, orgId, driverId, nowMs)).includes(assetId)) throw notFound('Vehicle');
}

/**
 * Which vehicles' reports the caller reads: `null` for every report of the organization (DVIR_LIST),
 * else the vehicles the caller's driver record drives (none for an account without one).
 */
export async function readableVehicles(db: DbOrTx, orgId: string, ctx: AuthContext, nowMs: number): Promise<string[] | null> {
  if (!selfOnly(ctx)) return null;
  const [d] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.userId, ctx.userId), eq(drivers.organizationId, orgId)));
  return d ? vehiclesDrivenBy(db, orgId, d.id, nowMs) : [];
}

/** Whether the caller may read the report (as `getDvir` answers it): who reads its photos and signatures by id. */
export async function dvirInReach(db: DbOrTx, orgId: string, ctx: AuthContext, dvirId: string, nowMs: number): Promise<boolean> {
  const [r] = await db
    .select({ assetId: dvirs.assetId })
    .from(dvirs)
    .where(and(eq(dvirs.organizationId, orgId), eq(dvirs.id, dvirId)));
  if (!r) return false;
  const vehicles = await readableVehicles(db, orgId, ctx, nowMs);
  return vehicles === null || vehicles.includes(r.assetId);
}

/** Whether the caller may read the defect's repair certification: the office, or a reader of the report it came from. */
export async function defectInReach(db: DbOrTx, orgId: string, ctx: AuthContext, defectId: string, nowMs: number): Promise<boolean> {
  const [d] = await db
    .select({ dvirId: vehicleDefects.dvirId })
    .from(vehicleDefects)
    .where(and(eq(vehicleDefects.organizationId, orgId), eq(vehicleDefects.id, defectId)));
  if (!d) return false;
  if (!selfOnly(ctx)) return true;
  return d.dvirId !== null && dvirInReach(db, orgId, ctx, d.dvirId, nowMs);
}
