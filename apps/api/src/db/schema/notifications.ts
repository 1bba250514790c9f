import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// Server-generated notifications (issue 18, docs/decisions/0130). A fact (a violation, a device gone
// quiet, a finished import) is recorded once per organization; it then fans out to one row per user
// who chose its kind, in the app and/or by e-mail.

/** Each fact notified, once: a second detection of it (another instance, the next tick) inserts nothing. */
export const notificationFacts = pgTable(
  'notification_facts',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** `violation:<driver>:<rule>:<start>`, `device-offline:<device>:<last seen>`… */
    factKey: text('fact_key').notNull(),
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.factKey] }), index('notification_facts_created_idx').on(t.createdAt)],
);

/** One user's copy of a fact. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    factKey: text('fact_key').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    link: text('link'),
    linkLabel: text('link_label'),
    /** The person it is about (first and last name), for the avatar. */
    subject: jsonb('subject').$type<{ firstName: string; lastName: string } | null>(),
    /** Shown in the bell and the list (the user chose the kind in the app). */
    inApp: boolean('in_app').notNull(),
    /** To be e-mailed (the user chose the kind by e-mail); emailed_at once sent. */
    email: boolean('email').notNull(),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Cleared from the panel and the list; kept so the fact is not notified again. */
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** When the fact it reports happened (null: rows written before issue 46, and facts without a time of their own). */
    occurredAt: timestamp('occurred_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_user_fact_uq').on(t.userId, t.factKey),
    index('notifications_user_time_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.inApp} and ${t.clearedAt} is null`),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.inApp} and ${t.clearedAt} is null and ${t.readAt} is null`),
    index('notifications_mail_idx')
      .on(t.createdAt)
      .where(sql`${t.email} and ${t.emailedAt} is null`),
    index('notifications_org_idx').on(t.organizationId, t.createdAt),
  ],
);

/** A user's choice of kinds and channels: `{ VIOLATION: { inApp: true, email: false }, … }`; missing kinds take their defaults. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  kinds: jsonb('kinds').$type<Record<string, { inApp: boolean; email: boolean }>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
