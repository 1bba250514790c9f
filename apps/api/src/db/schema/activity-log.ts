import { bigserial, index, inet, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Append-only record of every mutation. No endpoint updates or deletes rows (retention purge only). */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id'),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    actorRole: text('actor_role'),
    /** The API token that made the change (issue 48); actor_user_id is then the token's creator. */
    actorTokenId: uuid('actor_token_id'),
    actorTokenName: text('actor_token_name'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    changes: jsonb('changes').$type<{ before?: unknown; after?: unknown } | null>(),
    ip: inet('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ascending on purpose: scanned backwards it serves ORDER BY created_at DESC, id DESC (newest
    // first), so a page is a short index scan. DESC columns here would be DESC NULLS LAST, which
    // that ORDER BY (DESC means NULLS FIRST) cannot use.
    index('activity_log_org_time_idx').on(t.organizationId, t.createdAt, t.id),
    index('activity_log_actor_idx').on(t.actorUserId, t.createdAt, t.id),
  ],
);
