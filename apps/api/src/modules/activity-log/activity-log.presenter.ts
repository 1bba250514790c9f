import type { ActivityLogDetail, ActivityLogEntry, JsonValue } from '@fleet/api-contract';
import type { activityLog } from '../../db/schema/index.ts';
import { diff, isObject } from './activity-log.diff.ts';
import { actorLabel, describeActivity, labelledChanges, type Lookup } from './activity-log.wording.ts';

type Row = typeof activityLog.$inferSelect;

/** A stored value as JSON the contract accepts: non-finite numbers become null, other non-JSON values text. */
export function jsonValue(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return v.map(jsonValue);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
}

/** A whole snapshot: field -> value; a stored non-object (none is written today) under `value`. */
function snapshot(v: unknown): Record<string, JsonValue> | null {
  if (v === null || v === undefined) return null;
  const o = isObject(v) ? v : { value: v };
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, jsonValue(x)]));
}

export function presentEntry(r: Row, lookup: Lookup): ActivityLogEntry {
  const user = r.actorUserId ? lookup(r.actorUserId) : undefined;
  // The lookup names a user by the e-mail when the account has no name.
  const name = user && user.label !== user.email ? user.label : null;
  const actor = { userId: r.actorUserId, email: r.actorEmail, role: r.actorRole, name, tokenId: r.actorTokenId, tokenName: r.actorTokenName };
  const label = actorLabel(actor);
  const { summary, record } = describeActivity(
    {
      action: r.action,
      entityType: r.entityType,
      entityId: r.entityId,
      actorUserId: r.actorUserId,
      actorLabel: label,
      before: r.changes?.before,
      after: r.changes?.after,
    },
    lookup,
  );
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    actor: { ...actor, label },
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    ip: r.ip,
    changedFields: diff(r.changes?.before, r.changes?.after).map((c) => c.field),
    summary,
    record,
  };
}

export function presentDetail(r: Row, lookup: Lookup): ActivityLogDetail {
  const before = r.changes?.before;
  const after = r.changes?.after;
  return {
    ...presentEntry(r, lookup),
    before: snapshot(before),
    after: snapshot(after),
    changes: diff(before, after).map((c) => ({ field: c.field, before: jsonValue(c.before), after: jsonValue(c.after) })),
    labelledChanges: labelledChanges({ action: r.action, entityType: r.entityType, entityId: r.entityId, before, after }, lookup),
  };
}
