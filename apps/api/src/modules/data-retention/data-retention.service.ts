import { and, desc, eq, gte } from 'drizzle-orm';
import { RETENTION_KIND_INFO, RETENTION_KINDS, type DataRetention, type DataRetentionInput, type RetentionKind } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { activityLog, jobRuns, retentionPolicies } from '../../db/schema/index.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { RETENTION_TARGETS, targetExists } from './retention-kinds.ts';

export const PURGE_JOB_NAME = 'retention-purge';
/** The purge runs every day at this hour (UTC), when fleets are quietest in North America. */
export const PURGE_HOUR_UTC = 8;

/** The next scheduled run after `now`. */
export function nextPurgeRun(now = new Date()): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), PURGE_HOUR_UTC));
  if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** The latest scheduled run at or before `now` (whether or not it ran). */
export function previousPurgeRun(now = new Date()): Date {
  const next = nextPurgeRun(now);
  next.setUTCDate(next.getUTCDate() - 1);
  return next;
}

/** Effective retention per kind: the saved value, else the kind's default. Null keeps forever. */
export async function effectivePolicies(db: DbOrTx, orgId: string): Promise<Record<RetentionKind, number | null>> {
  const saved = await db.select().from(retentionPolicies).where(eq(retentionPolicies.organizationId, orgId));
  const byKind = new Map(saved.map((r) => [r.kind, r.retentionDays]));
  const out = {} as Record<RetentionKind, number | null>;
  for (const k of RETENTION_KINDS) out[k] = byKind.has(k) ? (byKind.get(k) ?? null) : RETENTION_KIND_INFO[k].defaultDays;
  return out;
}

export async function getDataRetention({ db, orgId }: ReadScope): Promise<DataRetention> {
  const policies = await effectivePolicies(db, orgId);
  const stored = await Promise.all(RETENTION_KINDS.map(async (k) => (await Promise.all(RETENTION_TARGETS[k].map((t) => targetExists(db, t)))).some(Boolean)));
  const run = (await db.select().from(jobRuns).where(eq(jobRuns.name, PURGE_JOB_NAME)))[0];
  let lastRemoved: Record<string, number> = {};
  if (run?.startedAt) {
    const rows = await db
      .select({ changes: activityLog.changes })
      .from(activityLog)
      .where(
        and(
          eq(activityLog.organizationId, orgId),
          eq(activityLog.action, 'PURGE'),
          eq(activityLog.entityType, 'DATA_RETENTION'),
          gte(activityLog.createdAt, run.startedAt),
        ),
      )
      .orderBy(desc(activityLog.id))
      .limit(1);
    const after = rows[0]?.changes?.after as { removed?: Record<string, number> } | undefined;
    lastRemoved = after?.removed ?? {};
  }
  return {
    policies: RETENTION_KINDS.map((kind, i) => {
      const info = RETENTION_KIND_INFO[kind];
      return {
        kind,
        label: info.label,
        description: info.description,
        retentionDays: policies[kind],
        minimumDays: info.minimumDays,
        defaultDays: info.defaultDays,
        basis: info.basis,
        stored: stored[i] ?? false,
      };
    }),
    job: {
      lastRunStartedAt: run?.startedAt?.toISOString() ?? null,
      lastRunFinishedAt: run?.finishedAt?.toISOString() ?? null,
      lastRunStatus: run?.status ?? null,
      nextRunAt: nextPurgeRun().toISOString(),
      lastRemoved,
    },
  };
}

/** Saves the listed kinds (the legal minimums were checked by the schema); others keep their value. */
export async function updateDataRetention({ db, orgId, actor }: Scope, input: DataRetentionInput): Promise<DataRetention> {
  await db.transaction(async (tx) => {
    const before = await effectivePolicies(tx, orgId);
    for (const p of input.policies) {
      await tx
        .insert(retentionPolicies)
        .values({ organizationId: orgId, kind: p.kind, retentionDays: p.retentionDays })
        .onConflictDoUpdate({
          target: [retentionPolicies.organizationId, retentionPolicies.kind],
          set: { retentionDays: p.retentionDays, updatedAt: new Date() },
        });
    }
    const after = await effectivePolicies(tx, orgId);
    await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'DATA_RETENTION', entityId: orgId, before, after });
  });
  return getDataRetention({ db, orgId });
}
