import { and, eq, sql } from 'drizzle-orm';
import type { MaintenanceDue, MaintenanceNext, Page, maintenanceDueQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, latestPositions, maintenanceSchedules, maintenanceServices } from '../../db/schema/index.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { assertGroup, assetInGroup } from '../groups/index.ts';
import { notFound } from '../../http/errors.ts';
import { compareDue, maintenanceDue, nextStatus, type DueState } from './maintenance-due.ts';
import { latestEngineHours, scheduleCovers } from './schedules.service.ts';
import { vehicleOdometerSql } from '../assets/index.ts';

// `GET maintenance/due`: every vehicle of every schedule (a group's vehicles as the group is now),
// its last service and its meters now, fed to the pure maintenanceDue(); only DUE and OVERDUE listed.

type DueQuery = z.output<typeof maintenanceDueQuery>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

interface Line {
  scheduleId: string;
  assetId: string;
  unitNumber: string;
  name: string;
  intervals: { everyM: number | null; everyEngineHours: number | null; everyDays: number | null };
  last: { doneAt: number; odometerM: number | null; engineHours: number | null } | null;
  current: { odometerM: number | null; engineHours: number | null };
}

/** Each (schedule, vehicle) pair of the organization with its last service and current readings (one query). */
async function scheduleVehicles(db: DbOrTx, orgId: string, assetId?: string, groupId?: string): Promise<Line[]> {
  const rows = await db
    .select({
      scheduleId: maintenanceSchedules.id,
      name: maintenanceSchedules.name,
      everyM: maintenanceSchedules.everyM,
      everyEngineHours: maintenanceSchedules.everyEngineHours,
      everyDays: maintenanceSchedules.everyDays,
      assetId: assets.id,
      unitNumber: assets.unitNumber,
      doneAt: maintenanceServices.doneAt,
      lastOdometerM: maintenanceServices.odometerM,
      lastEngineHours: maintenanceServices.engineHours,
      // The vehicle's one odometer (assets' vehicleOdometerSql, issue 66).
      odometerM: vehicleOdometerSql(orgId),
      engineHours: latestEngineHours,
    })
    .from(maintenanceSchedules)
    .innerJoin(
      assets,
      and(
        eq(assets.organizationId, maintenanceSchedules.organizationId),
        eq(assets.type, 'VEHICLE'),
        scheduleCovers(assets.id, maintenanceSchedules, assets.organizationId),
      ),
    )
    .leftJoin(
      maintenanceServices,
      and(
        eq(maintenanceServices.scheduleId, maintenanceSchedules.id),
        eq(maintenanceServices.assetId, assets.id),
        eq(maintenanceServices.organizationId, assets.organizationId),
      ),
    )
    .leftJoin(latestPositions, and(eq(latestPositions.assetId, assets.id), eq(latestPositions.organizationId, assets.organizationId)))
    .where(
      and(
        eq(maintenanceSchedules.organizationId, orgId),
        assetId ? eq(assets.id, assetId) : undefined,
        groupId ? assetInGroup(orgId, groupId, assets.id) : undefined,
      ),
    );
  return rows.map((r) => ({
    scheduleId: r.scheduleId,
    assetId: r.assetId,
    unitNumber: r.unitNumber,
    name: r.name,
    intervals: { everyM: r.everyM, everyEngineHours: r.everyEngineHours, everyDays: r.everyDays },
    last: r.doneAt ? { doneAt: r.doneAt.getTime(), odometerM: r.lastOdometerM, engineHours: r.lastEngineHours } : null,
    current: { odometerM: num(r.odometerM), engineHours: num(r.engineHours) },
  }));
}

/**
 * Baselines found missing while reading: a vehicle that joined a schedule's group since (it starts
 * counting now, at today's readings), and a baseline taken before a meter was ever read (it counts
 * from the first reading seen). Written here, lazily, so group membership stays the groups module's.
 */
async function settleBaselines(db: DbOrTx, orgId: string, lines: Line[], now: number): Promise<void> {
  const missing = lines.filter((l) => l.last === null);
  if (missing.length) {
    await db
      .insert(maintenanceServices)
      .values(
        missing.map((l) => ({
          scheduleId: l.scheduleId,
          assetId: l.assetId,
          organizationId: orgId,
          doneAt: new Date(now),
          odometerM: l.current.odometerM,
          engineHours: l.current.engineHours,
        })),
      )
      .onConflictDoNothing();
    for (const l of missing) l.last = { doneAt: now, ...l.current };
  }
  for (const l of lines) {
    const last = l.last!;
    const fillOdometer = l.intervals.everyM !== null && last.odometerM === null && l.current.odometerM !== null;
    const fillHours = l.intervals.everyEngineHours !== null && last.engineHours === null && l.current.engineHours !== null;
    if (!fillOdometer && !fillHours) continue;
    if (fillOdometer) last.odometerM = l.current.odometerM;
    if (fillHours) last.engineHours = l.current.engineHours;
    await db
      .update(maintenanceServices)
      .set({
        odometerM: sql`coalesce(${maintenanceServices.odometerM}, ${last.odometerM})`,
        engineHours: sql`coalesce(${maintenanceServices.engineHours}, ${last.engineHours})`,
      })
      .where(and(eq(maintenanceServices.scheduleId, l.scheduleId), eq(maintenanceServices.assetId, l.assetId)));
  }
}

/** Every (schedule, vehicle) pair with its due state at `at`, baselines settled. */
async function judged(db: DbOrTx, orgId: string, at: number, assetId?: string, groupId?: string, settleAt = at): Promise<Array<{ l: Line; state: DueState }>> {
  const lines = await scheduleVehicles(db, orgId, assetId, groupId);
  await settleBaselines(db, orgId, lines, settleAt);
  return lines.map((l) => ({ l, state: maintenanceDue(l.intervals, l.last!, l.current, at) }));
}

/** Kilometres, to the metre; hours to the tenth (the wire's units). */
const wire = (state: DueState) => ({
  dueAt: state.dueAt === null ? null : new Date(state.dueAt).toISOString(),
  dueOdometer: state.dueOdometerM === null ? null : Math.round(state.dueOdometerM) / 1000,
  dueEngineHours: state.dueEngineHours === null ? null : Math.round(state.dueEngineHours * 10) / 10,
});

/**
 * The services due or overdue now, overdue first (the dashboard's counter and the service-due job
 * read this; the list pages it).
 */
export async function maintenanceDueNow(db: DbOrTx, orgId: string, at: number, groupId?: string): Promise<Array<MaintenanceDue & { remaining: number }>> {
  // A missing baseline is written at the real clock: a dashboard read "at" a past instant must not
  // start a vehicle's intervals back then.
  return (await judged(db, orgId, at, undefined, groupId, Date.now()))
    .flatMap(({ l, state }) => (state.status ? [{ l, state, status: state.status, remaining: state.remaining, unitNumber: l.unitNumber }] : []))
    .sort(compareDue)
    .map(({ l, state, status, remaining }) => ({
      scheduleId: l.scheduleId,
      assetId: l.assetId,
      unitNumber: l.unitNumber,
      name: l.name,
      status,
      ...wire(state),
      remaining,
    }));
}

/** Every schedule covering one vehicle with its next service, due or not (404 for a vehicle not of the organization). */
export async function maintenanceNext({ db, orgId, now }: ReadScope, assetId: string): Promise<MaintenanceNext> {
  const [vehicle] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId), eq(assets.type, 'VEHICLE')));
  if (!vehicle) throw notFound('Vehicle');
  const lines = await judged(db, orgId, now ?? Date.now(), assetId);
  const items = lines
    .map(({ l, state }) => ({ l, state, status: nextStatus(state) }))
    .sort((a, b) => a.state.remaining - b.state.remaining || a.l.name.localeCompare(b.l.name))
    .map(({ l, state, status }) => ({ scheduleId: l.scheduleId, assetId: l.assetId, unitNumber: l.unitNumber, name: l.name, status, ...wire(state) }));
  return { items };
}

/** The vehicles due or overdue for service: overdue first, then by how soon. */
export async function listMaintenanceDue({ db, orgId, now }: ReadScope, q: DueQuery): Promise<Page<MaintenanceDue>> {
  const at = now ?? Date.now();
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  const due = (await judged(db, orgId, at, q.assetId, q.groupId))
    .flatMap(({ l, state }) =>
      state.status && (!q.status || q.status === state.status)
        ? [{ l, state, status: state.status, remaining: state.remaining, unitNumber: l.unitNumber }]
        : [],
    )
    .sort(compareDue);
  const content = due.slice(q.page * q.size, (q.page + 1) * q.size).map(({ l, state, status }) => ({
    scheduleId: l.scheduleId,
    assetId: l.assetId,
    unitNumber: l.unitNumber,
    name: l.name,
    status,
    ...wire(state),
  }));
  return toPage(content, due.length, q);
}
