import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Driver, DriverDetail } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assetDriverAssignments, assets, drivers, users } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { groupsOfMembers } from '../groups/groups.filter.ts';

type DriverRow = typeof drivers.$inferSelect;

function presentDriver(d: DriverRow, vehicle: Driver['vehicle'], user: Driver['user'], groups: Driver['groups']): Driver {
  return {
    id: d.id,
    organizationId: d.organizationId,
    firstName: d.firstName,
    lastName: d.lastName,
    email: d.email,
    phone: d.phone,
    employeeId: d.employeeId,
    licenseNumber: d.licenseNumber,
    licenseState: d.licenseState,
    licenseClass: d.licenseClass,
    licenseExpiry: d.licenseExpiry,
    homeTimeZone: d.homeTimeZone,
    ruleset: d.ruleset,
    shortHaul150: d.shortHaul150,
    sixteenHour: d.sixteenHour,
    personalConveyanceAllowed: d.personalConveyanceAllowed,
    yardMovesAllowed: d.yardMovesAllowed,
    eldExempt: d.eldExempt,
    eldExemptReason: d.eldExemptReason,
    status: d.status,
    notes: d.notes,
    vehicle,
    user,
    groups,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** Drivers with their assigned vehicle, sign-in account and groups, presented. */
export async function selectDrivers(
  db: DbOrTx,
  orgId: string,
  where: SQL | undefined,
  opts: { orderBy?: SQL[]; limit?: number; offset?: number } = {},
): Promise<Driver[]> {
  let q = db
    .select({
      d: drivers,
      vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type },
      user: { id: users.id, email: users.email },
    })
    .from(drivers)
    .leftJoin(assets, eq(assets.currentDriverId, drivers.id))
    .leftJoin(users, eq(users.id, drivers.userId))
    .where(and(eq(drivers.organizationId, orgId), where))
    .$dynamic();
  if (opts.orderBy) q = q.orderBy(...opts.orderBy);
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset) q = q.offset(opts.offset);
  const rows = await q;
  const groups = await groupsOfMembers(db, orgId, 'DRIVER', rows.map((r) => r.d.id));
  return rows.map((r) => presentDriver(r.d, r.vehicle?.id ? r.vehicle : null, r.user?.id ? r.user : null, groups.get(r.d.id) ?? []));
}

export async function getDriverDetail(db: DbOrTx, orgId: string, id: string): Promise<DriverDetail> {
  const [d] = await selectDrivers(db, orgId, eq(drivers.id, id));
  if (!d) throw notFound('Driver');
  const history = await db
    .select({ a: assetDriverAssignments, v: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } })
    .from(assetDriverAssignments)
    .innerJoin(assets, eq(assets.id, assetDriverAssignments.assetId))
    .where(and(eq(assetDriverAssignments.organizationId, orgId), eq(assetDriverAssignments.driverId, id)))
    .orderBy(desc(assetDriverAssignments.startedAt))
    .limit(50);
  return { ...d, vehicleHistory: history.map((r) => ({ from: r.a.startedAt.toISOString(), to: r.a.endedAt?.toISOString() ?? null, asset: r.v })) };
}

export async function lockDriverRow(tx: DbOrTx, orgId: string, id: string): Promise<DriverRow> {
  const [d] = await tx
    .select()
    .from(drivers)
    .where(and(eq(drivers.id, id), eq(drivers.organizationId, orgId)))
    .for('update');
  if (!d) throw notFound('Driver');
  return d;
}
