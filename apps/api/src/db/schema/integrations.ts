import { sql } from 'drizzle-orm';
import { bigserial, boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookDeliveryStatus } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Integrations (issue 48, decisions 0197 and 0198): API tokens, webhook subscriptions and the webhook
// outbox. Keys lead with organization_id (decision 0169). Indexes are in migration 0048.

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const apiTokens = pgTable(
  'api_tokens',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    /** HMAC-SHA256 of the token under a server key (decision 0197); the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters, shown to tell tokens apart. */
    prefix: text('prefix').notNull(),
    permissions: text('permissions').array().notNull(),
    expiresAt: at('expires_at'),
    allowedIps: text('allowed_ips')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdBy: uuid('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    revokedBy: uuid('revoked_by'),
    lastUsedAt: at('last_used_at'),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [primaryKey({ name: 'api_tokens_pkey', columns: [t.organizationId, t.id] })],
);

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: deliveries are signed with both until it expires. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    disabledReason: text('disabled_reason').$type<'GONE' | 'FAILING'>(),
    failingSince: at('failing_since'),
    /** Attempts in a row that got no answer within their timeout (decision 0230): above 0 the subscription is on a shorter leash. */
    consecutiveTimeouts: integer('consecutive_timeouts').notNull().default(0),
    createdBy: uuid('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'webhook_subscriptions_pkey', columns: [t.organizationId, t.id] })],
);

/** One fact for the subscriptions that wanted it: the body exactly as every attempt sends and signs it. */
/** Organizations with webhook subscriptions (issue 49, decision 0206): a reference table on Citus, where the sender claims per organization. */
export const webhookOrganizations = pgTable('webhook_organizations', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
});

export const webhookEvents = pgTable(
  'webhook_events',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    type: text('type').notNull(),
    occurredAt: at('occurred_at').notNull(),
    body: text('body').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'webhook_events_pkey', columns: [t.organizationId, t.id] })],
);

/** One event to one subscription: PENDING until a 2xx (DELIVERED) or the schedule runs out (FAILED). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    organizationId: uuid('organization_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    eventId: uuid('event_id').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    /** Set while an instance sends it: no other instance claims it before then (a killed sender's lease runs out). */
    leasedUntil: at('leased_until'),
    lastAttemptAt: at('last_attempt_at'),
    responseCode: integer('response_code'),
    lastError: text('last_error'),
    durationMs: integer('duration_ms'),
    deliveredAt: at('delivered_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'webhook_deliveries_pkey', columns: [t.organizationId, t.id] })],
);
