import { and, eq, sql } from 'drizzle-orm';
import type { MaintenanceDue, Page, maintenanceDueQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, latestPositions, maintenanceSchedules, maintenanceServices } from '../../db/schema/index.ts';
import { toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { compareDue, maintenanceDue } from './maintenance-due.ts';
import { currentOdometerM, latestEngineHours, scheduleCovers } from './schedules.service.ts';

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
async function scheduleVehicles(db: DbOrTx, orgId: string, assetId?: string): Promise<Line[]> {
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
      odometerM: currentOdometerM,
      engineHours: latestEngineHours,
    })
    .from(maintenanceSchedules)
    .innerJoin(assets, and(eq(assets.organizationId, maintenanceSchedules.organizationId), eq(assets.type, 'VEHICLE'), scheduleCovers(assets.id, maintenanceSchedules)))
    .leftJoin(maintenanceServices, and(eq(maintenanceServices.scheduleId, maintenanceSchedules.id), eq(maintenanceServices.assetId, assets.id)))
    .leftJoin(latestPositions, eq(latestPositions.assetId, assets.id))
    .where(and(eq(maintenanceSchedules.organizationId, orgId), assetId ? eq(assets.id, assetId) : undefined));
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
      .values(missing.map((l) => ({ scheduleId: l.scheduleId, assetId: l.assetId, organizationId: orgId, doneAt: new Date(now), odometerM: l.current.odometerM, engineHours: l.current.engineHours })))
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

/** The vehicles due or overdue for service: overdue first, then by how soon. */
export async function listMaintenanceDue({ db, orgId, now }: ReadScope, q: DueQuery): Promise<Page<MaintenanceDue>> {
  const at = now ?? Date.now();
  const lines = await scheduleVehicles(db, orgId, q.assetId);
  await settleBaselines(db, orgId, lines, at);
  const due = lines
    .map((l) => ({ l, state: maintenanceDue(l.intervals, l.last!, l.current, at) }))
    .flatMap(({ l, state }) => (state.status && (!q.status || q.status === state.status) ? [{ l, state, status: state.status, remaining: state.remaining, unitNumber: l.unitNumber }] : []))
    .sort(compareDue);
  const content = due.slice(q.page * q.size, (q.page + 1) * q.size).map(({ l, state, status }) => ({
    scheduleId: l.scheduleId,
    assetId: l.assetId,
    unitNumber: l.unitNumber,
    name: l.name,
    status,
    dueAt: state.dueAt === null ? null : new Date(state.dueAt).toISOString(),
    // Kilometres, to the metre.
    dueOdometer: state.dueOdometerM === null ? null : Math.round(state.dueOdometerM) / 1000,
    dueEngineHours: state.dueEngineHours === null ? null : Math.round(state.dueEngineHours * 10) / 10,
  }));
  return toPage(content, due.length, q);
}
