import os from 'node:os';
import { asc, eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import { jobRuns, organizations } from '../db/schema/index.ts';
import { maintenanceDueNow, orgWording, serviceDueNotice } from '../modules/maintenance/index.ts';
import { notifyMany } from '../modules/notifications/index.ts';

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

let runningHere = false;

/** One run over every active organization (tests call it with `now`); `ran` is false when another run holds the lock. */
export async function runServiceDue(database: Database, now = Date.now()): Promise<ServiceDueRunResult> {
  const result: ServiceDueRunResult = { ran: false, organizations: 0, due: 0, notified: 0 };
  // PGlite is one session, where advisory locks are re-entrant: guard this process too.
  if (runningHere) return result;
  runningHere = true;
  try {
    return await database.session(async (db) => {
      const res = await db.execute(sql`select pg_try_advisory_lock(${SERVICE_DUE_LOCK_KEY}) as locked`);
      if ((res as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked !== true) return result;
      try {
        result.ran = true;
        const orgs = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.status, 'ACTIVE')).orderBy(asc(organizations.id));
        for (const { id } of orgs) {
          const due = await maintenanceDueNow(db, id, now);
          result.organizations++;
          if (due.length === 0) continue;
          result.due += due.length;
          const { units, tz } = await orgWording(db, id);
          const sent = await notifyMany(db, due.map((d) => serviceDueNotice(id, d, units, tz)));
          result.notified += sent.filter((r) => r.created).length;
        }
        await mark(db, 'OK', { ...result, ranBy: `${os.hostname()} pid ${process.pid}` });
        return result;
      } catch (err) {
        await mark(db, 'FAILED', { error: (err as Error).message });
        throw err;
      } finally {
        await db.execute(sql`select pg_advisory_unlock(${SERVICE_DUE_LOCK_KEY})`);
      }
    });
  } finally {
    runningHere = false;
  }
}

async function mark(db: Db, status: 'OK' | 'FAILED', summary: Record<string, unknown>): Promise<void> {
  const at = new Date();
  await db
    .insert(jobRuns)
    .values({ name: SERVICE_DUE_JOB, startedAt: at, finishedAt: at, status, summary })
    .onConflictDoUpdate({ target: jobRuns.name, set: { finishedAt: at, status, summary } });
}

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** Runs the check every SERVICE_DUE_EVERY_MS on every instance (one of them at a time runs it). Returns the stop function. */
export function scheduleServiceDue(database: Database, log: JobLog, everyMs = SERVICE_DUE_EVERY_MS): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = runServiceDue(database)
      .then((r) => {
        if (r.ran && r.notified) log.info({ job: SERVICE_DUE_JOB, ...r }, 'service due notified');
      })
      .catch((err: unknown) => log.error({ job: SERVICE_DUE_JOB, err }, 'service due check failed'));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  // A first run soon after start (a service may have come due while every instance was down).
  const first = setTimeout(tick, 60_000);
  first.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(first);
    await running;
  };
}
