import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import { maintenanceDueNow, orgWording, serviceDueNotice } from '../modules/maintenance/index.ts';
import { notifyMany } from '../modules/notifications/index.ts';
import { runExclusive } from './exclusive-run.ts';
import { scheduleRecurring } from './schedule-recurring.ts';

// Service coming due (issue 31, decision 0159): every hour one instance reads every organization's
// due list and notifies each schedule, vehicle and status once (the notice's fact key says which
// interval, so the next interval notifies again). Durable without a queue: a missed run is made good
// by the next, which reads the same due list.

export const SERVICE_DUE_JOB = 'service-due';
/** Arbitrary constant key of the advisory lock. */
export const SERVICE_DUE_LOCK_KEY = 724_311_131;
export const SERVICE_DUE_EVERY_MS = 60 * 60_000;

export interface ServiceDueRunResult {
  ran: boolean;
  organizations: number;
  due: number;
  notified: number;
}

/** One run over every active organization (tests call it with `now`); `ran` is false when another run holds the lock. */
export async function runServiceDue(database: Database, now = Date.now()): Promise<ServiceDueRunResult> {
  const ran = await runExclusive(database, { name: SERVICE_DUE_JOB, lockKey: SERVICE_DUE_LOCK_KEY }, async (db) => {
    const result: ServiceDueRunResult = { ran: true, organizations: 0, due: 0, notified: 0 };
    const orgs = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.status, 'ACTIVE')).orderBy(asc(organizations.id));
    for (const { id } of orgs) {
      const due = await maintenanceDueNow(db, id, now);
      result.organizations++;
      if (due.length === 0) continue;
      result.due += due.length;
      const { units, tz } = await orgWording(db, id);
      const sent = await notifyMany(
        db,
        due.map((d) => serviceDueNotice(id, d, units, tz)),
      );
      result.notified += sent.filter((r) => r.created).length;
    }
    return result;
  });
  return ran ?? { ran: false, organizations: 0, due: 0, notified: 0 };
}

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** Runs the check every SERVICE_DUE_EVERY_MS on every instance (one of them at a time runs it). Returns the stop function. */
export function scheduleServiceDue(database: Database, log: JobLog, everyMs = SERVICE_DUE_EVERY_MS): () => Promise<void> {
  const onError = (err: unknown) => log.error({ job: SERVICE_DUE_JOB, err }, 'service due check failed');
  // A first run soon after start (a service may have come due while every instance was down).
  return scheduleRecurring(
    async () => {
      const r = await runServiceDue(database);
      if (r.ran && r.notified) log.info({ job: SERVICE_DUE_JOB, ...r }, 'service due notified');
    },
    { everyMs, firstAfterMs: 60_000, onError },
  );
}
