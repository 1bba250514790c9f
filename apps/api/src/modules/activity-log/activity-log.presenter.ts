import type { ActivityLogDetail, ActivityLogEntry } from '@fleet/api-contract';
import type { activityLog } from '../../db/schema/index.ts';

type Row = typeof activityLog.$inferSelect;

/** Bookkeeping columns that change on every update and say nothing to a reader. */
const NOISE = new Set(['updatedAt']);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Top-level fields whose values differ between before and after (a create or delete lists all). */
export function diff(before: unknown, after: unknown): Array<{ field: string; before: unknown; after: unknown }> {
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !NOISE.has(f));
  return fields
    .filter((f) => JSON.stringify(b[f] ?? null) !== JSON.stringify(a[f] ?? null))
    .map((f) => ({ field: f, before: b[f] ?? null, after: a[f] ?? null }));
}

export function presentEntry(r: Row, actorName: string | null): ActivityLogEntry {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    actor: { userId: r.actorUserId, email: r.actorEmail, role: r.actorRole, name: actorName },
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    ip: r.ip,
    changedFields: diff(r.changes?.before, r.changes?.after).map((c) => c.field),
  };
}

export function presentDetail(r: Row, actorName: string | null): ActivityLogDetail {
  return {
    ...presentEntry(r, actorName),
    before: r.changes?.before ?? null,
    after: r.changes?.after ?? null,
    changes: diff(r.changes?.before, r.changes?.after),
  };
}
