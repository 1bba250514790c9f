import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { InspectionDue, Page, inspectionsDueQuery } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { countAll } from '../../db/sql/count-all.ts';
import { assets, drivers, dvirs, organizations, users, vehicleDailyStats } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { assertGroup, assetInGroup } from '../groups/index.ts';
import { dayStartMs, logDateOf, nextDate } from '../hos/index.ts';
import type { ReadScope } from '../auth/index.ts';

// `GET maintenance/inspections-due` (issue 31, decision 0159): the vehicles that moved on a day and
// have no inspection report signed that day, the dashboard's "inspections due".

type Query = z.output<typeof inspectionsDueQuery>;

/**
 * The viewer's zone (decision 0140: the profile's, else the organization's) and the day asked, or
 * today in that zone. 404 "Organization" for an organization that does not exist.
 */
export async function viewerDay(db: DbOrTx, orgId: string, userId: string, date: string | undefined, nowMs: number): Promise<{ tz: string; date: string }> {
  const [org] = await db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw notFound('Organization');
  const [me] = await db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId));
  const tz = me?.tz || org.tz;
  return { tz, date: date ?? logDateOf(nowMs, tz, '00:00') };
}

/**
 * The filter of the vehicles due: moved that day (the daily statistics' driving time, what the
 * dashboard's "vehicles driven" counts) and no report signed in the day's bounds in `tz`.
 */
function dueFilter(orgId: string, date: string, tz: string, groupId: string | undefined): SQL {
  const from = new Date(dayStartMs(date, tz, '00:00')).toISOString();
  const to = new Date(dayStartMs(nextDate(date), tz, '00:00')).toISOString();
  return and(
    eq(vehicleDailyStats.organizationId, orgId),
    eq(vehicleDailyStats.day, date),
    gt(vehicleDailyStats.drivingMs, 0),
    eq(assets.type, 'VEHICLE'),
    groupId ? assetInGroup(orgId, groupId, assets.id) : undefined,
    sql`not exists (select 1 from ${dvirs} where ${dvirs.organizationId} = ${orgId} and ${dvirs.assetId} = ${assets.id} and ${dvirs.inspectedAt} >= ${from}::timestamptz and ${dvirs.inspectedAt} < ${to}::timestamptz)`,
  )!;
}

/** How many vehicles are due an inspection on `date` (the dashboard counts with the list's own filter). */
export async function countInspectionsDue(db: DbOrTx, orgId: string, date: string, tz: string, groupId?: string): Promise<number> {
  const [n] = await db
    .select({ n: countAll })
    .from(vehicleDailyStats)
    .innerJoin(assets, and(eq(assets.id, vehicleDailyStats.assetId), eq(assets.organizationId, orgId)))
    .where(dueFilter(orgId, date, tz, groupId));
  return n?.n ?? 0;
}

/** The page of vehicles due an inspection, by unit number, with the driver assigned now and the last report before the day ended. */
export async function listInspectionsDue({ db, orgId, now }: ReadScope, userId: string, q: Query): Promise<Page<InspectionDue>> {
  const { tz, date } = await viewerDay(db, orgId, userId, q.date, now ?? Date.now());
  if (q.groupId) await assertGroup(db, orgId, q.groupId);
  const to = new Date(dayStartMs(nextDate(date), tz, '00:00')).toISOString();
  const where = dueFilter(orgId, date, tz, q.groupId);
  const total = await countInspectionsDue(db, orgId, date, tz, q.groupId);
  const rows = await db
    .select({
      assetId: assets.id,
      unitNumber: assets.unitNumber,
      driverId: drivers.id,
      firstName: drivers.firstName,
      lastName: drivers.lastName,
      lastReportAt: sql<
        Date | string | null
      >`(select max(${dvirs.inspectedAt}) from ${dvirs} where ${dvirs.organizationId} = ${orgId} and ${dvirs.assetId} = ${assets.id} and ${dvirs.inspectedAt} < ${to}::timestamptz)`,
    })
    .from(vehicleDailyStats)
    .innerJoin(assets, and(eq(assets.id, vehicleDailyStats.assetId), eq(assets.organizationId, orgId)))
    .leftJoin(drivers, and(eq(drivers.id, assets.currentDriverId), eq(drivers.organizationId, orgId)))
    .where(where)
    .orderBy(asc(assets.unitNumber), asc(assets.id))
    .limit(q.size)
    .offset(q.page * q.size);
  const content = rows.map((r) => ({
    assetId: r.assetId,
    unitNumber: r.unitNumber,
    driver: r.driverId ? { id: r.driverId, name: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() } : null,
    lastReportAt: r.lastReportAt === null ? null : new Date(r.lastReportAt).toISOString(),
  }));
  return toPage(content, total, q);
}
