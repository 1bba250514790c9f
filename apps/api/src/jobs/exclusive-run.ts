import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import { jobRuns } from '../db/schema/index.ts';

// One run of a periodic job across every instance: a session advisory lock (another instance's run
// skips), the run recorded in job_runs (RUNNING, then OK with its summary or FAILED with the error).

/** Jobs running in this process: PGlite is one session, where advisory locks are re-entrant. */
const runningHere = new Set<string>();

/**
 * Runs `work` when no other run of the job holds its lock, here or on another instance; resolves
 * null when one does. `work`'s result is the run's summary in job_runs.
 */
export async function runExclusive<R extends object>(
  database: Database,
  job: { name: string; lockKey: number },
  work: (db: Db) => Promise<R>,
): Promise<R | null> {
  if (runningHere.has(job.name)) return null;
  runningHere.add(job.name);
  try {
    return await database.session(async (db) => {
      const res = await db.execute(sql`select pg_try_advisory_lock(${job.lockKey}) as locked`);
      if ((res as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked !== true) return null;
      try {
        await mark(db, job.name, 'RUNNING', null);
        const result = await work(db);
        await mark(db, job.name, 'OK', { ...result, ranBy: `${os.hostname()} pid ${process.pid}` });
        return result;
      } catch (err) {
        await mark(db, job.name, 'FAILED', { error: (err as Error).message });
        throw err;
      } finally {
        await db.execute(sql`select pg_advisory_unlock(${job.lockKey})`);
      }
    });
  } finally {
    runningHere.delete(job.name);
  }
}

async function mark(db: Db, name: string, status: 'OK' | 'FAILED' | 'RUNNING', summary: Record<string, unknown> | null): Promise<void> {
  const at = new Date();
  await db
    .insert(jobRuns)
    .values({ name, startedAt: at, finishedAt: status === 'RUNNING' ? null : at, status, summary })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: status === 'RUNNING' ? { startedAt: at, finishedAt: null, status, summary } : { finishedAt: at, status, summary },
    });
}
