import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { isSafetyReport, type PageQuery, type ReportSubscription, type reportSubscriptionInputSchema } from '@fleet/api-contract';
import type { z } from 'zod';
import { organizations, reportSubscriptions, users } from '../../db/schema/index.ts';
import { forbidden, invalidField, notFound } from '../../http/errors.ts';
import { orderBy, toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { AuthContext, ReadScope, Scope } from '../auth/index.ts';
import { knownZone, nextRunAfter } from './report-schedule.ts';
import { checkFilters } from './reports.service.ts';

// A user's scheduled reports (issue 32, decision 0163). Each user manages their own; a user who
// may also list the organization's users (USER_LIST: an administrator) may list, read and delete
// everyone's, so what the organization e-mails out can be seen and stopped, but not edited in
// another's name (the e-mail goes to its subscriber).

type Input = z.output<typeof reportSubscriptionInputSchema>;
type Row = typeof reportSubscriptions.$inferSelect & { email: string };

const ENTITY = 'REPORT_SUBSCRIPTION';

function present(r: Row): ReportSubscription {
  return {
    id: r.id,
    userId: r.userId,
    report: r.report,
    filters: r.filters,
    frequency: r.frequency,
    timeOfDay: r.timeOfDay,
    weekday: r.weekday,
    timeZone: r.timeZone,
    formats: r.formats as ReportSubscription['formats'],
    recipient: r.email,
    lastRunAt: r.lastRunAt?.toISOString() ?? null,
    nextRunAt: r.nextRunAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

async function rowsWhere(
  scope: ReadScope,
  where: SQL,
  order: SQL[] = [sql`${reportSubscriptions.createdAt}`],
  limit?: { size: number; page: number },
): Promise<Row[]> {
  const q = scope.db
    .select({ s: reportSubscriptions, email: users.email })
    .from(reportSubscriptions)
    .innerJoin(users, eq(users.id, reportSubscriptions.userId))
    .where(where)
    .orderBy(...order);
  const rows = limit ? await q.limit(limit.size).offset(limit.page * limit.size) : await q;
  return rows.map((r) => ({ ...r.s, email: r.email }));
}

const mayListAll = (auth: AuthContext) => auth.permissions.has('USER_LIST');

/** The caller's subscriptions, or with `all` everyone's (USER_LIST), oldest first. */
export async function listSubscriptions(scope: ReadScope, auth: AuthContext, q: PageQuery & { all?: 'true' | 'false' }) {
  const all = q.all === 'true';
  if (all && !mayListAll(auth)) throw forbidden("Listing everyone's scheduled reports needs the permission to list users");
  const where = and(eq(reportSubscriptions.organizationId, scope.orgId), all ? undefined : eq(reportSubscriptions.userId, auth.userId))!;
  const order = orderBy(
    q.sort,
    {
      createdAt: reportSubscriptions.createdAt,
      nextRunAt: reportSubscriptions.nextRunAt,
      report: reportSubscriptions.report,
      timeOfDay: reportSubscriptions.timeOfDay,
    },
    'createdAt',
    sql`${reportSubscriptions.id}`,
  );
  const [{ n } = { n: 0 }] = await scope.db.select({ n: count() }).from(reportSubscriptions).where(where);
  const rows = await rowsWhere(scope, where, order, q);
  return toPage(rows.map(present), Number(n), q);
}

/** One subscription the caller may see: their own, or anyone's with USER_LIST; otherwise 404. */
async function visible(scope: ReadScope, auth: AuthContext, id: string, forWrite: boolean): Promise<Row> {
  const [r] = await rowsWhere(scope, and(eq(reportSubscriptions.organizationId, scope.orgId), eq(reportSubscriptions.id, id))!);
  if (!r || (r.userId !== auth.userId && (forWrite || !mayListAll(auth)))) throw notFound('Scheduled report');
  return r;
}

export const getSubscription = async (scope: ReadScope, auth: AuthContext, id: string) => present(await visible(scope, auth, id, false));

/** The zone a subscription runs in: the one given, else the user's profile zone, else the organization's. */
async function zoneFor(scope: ReadScope, userId: string, given: string | null | undefined): Promise<string> {
  if (given) {
    if (!knownZone(given)) throw invalidField('timeZone', 'Time zone must be a zone name like America/Chicago');
    return given;
  }
  const [u] = await scope.db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId));
  if (u?.tz) return u.tz;
  const [o] = await scope.db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, scope.orgId));
  return o?.tz ?? 'UTC';
}

async function valuesOf(scope: Scope, auth: AuthContext, input: Input) {
  // The safety reports carry what the safety screens show: their reader needs SAFETY_LIST too.
  if (isSafetyReport(input.report) && !auth.permissions.has('SAFETY_LIST'))
    throw forbidden('Scheduling a safety report needs the permission to list safety events');
  const userId = auth.userId;
  await checkFilters(scope, input.filters);
  const timeZone = await zoneFor(scope, userId, input.timeZone);
  const weekday = input.frequency === 'WEEKLY' ? (input.weekday ?? null) : null;
  const filters = Object.fromEntries(Object.entries(input.filters).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const schedule = { frequency: input.frequency, timeOfDay: input.timeOfDay, weekday, timeZone };
  return {
    report: input.report,
    filters,
    ...schedule,
    formats: [...new Set(input.formats)],
    nextRunAt: new Date(nextRunAfter(schedule, scope.now ?? Date.now())),
  };
}

export async function createSubscription(scope: Scope, auth: AuthContext, input: Input): Promise<ReportSubscription> {
  const values = await valuesOf(scope, auth, input);
  return scope.db.transaction(async (tx) => {
    const [r] = await tx
      .insert(reportSubscriptions)
      .values({ organizationId: scope.orgId, userId: auth.userId, ...values })
      .returning();
    await recordActivity(tx, { orgId: scope.orgId, actor: scope.actor, action: 'CREATE', entityType: ENTITY, entityId: r!.id, after: r });
    return present({ ...r!, email: auth.email });
  });
}

export async function updateSubscription(scope: Scope, auth: AuthContext, id: string, input: Input): Promise<ReportSubscription> {
  const before = await visible(scope, auth, id, true);
  const values = await valuesOf(scope, auth, input);
  return scope.db.transaction(async (tx) => {
    const [r] = await tx
      .update(reportSubscriptions)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(reportSubscriptions.id, id), eq(reportSubscriptions.organizationId, scope.orgId)))
      .returning();
    await recordActivity(tx, { orgId: scope.orgId, actor: scope.actor, action: 'UPDATE', entityType: ENTITY, entityId: id, before, after: r });
    return present({ ...r!, email: before.email });
  });
}

export async function deleteSubscription(scope: Scope, auth: AuthContext, id: string): Promise<void> {
  const before = await visible(scope, auth, id, false);
  await scope.db.transaction(async (tx) => {
    await tx.delete(reportSubscriptions).where(and(eq(reportSubscriptions.id, id), eq(reportSubscriptions.organizationId, scope.orgId)));
    await recordActivity(tx, { orgId: scope.orgId, actor: scope.actor, action: 'DELETE', entityType: ENTITY, entityId: id, before });
  });
}
