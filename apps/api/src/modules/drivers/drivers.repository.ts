import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Driver, DriverDetail } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assetDriverAssignments, assets, drivers, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RowLock } from '../../db/sql/row-lock.ts';

// The driver's groups as a JSON array in the list query itself (one round trip per page). The
// organization is the parameter, not the outer row's column: Citus keeps such a sub-select on the
// organization's shard (decision 0169).
const groupsJson = (orgId: string) => sql<Array<{ id: string; name: string }> | null>`(
  select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
  from group_members gm join groups g on g.id = gm.group_id and g.organization_id = gm.organization_id
  where gm.member_type = 'DRIVER' and gm.member_id = "drivers"."id" and gm.organization_id = ${orgId})`;

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
    homeTerminalId: d.homeTerminalId,
    ruleset: d.ruleset,
    shortHaul150: d.shortHaul150,
    sixteenHour: d.sixteenHour,
    oilfield: d.oilfield,
    personalConveyanceAllowed: d.personalConveyanceAllowed,
    yardMovesAllowed: d.yardMovesAllowed,
    eldExempt: d.eldExempt,
    eldExemptReason: d.eldExemptReason,
    status: d.status,
    notes: d.notes,
    cardNumber: d.cardNumber,
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
  // The page is chosen on the drivers table alone, then only its rows are joined (see selectAssets).
  let pageIds: string[] | null = null;
  if (opts.limit !== undefined) {
    let ids = db
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), where))
      .$dynamic();
    if (opts.orderBy) ids = ids.orderBy(...opts.orderBy);
    pageIds = (await ids.limit(opts.limit).offset(opts.offset ?? 0)).map((r) => r.id);
    if (pageIds.length === 0) return [];
  }
  let q = db
    .select({
      d: drivers,
      vehicle: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type },
      user: { id: users.id, email: users.email },
      groups: groupsJson(orgId),
    })
    .from(drivers)
    .leftJoin(assets, and(eq(assets.currentDriverId, drivers.id), eq(assets.organizationId, drivers.organizationId)))
    .leftJoin(users, eq(users.id, drivers.userId))
    .where(and(eq(drivers.organizationId, orgId), pageIds ? inArray(drivers.id, pageIds) : where))
    .$dynamic();
  if (opts.orderBy && !pageIds) q = q.orderBy(...opts.orderBy);
  const fetched = await q;
  const rank = new Map(pageIds?.map((id, i) => [id, i]));
  const rows = pageIds ? fetched.sort((x, y) => (rank.get(x.d.id) ?? 0) - (rank.get(y.d.id) ?? 0)) : fetched;
  return rows.map((r) => presentDriver(r.d, r.vehicle?.id ? r.vehicle : null, r.user?.id ? r.user : null, r.groups ?? []));
}

export async function getDriverDetail(db: DbOrTx, orgId: string, id: string): Promise<DriverDetail> {
  const [d] = await selectDrivers(db, orgId, eq(drivers.id, id));
  if (!d) throw notFound('Driver');
  const history = await db
    .select({ a: assetDriverAssignments, v: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } })
    .from(assetDriverAssignments)
    .innerJoin(assets, and(eq(assets.id, assetDriverAssignments.assetId), eq(assets.organizationId, assetDriverAssignments.organizationId)))
    .where(and(eq(assetDriverAssignments.organizationId, orgId), eq(assetDriverAssignments.driverId, id)))
    .orderBy(desc(assetDriverAssignments.startedAt))
    .limit(50);
  return { ...d, vehicleHistory: history.map((r) => ({ from: r.a.startedAt.toISOString(), to: r.a.endedAt?.toISOString() ?? null, asset: r.v })) };
}

/** The organization's driver with this card (16 upper-case hex digits), locked; undefined: no driver has it. */
export async function lockDriverByCard(tx: DbOrTx, orgId: string, cardNumber: string): Promise<DriverRow | undefined> {
  const [d] = await tx
    .select()
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.cardNumber, cardNumber)))
    .for('no key update');
  return d;
}

export async function lockDriverRow(tx: DbOrTx, orgId: string, id: string, strength: RowLock = 'no key update'): Promise<DriverRow> {
  const [d] = await tx
    .select()
    .from(drivers)
    .where(and(eq(drivers.id, id), eq(drivers.organizationId, orgId)))
    .for(strength);
  if (!d) throw notFound('Driver');
  return d;
}
