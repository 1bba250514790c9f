import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ActivityLogDetail, ActivityLogEntry, activityLogQuerySchema, Page } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { activityLog, users } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../lib/errors.ts';
import { likePattern, orderBy, toPage } from '../../lib/paging.ts';
import { presentDetail, presentEntry } from './activity-log.presenter.ts';

// Read side of the activity log. Nothing here (or anywhere in the API) updates or deletes rows:
// only the retention purge job removes old ones.

const actorName = sql<string | null>`nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), '')`;
const SORT = { createdAt: activityLog.createdAt, action: activityLog.action, entityType: activityLog.entityType, actorEmail: activityLog.actorEmail };

/** Activity of one organization, newest first: filter by actor, action, entity type or id, and date range. */
export async function listActivity({ db, orgId }: { db: Db; orgId: string }, q: z.output<typeof activityLogQuerySchema>): Promise<Page<ActivityLogEntry>> {
  const conds: SQL[] = [eq(activityLog.organizationId, orgId)];
  if (q.userId) conds.push(eq(activityLog.actorUserId, q.userId));
  if (q.action) conds.push(eq(activityLog.action, q.action.toUpperCase()));
  if (q.entityType) conds.push(eq(activityLog.entityType, q.entityType.toUpperCase()));
  if (q.entityId) conds.push(eq(activityLog.entityId, q.entityId));
  const from = q.from ? new Date(q.from) : null;
  const to = q.to ? new Date(q.to) : null;
  if (from && to && from > to) throw invalidField('from', 'from must be before to');
  if (from) conds.push(gte(activityLog.createdAt, from));
  // A bare date as `to` means the whole of that day.
  if (to) conds.push(lt(activityLog.createdAt, /^\d{4}-\d{2}-\d{2}$/.test(q.to ?? '') ? new Date(to.getTime() + 86_400_000) : to));
  if (q.search) {
    const p = likePattern(q.search);
    conds.push(or(ilike(activityLog.actorEmail, p), ilike(activityLog.action, p), ilike(activityLog.entityType, p), ilike(activityLog.entityId, p)) as SQL);
  }
  const where = and(...conds);
  // The page comes from the log alone (an index scan with LIMIT); names are looked up for those rows only.
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(activityLog)
      .where(where)
      .orderBy(...orderBy(q.sort, SORT, desc(activityLog.createdAt), desc(activityLog.id)))
      .limit(q.size)
      .offset(q.page * q.size),
    // Counting stops at COUNT_CAP: past it the exact figure costs a scan of the whole history and
    // no one pages that deep (filters narrow it); totalElements then reads COUNT_CAP + 1.
    db.execute(sql`select count(*)::int as n from (select 1 from ${activityLog} where ${where} limit ${COUNT_CAP + 1}) capped`),
  ]);
  const names = await actorNames(db, rows.map((r) => r.actorUserId));
  return toPage(
    rows.map((r) => presentEntry(r, r.actorUserId ? (names.get(r.actorUserId) ?? null) : null)),
    Number((total as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0),
    q,
  );
}

/** Exact totals up to this many entries; the list reports COUNT_CAP + 1 beyond. */
export const COUNT_CAP = 10_000;

async function actorNames(db: Db, ids: Array<string | null>): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids.filter((x): x is string => !!x))];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: actorName }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function getActivity({ db, orgId }: { db: Db; orgId: string }, id: number): Promise<ActivityLogDetail> {
  const rows = await db
    .select({ row: activityLog, actorName })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorUserId))
    .where(and(eq(activityLog.id, id), eq(activityLog.organizationId, orgId)));
  const r = rows[0];
  if (!r) throw notFound('Activity log entry');
  return presentDetail(r.row, r.actorName);
}

/** The actions and entity types that occur in this organization's log (filter drop-downs). */
export async function activityFilters({ db, orgId }: { db: Db; orgId: string }): Promise<{ actions: string[]; entityTypes: string[] }> {
  const [actions, entityTypes] = await Promise.all([
    db.selectDistinct({ v: activityLog.action }).from(activityLog).where(eq(activityLog.organizationId, orgId)).orderBy(asc(activityLog.action)),
    db.selectDistinct({ v: activityLog.entityType }).from(activityLog).where(eq(activityLog.organizationId, orgId)).orderBy(asc(activityLog.entityType)),
  ]);
  return { actions: actions.map((r) => r.v), entityTypes: entityTypes.map((r) => r.v) };
}
