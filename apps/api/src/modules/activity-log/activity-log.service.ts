import { activityLog } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Actor } from '../auth/index.ts';

export interface ActivityEntry {
  orgId: string | null;
  actor: Actor;
  action: string;
  entityType: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Fields that never enter the log. */
const SECRET_KEYS = new Set(['passwordHash', 'password', 'tokenHash', 'ingestTokenHash', 'data']);

function scrub(value: unknown): unknown {
  if (value === undefined || value === null || typeof value !== 'object') return value ?? undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(scrub);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!SECRET_KEYS.has(k)) out[k] = scrub(v);
  return out;
}

/** The stored row of one entry: secrets scrubbed, the actor's address kept only when it is an IP. */
function rowOf(e: ActivityEntry) {
  const before = scrub(e.before);
  const after = scrub(e.after);
  return {
    organizationId: e.orgId,
    actorUserId: e.actor.userId,
    actorEmail: e.actor.email,
    actorRole: e.actor.role,
    actorTokenId: e.actor.token?.id ?? null,
    actorTokenName: e.actor.token?.name ?? null,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId ?? null,
    changes: before === undefined && after === undefined ? null : { before, after },
    ip: e.actor.ip && /^[0-9a-fA-F:.]+$/.test(e.actor.ip) ? e.actor.ip : null,
  };
}

/** Writes one activity-log row; call it with the transaction that makes the change. */
export async function recordActivity(tx: DbOrTx, e: ActivityEntry): Promise<void> {
  await tx.insert(activityLog).values(rowOf(e));
}

/** Many activity-log rows in few statements (bulk imports); same rows as recordActivity. */
export async function recordActivityBatch(tx: DbOrTx, entries: ActivityEntry[], chunk = 1000): Promise<void> {
  for (let i = 0; i < entries.length; i += chunk) {
    const rows = entries.slice(i, i + chunk).map(rowOf);
    if (rows.length) await tx.insert(activityLog).values(rows);
  }
}
