import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import { detectDiagnostics } from '../modules/hos/hos-diagnostics.service.ts';
import { runExclusive } from './exclusive-run.ts';
import { scheduleRecurring } from './schedule-recurring.ts';

// ELD malfunctions and data diagnostics (decision 0114): every few minutes one instance evaluates
// every organization's reporting vehicles and records what started or stopped. One runner at a time
// across instances (a session advisory lock); the run is recorded in job_runs. Durable without a
// queue: each run reads the stored positions and records and compares with the stored state, so a
// run that is missed or fails is made good by the next.

export const ELD_DIAGNOSTICS_JOB = 'eld-diagnostics';
/** Arbitrary constant key of the advisory lock. */
export const ELD_DIAGNOSTICS_LOCK_KEY = 724_311_116;
export const ELD_DIAGNOSTICS_EVERY_MS = 5 * 60_000;

export interface DiagnosticsRunResult {
  ran: boolean;
  organizations: number;
  vehicles: number;
  logged: number;
  cleared: number;
}

/** One run over every active organization (tests call it with `now`). Returns false in `ran` when another run holds the lock. */
export async function runEldDiagnostics(database: Database, now = Date.now()): Promise<DiagnosticsRunResult> {
  const ran = await runExclusive(database, { name: ELD_DIAGNOSTICS_JOB, lockKey: ELD_DIAGNOSTICS_LOCK_KEY }, async (db) => {
    const result: DiagnosticsRunResult = { ran: true, organizations: 0, vehicles: 0, logged: 0, cleared: 0 };
    const orgs = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.status, 'ACTIVE')).orderBy(asc(organizations.id));
    for (const { id } of orgs) {
      const r = await detectDiagnostics(db, id, now);
      result.organizations++;
      result.vehicles += r.vehicles;
      result.logged += r.logged;
      result.cleared += r.cleared;
    }
    return result;
  });
  return ran ?? { ran: false, organizations: 0, vehicles: 0, logged: 0, cleared: 0 };
}

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** Runs the detection every ELD_DIAGNOSTICS_EVERY_MS on every instance (one of them at a time runs it). Returns the stop function. */
export function scheduleEldDiagnostics(database: Database, log: JobLog, everyMs = ELD_DIAGNOSTICS_EVERY_MS): () => Promise<void> {
  const onError = (err: unknown) => log.error({ job: ELD_DIAGNOSTICS_JOB, err }, 'ELD diagnostics failed');
  // A first run soon after start (the fleet's state may have changed while every instance was down).
  return scheduleRecurring(
    async () => {
      const r = await runEldDiagnostics(database);
      if (r.ran && (r.logged || r.cleared)) log.info({ job: ELD_DIAGNOSTICS_JOB, ...r }, 'ELD diagnostics recorded');
    },
    { everyMs, firstAfterMs: 30_000, onError },
  );
}
