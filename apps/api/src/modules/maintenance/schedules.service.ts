import { and, asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { MaintenanceSchedule, Page, maintenanceScheduleInputSchema, maintenanceScheduleListQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, groupAssets, latestPositions, maintenanceSchedules, maintenanceServices, workOrders } from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { AppError, invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { vehicleOdometers } from '../assets/index.ts';
import { assertGroup } from '../groups/index.ts';

// Preventive maintenance schedules (issue 31, decision 0158): every N miles (stored as metres), N
// engine hours or N days, for one vehicle or a group's vehicles. Each vehicle of a schedule has a
// maintenance_services row: when it was last serviced, or entered the schedule, and what its meters
// read then; the due list counts the intervals from there.

type Input = z.output<typeof maintenanceScheduleInputSchema>;
type ListQuery = z.output<typeof maintenanceScheduleListQuery>;
type ScheduleRow = typeof maintenanceSchedules.$inferSelect;

/** Metres in a statute mile: `everyMiles` is the API's one distance in miles (by the name). */
export const METRES_PER_MILE = 1609.344;

/** The engine's total hours the device reported with the latest fix (ECM, decision 0155), else null. */
export const latestEngineHours = sql<
  number | null
>`case when jsonb_typeof(${latestPositions.attributes}->'engineHours') = 'number' then (${latestPositions.attributes}->>'engineHours')::float8 end`;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** What each vehicle's meters read now (odometer metres, engine hours). */
export async function readingsOf(
  db: DbOrTx,
  orgId: string,
  assetIds: string[],
): Promise<Map<string, { odometerM: number | null; engineHours: number | null }>> {
  const out = new Map<string, { odometerM: number | null; engineHours: number | null }>();
  if (assetIds.length === 0) return out;
  // The odometer is the vehicle's one reading (assets' vehicleOdometers, issue 66).
  const [rows, odometers] = await Promise.all([
    db
      .select({ id: assets.id, engineHours: latestEngineHours })
      .from(assets)
      .leftJoin(latestPositions, and(eq(latestPositions.assetId, assets.id), eq(latestPositions.organizationId, assets.organizationId)))
      .where(and(eq(assets.organizationId, orgId), inArray(assets.id, assetIds))),
    vehicleOdometers(db, orgId, assetIds),
  ]);
  for (const r of rows) out.set(r.id, { odometerM: odometers.get(r.id)?.metres ?? null, engineHours: num(r.engineHours) });
  return out;
}

/** True when the vehicle in `assetIdColumn` is one the schedule covers: its own vehicle, or a vehicle of its group now. */
export function scheduleCovers(
  assetIdColumn: SQL | typeof assets.id,
  s: { assetId: SQL | typeof maintenanceSchedules.assetId | string | null; groupId: SQL | typeof maintenanceSchedules.groupId | string | null },
  // The vehicle's organization (a column where the query correlates on a row, else the id): Citus routes the subquery by it (decision 0169).
  orgColumn?: typeof assets.organizationId | string,
): SQL {
  const sameOrg = orgColumn ? sql` and ${groupAssets.organizationId} = ${orgColumn}` : sql``;
  return sql`(${assetIdColumn} = ${s.assetId} or exists (select 1 from ${groupAssets} where ${groupAssets.groupId} = ${s.groupId} and ${groupAssets.assetId} = ${assetIdColumn}${sameOrg}))`;
}

/** The vehicles the schedule covers now (a group's vehicles, not its trailers). */
export async function vehiclesOf(db: DbOrTx, orgId: string, s: Pick<ScheduleRow, 'assetId' | 'groupId'>): Promise<string[]> {
  const rows = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE'), scheduleCovers(assets.id, s, orgId)));
  return rows.map((r) => r.id);
}

/**
 * Baseline rows for vehicles of the schedule that have none: the intervals count from `now` and the
 * meters as they read now. A vehicle that already has a row (serviced before) keeps it.
 */
export async function ensureBaselines(db: DbOrTx, orgId: string, scheduleId: string, assetIds: string[], now: Date): Promise<void> {
  if (assetIds.length === 0) return;
  const readings = await readingsOf(db, orgId, assetIds);
  await db
    .insert(maintenanceServices)
    .values(
      assetIds.map((assetId) => ({
        scheduleId,
        assetId,
        organizationId: orgId,
        doneAt: now,
        odometerM: readings.get(assetId)?.odometerM ?? null,
        engineHours: readings.get(assetId)?.engineHours ?? null,
      })),
    )
    .onConflictDoNothing();
}

/** A service done (a work order of the schedule set DONE): the vehicle's intervals restart now, at today's readings. */
export async function restartService(db: DbOrTx, orgId: string, scheduleId: string, assetId: string, workOrderId: string, now: Date): Promise<void> {
  const r = (await readingsOf(db, orgId, [assetId])).get(assetId);
  const values = { doneAt: now, odometerM: r?.odometerM ?? null, engineHours: r?.engineHours ?? null, workOrderId };
  await db
    .insert(maintenanceServices)
    .values({ scheduleId, assetId, organizationId: orgId, ...values })
    .onConflictDoUpdate({ target: [maintenanceServices.scheduleId, maintenanceServices.assetId, maintenanceServices.organizationId], set: values });
}

/** The schedule's row; 404 unless it belongs to the organization (another's is never seen). */
export async function findSchedule(db: DbOrTx, orgId: string, scheduleId: string, lock = false): Promise<ScheduleRow> {
  const q = db
    .select()
    .from(maintenanceSchedules)
    .where(and(eq(maintenanceSchedules.id, scheduleId), eq(maintenanceSchedules.organizationId, orgId)));
  const [s] = lock ? await q.for('update') : await q;
  if (!s) throw notFound('Maintenance schedule');
  return s;
}

/** Miles back from stored metres, without the float noise of the conversion. */
const milesOf = (m: number | null) => (m === null ? null : Math.round((m / METRES_PER_MILE) * 1000) / 1000);

function present(s: ScheduleRow): MaintenanceSchedule {
  return {
    id: s.id,
    organizationId: s.organizationId,
    assetId: s.assetId,
    groupId: s.groupId,
    name: s.name,
    everyMiles: milesOf(s.everyM),
    everyEngineHours: s.everyEngineHours,
    everyDays: s.everyDays,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** 400 naming the field unless the target is a vehicle, or a group, of the organization. */
async function checkTarget(db: DbOrTx, orgId: string, input: Input): Promise<void> {
  if (input.assetId) {
    const [v] = await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.id, input.assetId), eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
    if (!v) throw invalidField('assetId', 'Vehicle is not a vehicle of this organization');
  }
  if (input.groupId) {
    try {
      await assertGroup(db, orgId, input.groupId);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) throw invalidField('groupId', 'Group is not a group of this organization');
      throw err;
    }
  }
}

const columnsOf = (input: Input) => ({
  assetId: input.assetId ?? null,
  groupId: input.groupId ?? null,
  name: input.name,
  everyM: input.everyMiles == null ? null : input.everyMiles * METRES_PER_MILE,
  everyEngineHours: input.everyEngineHours ?? null,
  everyDays: input.everyDays ?? null,
});

const SORTS = { name: sql`lower(${maintenanceSchedules.name})`, createdAt: maintenanceSchedules.createdAt };

export async function listSchedules({ db, orgId }: ReadScope, q: ListQuery): Promise<Page<MaintenanceSchedule>> {
  const where = and(
    eq(maintenanceSchedules.organizationId, orgId),
    q.assetId ? scheduleCovers(sql`${q.assetId}::uuid`, maintenanceSchedules, orgId) : undefined,
    q.groupId ? eq(maintenanceSchedules.groupId, q.groupId) : undefined,
    q.search ? sql`lower(${maintenanceSchedules.name}) like ${likeTerm(q.search)}` : undefined,
  );
  const [total] = await db.select({ n: countAll }).from(maintenanceSchedules).where(where);
  const rows = await db
    .select()
    .from(maintenanceSchedules)
    .where(where)
    .orderBy(...orderBy(q.sort, SORTS, 'name', asc(maintenanceSchedules.id)))
    .limit(q.size)
    .offset(q.page * q.size);
  return toPage(rows.map(present), total?.n ?? 0, q);
}

export async function getSchedule({ db, orgId }: ReadScope, scheduleId: string): Promise<MaintenanceSchedule> {
  return present(await findSchedule(db, orgId, scheduleId));
}

/** Creates a schedule; each of its vehicles starts counting now, from today's readings. */
export async function createSchedule({ db, orgId, actor, now }: Scope, input: Input): Promise<MaintenanceSchedule> {
  const at = new Date(now ?? Date.now());
  const row = await db.transaction(async (tx) => {
    await checkTarget(tx, orgId, input);
    const [s] = await tx
      .insert(maintenanceSchedules)
      .values({ organizationId: orgId, ...columnsOf(input) })
      .returning();
    if (!s) throw new Error('schedule insert returned nothing');
    await ensureBaselines(tx, orgId, s.id, await vehiclesOf(tx, orgId, s), at);
    await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'MAINTENANCE_SCHEDULE', entityId: s.id, after: s });
    return s;
  });
  return present(row);
}

/**
 * Replaces a schedule. Vehicles it still covers keep their last service (new intervals count from
 * there); vehicles it no longer covers lose theirs; new ones start counting now.
 */
export async function updateSchedule({ db, orgId, actor, now }: Scope, scheduleId: string, input: Input): Promise<MaintenanceSchedule> {
  const at = new Date(now ?? Date.now());
  const row = await db.transaction(async (tx) => {
    const before = await findSchedule(tx, orgId, scheduleId, true);
    await checkTarget(tx, orgId, input);
    const [after] = await tx
      .update(maintenanceSchedules)
      .set({ ...columnsOf(input), updatedAt: at })
      .where(eq(maintenanceSchedules.id, scheduleId))
      .returning();
    if (!after) throw notFound('Maintenance schedule');
    const vehicles = await vehiclesOf(tx, orgId, after);
    await tx
      .delete(maintenanceServices)
      .where(and(eq(maintenanceServices.scheduleId, scheduleId), vehicles.length ? notInArray(maintenanceServices.assetId, vehicles) : undefined));
    await ensureBaselines(tx, orgId, scheduleId, vehicles, at);
    await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'MAINTENANCE_SCHEDULE', entityId: scheduleId, before, after });
    return after;
  });
  return present(row);
}

/** Deletes a schedule and its vehicles' service rows; its work orders stay, without the schedule. */
export async function deleteSchedule({ db, orgId, actor }: Scope, scheduleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findSchedule(tx, orgId, scheduleId, true);
    await tx
      .update(workOrders)
      .set({ scheduleId: null })
      .where(and(eq(workOrders.organizationId, orgId), eq(workOrders.scheduleId, scheduleId)));
    await tx.delete(maintenanceSchedules).where(eq(maintenanceSchedules.id, scheduleId));
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'MAINTENANCE_SCHEDULE', entityId: scheduleId, before });
  });
}
