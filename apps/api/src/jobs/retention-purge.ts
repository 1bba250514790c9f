import os from 'node:os';
import { asc, eq, sql } from 'drizzle-orm';
import { RETENTION_KIND_INFO, RETENTION_KINDS, type RetentionKind } from '@fleet/api-contract';
import { notify } from '../modules/notifications/notifications.service.ts';
import type { Database, Db } from '../db/client.ts';
import { jobRuns, organizations } from '../db/schema/index.ts';
import type { Actor } from '../modules/auth/auth-context.ts';
import { recordActivity } from '../modules/activity-log/activity-log.service.ts';
import { effectivePolicies, nextPurgeRun, previousPurgeRun, PURGE_JOB_NAME } from '../modules/data-retention/data-retention.service.ts';
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
  /**
   * The daily run this is (its scheduled time). Each slot runs once across every instance: the
   * first to claim it in job_runs runs, so an instance whose timer fires late, or that starts
   * after another already ran the slot, skips. Unset: a run on request, not tied to a slot.
   */
  slot?: Date;
  /**
   * Aborted when the instance shuts down: the purge stops before its next batch, logs what it
   * removed so far and records the run as interrupted (the next day's run carries on).
   */
  signal?: AbortSignal;
}

export interface PurgeResult {
  /** False when another instance holds the lock, this one is already running, or the slot was run. */
  ran: boolean;
  /** Why it did not run: another run holds the lock, or the slot was already claimed. */
  skipped?: 'running' | 'done';
  organizations: number;
  removed: Record<RetentionKind, number>;
  /** Kinds whose tables do not exist yet. */
  skippedKinds: RetentionKind[];
  /** Stopped early by `signal`. */
  interrupted?: boolean;
}

let runningHere = false;

/**
 * Deletes, per organization and data kind, rows older than the organization's retention period,
 * in batches. One runner at a time across instances (pg_try_advisory_lock on a dedicated
 * session); a second caller returns `ran: false` at once, as does every caller after the first for
 * one `slot`. Each organization's removals go to its activity log as one PURGE row; the run itself
 * is recorded in job_runs (with the host and process that ran it) for the retention page.
 */
export async function runRetentionPurge(database: Database, opts: PurgeOptions = {}): Promise<PurgeResult> {
  const empty = (skipped: PurgeResult['skipped']): PurgeResult => ({ ran: false, skipped, organizations: 0, removed: zero(), skippedKinds: [] });
  // PGlite is one session, where advisory locks are re-entrant: guard this process too.
  if (runningHere) return empty('running');
  runningHere = true;
  try {
    return await database.session(async (db) => {
      const locked = await tryLock(db);
      if (!locked) return empty('running');
      try {
        if (!(await claim(db, opts.slot))) return empty('done');
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

/** Which instance ran, in the run's summary: the host and process whose log tells more. */
const RUNNER = `${os.hostname()} pid ${process.pid}`;

/**
 * Marks the run as started in job_runs. For a slot, only when the last run started before the
 * slot: one statement, so of several instances exactly one claims it. The start is stored as
 * no earlier than the slot, so an application clock a little ahead of the database's still leaves
 * the slot claimed.
 */
async function claim(db: Db, slot: Date | undefined): Promise<boolean> {
  const started = slot ? sql`greatest(now(), ${slot.toISOString()}::timestamptz)` : sql`now()`;
  const res = await db
    .insert(jobRuns)
    .values({ name: PURGE_JOB_NAME, startedAt: started, finishedAt: null, status: 'RUNNING', summary: null })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: { startedAt: sql`excluded.started_at`, finishedAt: null, status: 'RUNNING', summary: null },
      setWhere: slot ? sql`${jobRuns.startedAt} is null or ${jobRuns.startedAt} < ${slot.toISOString()}::timestamptz` : undefined,
    })
    .returning({ name: jobRuns.name });
  return res.length === 1;
}

const zero = () => Object.fromEntries(RETENTION_KINDS.map((k) => [k, 0])) as Record<RetentionKind, number>;

async function purge(db: Db, opts: PurgeOptions): Promise<PurgeResult> {
  const batchSize = opts.batchSize ?? 5000;
  const now = opts.now ?? new Date();
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
      if (opts.signal?.aborted) break;
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
            if (opts.signal?.aborted) break;
            const deleted = await db.transaction((tx) => (t.deleteBatch ?? deleteBatch)(tx, t, orgId, cutoff, batchSize));
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
        await db.transaction(async (tx) => {
          await recordActivity(tx, {
            orgId,
            actor: SYSTEM,
            action: 'PURGE',
            entityType: 'DATA_RETENTION',
            entityId: orgId,
            after: { removed, olderThan: cutoffs },
          });
          const total = Object.values(removed).reduce((a, b) => a + (b ?? 0), 0);
          await notify(tx, {
            organizationId: orgId,
            kind: 'RETENTION_PURGE',
            factKey: `purge:${(opts.slot ?? now).toISOString()}`,
            title: `Old data removed: ${total} records past their retention period`,
            body: Object.entries(removed)
              .map(([k, n]) => `${RETENTION_KIND_INFO[k as RetentionKind]?.label ?? k}: ${n}`)
              .join('\n'),
            link: '/settings/data-retention',
            linkLabel: 'Data retention',
          });
        });
      }
    }
    if (opts.signal?.aborted) {
      result.interrupted = true;
      await finish(db, 'FAILED', {
        error: 'interrupted: the instance was shutting down',
        organizations: result.organizations,
        removed: result.removed,
        ranBy: RUNNER,
      });
      return result;
    }
    await finish(db, 'OK', { organizations: result.organizations, removed: result.removed, skippedKinds: result.skippedKinds, ranBy: RUNNER });
    return result;
  } catch (err) {
    await finish(db, 'FAILED', { error: (err as Error).message, removed: result.removed, ranBy: RUNNER });
    throw err;
  }
}

async function finish(db: Db, status: 'OK' | 'FAILED', summary: Record<string, unknown>): Promise<void> {
  await db.update(jobRuns).set({ finishedAt: new Date(), status, summary }).where(eq(jobRuns.name, PURGE_JOB_NAME));
}

type JobLog = { info(o: object, m: string): void; error(o: object, m: string): void };

/** Runs one slot's purge and logs what happened (ran, or why this instance skipped). */
function runSlot(database: Database, log: JobLog, slot: Date, signal: AbortSignal): Promise<void> {
  return runRetentionPurge(database, { slot, signal })
    .then((r) => {
      const { skipped, ...rest } = r;
      const why = skipped === 'done' ? 'another instance already ran it' : 'another instance is running it';
      const msg = r.interrupted ? 'retention purge interrupted by shutdown' : r.ran ? 'retention purge finished' : `retention purge skipped: ${why}`;
      log.info({ job: PURGE_JOB_NAME, slot: slot.toISOString(), ...rest }, msg);
    })
    .catch((err: unknown) => log.error({ job: PURGE_JOB_NAME, slot: slot.toISOString(), err }, 'retention purge failed'));
}

/**
 * Runs the purge every day at PURGE_HOUR_UTC on every instance; each day's run (slot) is claimed
 * by exactly one of them. At start, the latest slot is run if no instance ran it (all were down
 * at that hour, or this is a new installation), as a systemd timer with Persistent=true would.
 * Returns the stop function (shutdown): no further runs, a run under way stops before its next
 * batch; it resolves once that run has ended, before the database is closed.
 */
export function scheduleRetentionPurge(database: Database, log: JobLog): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const abort = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const run = (slot: Date) => {
    running = runSlot(database, log, slot, abort.signal).finally(arm);
  };
  const arm = () => {
    if (abort.signal.aborted) return;
    const slot = nextPurgeRun();
    timer = setTimeout(() => run(slot), slot.getTime() - Date.now());
    timer.unref();
  };
  run(previousPurgeRun());
  return async () => {
    abort.abort();
    if (timer) clearTimeout(timer);
    await running;
  };
}
