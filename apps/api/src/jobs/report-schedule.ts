import { and, eq, sql } from 'drizzle-orm';
import { isSafetyReport, SUBSCRIBED_REPORT_LABELS, type ReportKind, type SubscribedReportKind } from '@fleet/api-contract';
import type { Database } from '../db/client.ts';
import { organizations, reportRuns, reportSubscriptions, users } from '../db/schema/index.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { loadAuthContext } from '../modules/auth/index.ts';
import { exportReport, nextRunAfter, periodOf, reportContext } from '../modules/reports/index.ts';
import { timeIn } from '../modules/maintenance/index.ts';
import { exportSafetyEvents, exportSafetyScores } from '../modules/safety/index.ts';
import { scheduleRecurring } from './schedule-recurring.ts';

// Scheduled reports (issue 32, decision 0163): every minute on every instance, each subscription
// whose time has come is claimed by inserting its (subscription, scheduled time) into report_runs:
// the primary key lets one insert win whatever the number of instances, so each schedule is
// e-mailed once. The winner moves the subscription to its next time, builds the period just ended
// (the day, or the 7 days, before the scheduled time in the subscription's zone) and e-mails its
// PDF and CSV. A run whose e-mail fails is recorded FAILED and not retried: at most once, never twice.

export const REPORT_SCHEDULE_JOB = 'report-schedule';
export const REPORT_SCHEDULE_EVERY_MS = 60_000;

export interface ReportScheduleResult {
  due: number;
  sent: number;
  /** Claimed by another instance. */
  taken: number;
  failed: number;
}

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** One pass over the due subscriptions (tests call it with `now`, and two at once to prove a schedule runs once). */
export async function runReportSchedule(database: Database, mailer: Mailer, now = Date.now(), log?: JobLog): Promise<ReportScheduleResult> {
  const db = database.db;
  const result: ReportScheduleResult = { due: 0, sent: 0, taken: 0, failed: 0 };
  const due = await db
    .select({ s: reportSubscriptions, email: users.email })
    .from(reportSubscriptions)
    .innerJoin(users, eq(users.id, reportSubscriptions.userId))
    .innerJoin(organizations, eq(organizations.id, reportSubscriptions.organizationId))
    .where(and(sql`${reportSubscriptions.nextRunAt} <= ${new Date(now).toISOString()}::timestamptz`, eq(organizations.status, 'ACTIVE')))
    .orderBy(reportSubscriptions.nextRunAt)
    .limit(500);
  for (const { s, email } of due) {
    result.due++;
    const scheduledFor = s.nextRunAt;
    const claimed = await db
      .insert(reportRuns)
      .values({ subscriptionId: s.id, scheduledFor, organizationId: s.organizationId })
      .onConflictDoNothing()
      .returning({ id: reportRuns.subscriptionId });
    if (claimed.length === 0) {
      result.taken++;
      continue;
    }
    // A schedule missed while every instance was down runs once now, then goes on from now.
    const next = new Date(nextRunAfter(s, Math.max(now, scheduledFor.getTime())));
    await db
      .update(reportSubscriptions)
      .set({ nextRunAt: next, lastRunAt: new Date(now) })
      .where(and(eq(reportSubscriptions.id, s.id), eq(reportSubscriptions.nextRunAt, scheduledFor)));
    let outcome = 'SENT';
    try {
      const auth = await loadAuthContext(db, s.userId);
      // A subscriber who may no longer read reports (or sign in) gets nothing.
      if (!auth || !auth.permissions.has('REPORT_LIST')) outcome = 'SKIPPED: the subscriber may no longer read reports';
      else if (isSafetyReport(s.report) && !auth.permissions.has('SAFETY_LIST')) outcome = 'SKIPPED: the subscriber may no longer read safety events';
      else {
        await mailer.send(await reportMail(database, s, email, scheduledFor.getTime(), now));
        result.sent++;
      }
    } catch (err) {
      outcome = `FAILED: ${(err as Error).message}`.slice(0, 500);
      result.failed++;
      log?.error({ job: REPORT_SCHEDULE_JOB, subscriptionId: s.id, err }, 'scheduled report failed');
    }
    await db
      .update(reportRuns)
      .set({ finishedAt: new Date(), outcome })
      .where(and(eq(reportRuns.subscriptionId, s.id), eq(reportRuns.scheduledFor, scheduledFor)));
  }
  return result;
}

type Subscription = typeof reportSubscriptions.$inferSelect;

/** The e-mail of one run: the period just ended, its files attached. */
async function reportMail(database: Database, s: Subscription, to: string, scheduledMs: number, now: number): Promise<MailMessage> {
  const scope = { db: database.db, orgId: s.organizationId, now };
  const ctx = await reportContext(scope, s.userId, s.timeZone);
  const period = periodOf(s, scheduledMs);
  const filters = { ...s.filters, ...period };
  const kind: SubscribedReportKind = s.report;
  const label = SUBSCRIBED_REPORT_LABELS[kind];
  const attachments: NonNullable<MailMessage['attachments']> = [];
  for (const format of s.formats as Array<'pdf' | 'csv'>) {
    const f =
      kind === 'SAFETY_EVENTS'
        ? await exportSafetyEvents(
            scope,
            s.userId,
            { ...period, driverId: s.filters.driverId, assetId: s.filters.assetId, groupId: s.filters.groupId },
            format,
            s.timeZone,
          )
        : kind === 'SAFETY_SCORES'
          ? await exportSafetyScores(
              scope,
              s.userId,
              { ...period, groupBy: s.filters.by === 'vehicle' ? 'vehicle' : 'driver', groupId: s.filters.groupId },
              format,
              s.timeZone,
            )
          : await exportReport(scope, ctx, kind as ReportKind, filters, format);
    attachments.push(
      typeof f.body === 'string'
        ? { filename: f.name, content: f.body, contentType: f.type }
        : { filename: f.name, content: f.body.toString('base64'), contentType: f.type, encoding: 'base64' },
    );
  }
  const span = `${timeIn(period.from, ctx.timeZone)} to ${timeIn(period.to, ctx.timeZone)}`;
  return {
    to,
    subject: `${label} report, ${s.frequency === 'DAILY' ? 'yesterday' : 'last 7 days'} (${ctx.orgName})`,
    text: `Your ${s.frequency === 'DAILY' ? 'daily' : 'weekly'} ${label.toLowerCase()} report for ${span} (times in ${ctx.timeZone}) is attached.\n\nYou receive it because you subscribed to it in Fleetline (Reports, Scheduled reports), where you can change or stop it.`,
    attachments,
  };
}

/** Runs the pass every minute on every instance (the claim makes each schedule run once). Returns the stop function. */
export function scheduleReportEmails(database: Database, mailer: Mailer, log: JobLog, everyMs = REPORT_SCHEDULE_EVERY_MS): () => Promise<void> {
  const onError = (err: unknown) => log.error({ job: REPORT_SCHEDULE_JOB, err }, 'scheduled reports pass failed');
  return scheduleRecurring(
    async () => {
      const r = await runReportSchedule(database, mailer, Date.now(), log);
      if (r.sent || r.failed) log.info({ job: REPORT_SCHEDULE_JOB, ...r }, 'scheduled reports sent');
    },
    { everyMs, onError },
  );
}
