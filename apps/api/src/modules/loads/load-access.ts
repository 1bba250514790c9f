import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Permission } from '@fleet/api-contract';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { drivers, loads } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { AuthContext, Scope } from '../auth/index.ts';
import { findLoadRow, type LoadRow } from './load-present.ts';

// Who reaches which loads (decision 0166), as inspection reports do (decision 0158): an office
// code reaches every load of the organization; a caller with only the driver's LOAD_SELF_WRITE
// reaches the loads they drive, lead or co-driver. A load out of reach answers 404, never 403.

export type Reach = { all: true } | { all: false; driverId: string | null };

/** The caller's reach: every load with `office`, else the loads of their own driver record (none without one). */
export async function reachOf(db: DbOrTx, orgId: string, ctx: AuthContext, office: Permission): Promise<Reach> {
  if (ctx.permissions.has(office)) return { all: true };
  const [d] = await db
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.userId, ctx.userId), eq(drivers.organizationId, orgId)));
  return { all: false, driverId: d?.id ?? null };
}

/** The loads in reach, as a condition on `loads`. */
export function reachable(reach: Reach): SQL | undefined {
  if (reach.all) return undefined;
  if (!reach.driverId) return sql`false`;
  return or(eq(loads.driverId, reach.driverId), eq(loads.coDriverId, reach.driverId));
}

export const inReach = (reach: Reach, load: { driverId: string | null; coDriverId: string | null }): boolean =>
  reach.all || (!!reach.driverId && (load.driverId === reach.driverId || load.coDriverId === reach.driverId));

/** Whether the caller may read the load (LOAD_LIST, or a driver of it): who reads its papers by id. */
export async function loadInReach(db: DbOrTx, orgId: string, ctx: AuthContext, loadId: string): Promise<boolean> {
  const [load] = await db
    .select({ driverId: loads.driverId, coDriverId: loads.coDriverId })
    .from(loads)
    .where(and(eq(loads.organizationId, orgId), eq(loads.id, loadId)));
  return !!load && inReach(await reachOf(db, orgId, ctx, 'LOAD_LIST'), load);
}

/** The load locked, when the caller reaches it for writing (404 otherwise). */
export async function lockedInReach(tx: Tx, s: Scope, reach: Reach, loadId: string): Promise<LoadRow> {
  const load = await findLoadRow(tx, s.orgId, loadId, true);
  if (!load || !inReach(reach, load)) throw notFound('Load');
  return load;
}
