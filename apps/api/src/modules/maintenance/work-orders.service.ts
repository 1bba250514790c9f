import { and, desc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { Page, WorkOrder, workOrderInputSchema, workOrderListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, maintenanceSchedules, maintenanceServices, vehicleDefects, workOrders } from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { conflictOn, invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { restartService, scheduleCovers } from './schedules.service.ts';

// Work orders (issue 31, decision 0158): a repair or service job on a vehicle or trailer. Defects of
// that unit are linked to it (vehicle_defects.work_order_id); an order of a maintenance schedule,
// set DONE, restarts that schedule's intervals for the vehicle. Cost is kept in integer cents.

type Input = z.output<typeof workOrderInputSchema>;
type ListQuery = z.output<typeof workOrderListQuery>;
type Row = typeof workOrders.$inferSelect;

/** Labour hours are stored as `real`: read back to the hundredth, without float noise. */
const hundredths = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

function present(r: Row, defectIds: string[]): WorkOrder {
  return {
    id: r.id,
    organizationId: r.organizationId,
    asset: { id: r.assetId, unitNumber: r.unitNumber },
    title: r.title,
    description: r.description,
    status: r.status,
    defectIds,
    assignee: r.assignee,
    parts: r.parts,
    laborHours: hundredths(r.laborHours),
    cost: r.costCents === null ? null : r.costCents / 100,
    scheduleId: r.scheduleId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
  };
}

/** The defects linked to each order, oldest report first. */
async function defectIdsOf(db: DbOrTx, orgId: string, orderIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({ id: vehicleDefects.id, workOrderId: vehicleDefects.workOrderId })
    .from(vehicleDefects)
    .where(and(eq(vehicleDefects.organizationId, orgId), inArray(vehicleDefects.workOrderId, orderIds)))
    .orderBy(vehicleDefects.createdAt, vehicleDefects.id);
  for (const r of rows) if (r.workOrderId) out.set(r.workOrderId, [...(out.get(r.workOrderId) ?? []), r.id]);
  return out;
}

async function findOrder(db: DbOrTx, orgId: string, id: string, lock = false): Promise<Row> {
  const q = db
    .select()
    .from(workOrders)
    .where(and(eq(workOrders.id, id), eq(workOrders.organizationId, orgId)));
  const [r] = lock ? await q.for('update') : await q;
  if (!r) throw notFound('Work order');
  return r;
}

/**
 * Checks the body against the organization's records: 400 naming the field for a unit, schedule or
 * defect that is not there (or not on this unit), 409 for a defect already on another open order.
 * Returns the unit's number. The defects are locked, so two orders cannot take the same one at once.
 */
async function checkInput(tx: DbOrTx, orgId: string, input: Input, orderId: string | null): Promise<string> {
  const [unit] = await tx
    .select({ unitNumber: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.id, input.assetId), eq(assets.organizationId, orgId)));
  if (!unit) throw invalidField('assetId', 'Vehicle is not a vehicle or trailer of this organization');
  if (input.scheduleId) {
    const [s] = await tx
      .select({ id: maintenanceSchedules.id })
      .from(maintenanceSchedules)
      .where(
        and(
          eq(maintenanceSchedules.id, input.scheduleId),
          eq(maintenanceSchedules.organizationId, orgId),
          scheduleCovers(sql`${input.assetId}::uuid`, maintenanceSchedules, orgId),
        ),
      );
    if (!s) throw invalidField('scheduleId', `Maintenance schedule is not a schedule of this organization covering ${unit.unitNumber}`);
  }
  const ids = [...new Set(input.defectIds)];
  if (ids.length === 0) return unit.unitNumber;
  const defects = await tx
    .select({ id: vehicleDefects.id, assetId: vehicleDefects.assetId, label: vehicleDefects.label, workOrderId: vehicleDefects.workOrderId })
    .from(vehicleDefects)
    .where(and(eq(vehicleDefects.organizationId, orgId), inArray(vehicleDefects.id, ids)))
    .for('update');
  const wrong = ids.filter((id) => !defects.some((d) => d.id === id && d.assetId === input.assetId));
  if (wrong.length) throw invalidField('defectIds', `Defects not reported on ${unit.unitNumber} in this organization: ${wrong.join(', ')}`);
  const elsewhere = defects.filter((d) => d.workOrderId !== null && d.workOrderId !== orderId).map((d) => d.workOrderId!);
  if (elsewhere.length) {
    const open = await tx
      .select({ id: workOrders.id, title: workOrders.title })
      .from(workOrders)
      .where(and(eq(workOrders.organizationId, orgId), inArray(workOrders.id, elsewhere), sql`${workOrders.status} <> 'DONE'`));
    const taken = defects.find((d) => open.some((o) => o.id === d.workOrderId));
    if (taken) {
      const order = open.find((o) => o.id === taken.workOrderId);
      throw conflictOn('defectIds', `Defect "${taken.label}" is already on open work order "${order?.title ?? ''}"`);
    }
  }
  return unit.unitNumber;
}

/** Points exactly `defectIds` at the order: others it held are let go. */
async function linkDefects(tx: DbOrTx, orgId: string, orderId: string, defectIds: string[]): Promise<void> {
  await tx
    .update(vehicleDefects)
    .set({ workOrderId: null })
    .where(
      and(
        eq(vehicleDefects.organizationId, orgId),
        eq(vehicleDefects.workOrderId, orderId),
        defectIds.length ? notInArray(vehicleDefects.id, defectIds) : undefined,
      ),
    );
  if (defectIds.length) {
    await tx
      .update(vehicleDefects)
      .set({ workOrderId: orderId })
      .where(and(eq(vehicleDefects.organizationId, orgId), inArray(vehicleDefects.id, defectIds)));
  }
}

const columnsOf = (input: Input, unitNumber: string) => ({
  assetId: input.assetId,
  unitNumber,
  title: input.title,
  description: input.description ?? null,
  status: input.status,
  assignee: input.assignee ?? null,
  parts: input.parts ?? null,
  laborHours: input.laborHours ?? null,
  // Money to the cent, as IFTA keeps it.
  costCents: input.cost == null ? null : Math.round(input.cost * 100),
  scheduleId: input.scheduleId ?? null,
});

const SORTS = { createdAt: workOrders.createdAt, title: sql`lower(${workOrders.title})`, status: workOrders.status, completedAt: workOrders.completedAt };

/** A page of work orders, newest first. */
export async function listWorkOrders({ db, orgId }: ReadScope, q: ListQuery): Promise<Page<WorkOrder>> {
  const where = and(
    eq(workOrders.organizationId, orgId),
    q.assetId ? eq(workOrders.assetId, q.assetId) : undefined,
    q.status ? eq(workOrders.status, q.status) : undefined,
    q.search ? or(sql`lower(${workOrders.title}) like ${likeTerm(q.search)}`, sql`lower(${workOrders.unitNumber}) like ${likeTerm(q.search)}`) : undefined,
  );
  const [total] = await db.select({ n: countAll }).from(workOrders).where(where);
  const rows = await db
    .select()
    .from(workOrders)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, desc(workOrders.createdAt), desc(workOrders.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  const defects = await defectIdsOf(
    db,
    orgId,
    rows.map((r) => r.id),
  );
  return toPage(
    rows.map((r) => present(r, defects.get(r.id) ?? [])),
    total?.n ?? 0,
    q,
  );
}

export async function getWorkOrder({ db, orgId }: ReadScope, id: string): Promise<WorkOrder> {
  const r = await findOrder(db, orgId, id);
  return present(r, (await defectIdsOf(db, orgId, [id])).get(id) ?? []);
}

/** Creates an order, linking its defects; created DONE, it counts as the schedule's service. */
export async function createWorkOrder({ db, orgId, actor, now }: Scope, input: Input): Promise<WorkOrder> {
  const at = new Date(now ?? Date.now());
  const id = await db.transaction(async (tx) => {
    const unitNumber = await checkInput(tx, orgId, input, null);
    const [row] = await tx
      .insert(workOrders)
      .values({ organizationId: orgId, ...columnsOf(input, unitNumber), createdByUserId: actor.userId, completedAt: input.status === 'DONE' ? at : null })
      .returning();
    if (!row) throw new Error('work order insert returned nothing');
    const defectIds = [...new Set(input.defectIds)];
    await linkDefects(tx, orgId, row.id, defectIds);
    if (row.status === 'DONE' && row.scheduleId) await restartService(tx, orgId, row.scheduleId, row.assetId, row.id, at);
    await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'WORK_ORDER', entityId: row.id, after: { ...row, defectIds } });
    return row.id;
  });
  return getWorkOrder({ db, orgId }, id);
}

/**
 * Replaces an order. Set DONE it gets its completion time (and restarts its schedule's intervals for
 * the vehicle); taken back from DONE it loses it (the restarted schedule stays as serviced).
 */
export async function updateWorkOrder({ db, orgId, actor, now }: Scope, id: string, input: Input): Promise<WorkOrder> {
  const at = new Date(now ?? Date.now());
  await db.transaction(async (tx) => {
    const before = await findOrder(tx, orgId, id, true);
    const beforeDefects = (await defectIdsOf(tx, orgId, [id])).get(id) ?? [];
    const unitNumber = await checkInput(tx, orgId, input, id);
    const done = input.status === 'DONE';
    const completedAt = done ? (before.status === 'DONE' ? before.completedAt : at) : null;
    const [after] = await tx
      .update(workOrders)
      .set({ ...columnsOf(input, unitNumber), completedAt, updatedAt: at })
      .where(eq(workOrders.id, id))
      .returning();
    if (!after) throw notFound('Work order');
    const defectIds = [...new Set(input.defectIds)];
    await linkDefects(tx, orgId, id, defectIds);
    if (done && before.status !== 'DONE' && after.scheduleId) await restartService(tx, orgId, after.scheduleId, after.assetId, id, at);
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UPDATE',
      entityType: 'WORK_ORDER',
      entityId: id,
      before: { ...before, defectIds: beforeDefects },
      after: { ...after, defectIds },
    });
  });
  return getWorkOrder({ db, orgId }, id);
}

/** Deletes an order; its defects stay, open again for another order. */
export async function deleteWorkOrder({ db, orgId, actor }: Scope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findOrder(tx, orgId, id, true);
    const defectIds = (await defectIdsOf(tx, orgId, [id])).get(id) ?? [];
    await linkDefects(tx, orgId, id, []);
    await tx
      .update(maintenanceServices)
      .set({ workOrderId: null })
      .where(and(eq(maintenanceServices.organizationId, orgId), eq(maintenanceServices.workOrderId, id)));
    await tx.delete(workOrders).where(eq(workOrders.id, id));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'WORK_ORDER', entityId: id, before: { ...before, defectIds } });
  });
}
