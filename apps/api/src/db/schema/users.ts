import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { organizations, roles } from './organizations.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    // Null only for super administrators, who belong to no organization.
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['ADMIN', 'USER', 'SUPER_ADMIN'] })
      .notNull()
      .default('USER'),
    roleId: uuid('role_id').references(() => roles.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    username: text('username'),
    position: text('position'),
    phone: text('phone'),
    timeZone: text('time_zone'),
    profileImageId: uuid('profile_image_id'),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE', 'INVITED'] })
      .notNull()
      .default('ACTIVE'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    // Raised by "log out everywhere" and every other end of all sessions (password change, deactivation):
    // access tokens and stream tickets carry the epoch they were issued in, and an older one is refused.
    sessionEpoch: integer('session_epoch').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_uq').on(sql`lower(${t.email})`), index('users_org_idx').on(t.organizationId)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes; a family is one sign-in session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose', { enum: ['RESET', 'INVITE'] })
      .notNull()
      .default('RESET'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_uq').on(t.tokenHash)],
);

/**
 * Single-use tickets that open one live stream (EventSource cannot send the Authorization header,
 * and an access token in a URL ends up in logs). SHA-256 of the ticket, seconds long, deleted when
 * used; in the database so any API instance behind the load balancer can redeem what another issued.
 */
export const streamTickets = pgTable(
  'stream_tickets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The user's session epoch when the ticket was issued: a ticket issued before "log out everywhere" opens nothing. */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    /** The route of the one stream the ticket opens (`/api/v1/organizations/:orgId/assets/stream`). */
    stream: text('stream').notNull().default(''),
    /** The session (refresh-token family) that asked for it; null for an access token from before sessions were named. */
    sessionId: uuid('session_id'),
  },
  (t) => [
    index('stream_tickets_expires_idx').on(t.expiresAt),
    index('stream_tickets_user_idx').on(t.userId),
    index('stream_tickets_org_idx').on(t.organizationId),
  ],
);

/**
 * A person's own change of e-mail (decision 0227): the old address got a single-use link (its
 * SHA-256 here) that puts the old e-mail back within 7 days.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    oldEmail: text('old_email').notNull(),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_changes_hash_uq').on(t.tokenHash), index('email_changes_user_idx').on(t.userId)],
);

/** Failed sign-ins per IP + e-mail in a fixed window, shared by every API instance. */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
});
