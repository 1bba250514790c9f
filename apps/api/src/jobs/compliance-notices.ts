import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import { complianceNoticesOf } from '../modules/compliance/index.ts';
import { notifyMany } from '../modules/notifications/index.ts';
import { runExclusive } from './exclusive-run.ts';
import { scheduleRecurring } from './schedule-recurring.ts';

// Compliance papers running out (issue 71, decision 0302): every hour one instance reads every
// organization's files on its own calendar date and notifies each paper 60, 30 and 7 days before its
// due date and once it has expired. Each (item, step) is a fact recorded once, so a second run, another
// instance or a restart sends nothing twice; a run missed (every instance down on the day) is made
// good by the next, which sends the step the paper has reached.

export const COMPLIANCE_NOTICES_JOB = 'compliance-notices';
/** Arbitrary constant key of the advisory lock. */
export const COMPLIANCE_NOTICES_LOCK_KEY = 724_311_171;
export const COMPLIANCE_NOTICES_EVERY_MS = 60 * 60_000;

export interface ComplianceNoticesRunResult {
  ran: boolean;
  organizations: number;
  /** Notices the papers called for (those already sent included). */
  due: number;
  /** Facts notified for the first time. */
  notified: number;
}

/** One run over every active organization (tests call it with `now`); `ran` is false when another run holds the lock. */
export async function runComplianceNotices(database: Database, now = Date.now()): Promise<ComplianceNoticesRunResult> {
  const ran = await runExclusive(database, { name: COMPLIANCE_NOTICES_JOB, lockKey: COMPLIANCE_NOTICES_LOCK_KEY }, async (db) => {
    const result: ComplianceNoticesRunResult = { ran: true, organizations: 0, due: 0, notified: 0 };
    const orgs = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.status, 'ACTIVE')).orderBy(asc(organizations.id));
    for (const { id } of orgs) {
      const notices = await complianceNoticesOf({ db, orgId: id, now });
      result.organizations++;
      if (notices.length === 0) continue;
      result.due += notices.length;
      const sent = await notifyMany(db, notices);
      result.notified += sent.filter((r) => r.created).length;
    }
    return result;
  });
  return ran ?? { ran: false, organizations: 0, due: 0, notified: 0 };
}

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** Runs the check every COMPLIANCE_NOTICES_EVERY_MS on every instance (one of them at a time runs it). Returns the stop function. */
export function scheduleComplianceNotices(database: Database, log: JobLog, everyMs = COMPLIANCE_NOTICES_EVERY_MS): () => Promise<void> {
  const onError = (err: unknown) => log.error({ job: COMPLIANCE_NOTICES_JOB, err }, 'compliance notices failed');
  // A first run soon after start (a paper may have reached a step while every instance was down).
  return scheduleRecurring(
    async () => {
      const r = await runComplianceNotices(database);
      if (r.ran && r.notified) log.info({ job: COMPLIANCE_NOTICES_JOB, ...r }, 'compliance notices sent');
    },
    { everyMs, firstAfterMs: 90_000, onError },
  );
}
