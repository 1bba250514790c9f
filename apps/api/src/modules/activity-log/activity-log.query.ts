import { and, asc, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ActivityLogDetail, ActivityLogEntry, ActivityLogFilters, activityLogQuerySchema, Page } from '@fleet/api-contract';
import { activityLog, users } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { likePattern, orderBy, toPage } from '../../http/paging.ts';
import { lookupRecords } from './activity-log.names.ts';
import { presentDetail, presentEntry } from './activity-log.presenter.ts';
import { actionLabel, entityTypeLabel, referencedIds } from './activity-log.wording.ts';
import type { ReadScope } from '../auth/index.ts';

// Read side of the activity log. Nothing here (or anywhere in the API) updates or deletes rows:
// only the retention purge job removes old ones.

const SORT = { createdAt: activityLog.createdAt, action: activityLog.action, entityType: activityLog.entityType, actorEmail: activityLog.actorEmail };

/** Activity of one organization, newest first: filter by actor, action, entity type or id, and date range. */
export async function listActivity({ db, orgId }: ReadScope, q: z.output<typeof activityLogQuerySchema>): Promise<Page<ActivityLogEntry>> {
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
  // Every record the page mentions, actors included, is named by one lookup (not one per row).
  const lookup = await lookupRecords(
    db,
    orgId,
    rows.flatMap((r) => referencedIds(factsOf(r))),
  );
  return toPage(
    rows.map((r) => presentEntry(r, lookup)),
    Number((total as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0),
    q,
  );
}

/** Exact totals up to this many entries; the list reports COUNT_CAP + 1 beyond. */
export const COUNT_CAP = 10_000;

const factsOf = (r: typeof activityLog.$inferSelect) => ({
  entityId: r.entityId,
  actorUserId: r.actorUserId,
  before: r.changes?.before,
  after: r.changes?.after,
});

/**
 * The per-user view: 404 unless the user belongs to this organization (another organization's user,
 * a super administrator, or no such id), so the answer never tells a foreign id from an idle one.
 */
export async function listUserActivity(scope: ReadScope, userId: string, q: z.output<typeof activityLogQuerySchema>): Promise<Page<ActivityLogEntry>> {
  const [member] = await scope.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, scope.orgId)));
  if (!member) throw notFound('User');
  return listActivity(scope, { ...q, userId });
}

export async function getActivity({ db, orgId }: ReadScope, id: number): Promise<ActivityLogDetail> {
  const [r] = await db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.id, id), eq(activityLog.organizationId, orgId)));
  if (!r) throw notFound('Activity log entry');
  return presentDetail(r, await lookupRecords(db, orgId, referencedIds(factsOf(r))));
}

const byLabel = (x: { label: string }, y: { label: string }) => x.label.localeCompare(y.label);

/** The actions and entity types that occur in this organization's log (filter drop-downs), with their labels. */
export async function activityFilters({ db, orgId }: ReadScope): Promise<ActivityLogFilters> {
  const [actions, entityTypes] = await Promise.all([
    db.selectDistinct({ v: activityLog.action }).from(activityLog).where(eq(activityLog.organizationId, orgId)).orderBy(asc(activityLog.action)),
    db.selectDistinct({ v: activityLog.entityType }).from(activityLog).where(eq(activityLog.organizationId, orgId)).orderBy(asc(activityLog.entityType)),
  ]);
  return {
    actions: actions.map((r) => r.v),
    entityTypes: entityTypes.map((r) => r.v),
    actionOptions: actions.map((r) => ({ value: r.v, label: actionLabel(r.v) })).sort(byLabel),
    entityTypeOptions: entityTypes.map((r) => ({ value: r.v, label: entityTypeLabel(r.v) })).sort(byLabel),
  };
}
