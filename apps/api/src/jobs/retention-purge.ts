import { asc, eq, sql } from 'drizzle-orm';
import { RETENTION_KINDS, type RetentionKind } from '@fleet/api-contract';
import type { Database, Db } from '../db/client.ts';
import { jobRuns, organizations } from '../db/schema/index.ts';
import type { Actor } from '../plugins/types.ts';
import { recordActivity } from '../modules/activity-log/activity-log.service.ts';
import { effectivePolicies, nextPurgeRun, PURGE_JOB_NAME } from '../modules/data-retention/data-retention.service.ts';
import { deleteBatch, RETENTION_TARGETS, targetExists, type RetentionTarget } from '../modules/data-retention/retention-kinds.ts';

/** Arbitrary constant key of the advisory lock: one purge at a time across every API instance. */
export const PURGE_LOCK_KEY = 724_311_001;
const SYSTEM: Actor = { userId: null, email: 'system', role: 'SYSTEM', ip: null };

export interface PurgeOptions {
  /** Rows per DELETE; each batch is its own short transaction so ingest is never blocked long. */
  batchSize?: number;
  now?: Date;
  /** The kind -> tables registry; tests pass scratch tables. */
  targets?: Record<RetentionKind, readonly RetentionTarget[]>;
}

export interface PurgeResult {
  /** False when another instance holds the lock (or this one is already running). */
  ran: boolean;
  organizations: number;
  removed: Record<RetentionKind, number>;
  /** Kinds whose tables do not exist yet. */
  skippedKinds: RetentionKind[];
}

let runningHere = false;

/**
 * Deletes, per organization and data kind, rows older than the organization's retention period,
 * in batches. One runner at a time across instances (pg_try_advisory_lock on a dedicated
 * session); a second caller returns `ran: false` at once. Each organization's removals go to its
 * activity log as one PURGE row; the run itself is recorded in job_runs for the retention page.
 */
export async function runRetentionPurge(database: Database, opts: PurgeOptions = {}): Promise<PurgeResult> {
  const empty = (): PurgeResult => ({ ran: false, organizations: 0, removed: zero(), skippedKinds: [] });
  // PGlite is one session, where advisory locks are re-entrant: guard this process too.
  if (runningHere) return empty();
  runningHere = true;
  try {
    return await database.session(async (db) => {
      const locked = await tryLock(db);
      if (!locked) return empty();
      try {
        return await purge(db, opts);
      } finally {
        await db.execute(sql`select pg_advisory_unlock(${PURGE_LOCK_KEY})`);
      }
    });
  } finally {
    runningHere = false;
  }
}

async function tryLock(db: Db): Promise<boolean> {
  const res = await db.execute(sql`select pg_try_advisory_lock(${PURGE_LOCK_KEY}) as locked`);
  return (res as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked === true;
}

const zero = () => Object.fromEntries(RETENTION_KINDS.map((k) => [k, 0])) as Record<RetentionKind, number>;

async function purge(db: Db, opts: PurgeOptions): Promise<PurgeResult> {
  const batchSize = opts.batchSize ?? 5000;
  const now = opts.now ?? new Date();
  const startedAt = new Date();
  await db
    .insert(jobRuns)
    .values({ name: PURGE_JOB_NAME, startedAt, finishedAt: null, status: 'RUNNING', summary: null })
    .onConflictDoUpdate({ target: jobRuns.name, set: { startedAt, finishedAt: null, status: 'RUNNING', summary: null } });

  const result: PurgeResult = { ran: true, organizations: 0, removed: zero(), skippedKinds: [] };
  try {
    // Which tables exist is checked at run time: kinds whose domain has not landed are skipped.
    const present = new Map<RetentionKind, RetentionTarget[]>();
    for (const kind of RETENTION_KINDS) {
      const targets: RetentionTarget[] = [];
      for (const t of (opts.targets ?? RETENTION_TARGETS)[kind]) if (await targetExists(db, t)) targets.push(t);
      if (targets.length) present.set(kind, targets);
      else result.skippedKinds.push(kind);
    }
    const orgs = await db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.id));
    for (const { id: orgId } of orgs) {
      result.organizations++;
      const policies = await effectivePolicies(db, orgId);
      const removed: Partial<Record<RetentionKind, number>> = {};
      const cutoffs: Partial<Record<RetentionKind, string>> = {};
      for (const [kind, targets] of present) {
        const days = policies[kind];
        if (days === null) continue;
        const cutoff = new Date(now.getTime() - days * 86_400_000);
        let n = 0;
        for (const t of targets) {
          for (;;) {
            const deleted = await db.transaction((tx) => deleteBatch(tx, t, orgId, cutoff, batchSize));
            n += deleted;
            if (deleted < batchSize) break;
          }
        }
        if (n > 0) {
          removed[kind] = n;
          cutoffs[kind] = cutoff.toISOString();
          result.removed[kind] += n;
        }
      }
      if (Object.keys(removed).length > 0) {
        await db.transaction((tx) =>
          recordActivity(tx, { orgId, actor: SYSTEM, action: 'PURGE', entityType: 'DATA_RETENTION', entityId: orgId, after: { removed, olderThan: cutoffs } }),
        );
      }
    }
    await finish(db, 'OK', { organizations: result.organizations, removed: result.removed, skippedKinds: result.skippedKinds });
    return result;
  } catch (err) {
    await finish(db, 'FAILED', { error: (err as Error).message, removed: result.removed });
    throw err;
  }
}

async function finish(db: Db, status: 'OK' | 'FAILED', summary: Record<string, unknown>): Promise<void> {
  await db.update(jobRuns).set({ finishedAt: new Date(), status, summary }).where(eq(jobRuns.name, PURGE_JOB_NAME));
}

/**
 * Runs the purge every day at PURGE_HOUR_UTC on every instance; the advisory lock makes all but
 * one skip. Returns a stop function (called on server close).
 */
export function scheduleRetentionPurge(database: Database, log: { info(o: object, m: string): void; error(o: object, m: string): void }): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    const wait = nextPurgeRun().getTime() - Date.now();
    timer = setTimeout(() => {
      runRetentionPurge(database)
        .then((r) => log.info({ job: PURGE_JOB_NAME, ...r }, r.ran ? 'retention purge finished' : 'retention purge skipped: another instance runs it'))
        .catch((err: unknown) => log.error({ job: PURGE_JOB_NAME, err }, 'retention purge failed'))
        .finally(arm);
    }, wait);
    timer.unref();
  };
  arm();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
