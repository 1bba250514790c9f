import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DeviceCommandStatus } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Text commands to devices (issue 73, decision 0318). Keys lead with organization_id (decision
// 0169); migration 0070 holds the foreign key to gateways on (organization_id, id), deleted with it.

const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** One command queued for a device, its sending and its answer. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    gatewayId: uuid('gateway_id').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<DeviceCommandStatus>().notNull().default('QUEUED'),
    answer: text('answer'),
    queuedBy: uuid('queued_by'),
    queuedByEmail: text('queued_by_email'),
    queuedByToken: text('queued_by_token'),
    createdAt: instant('created_at').notNull().defaultNow(),
    sentAt: instant('sent_at'),
    answeredAt: instant('answered_at'),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'device_commands_pkey', columns: [t.organizationId, t.id] }),
    index('device_commands_gateway_idx').on(t.organizationId, t.gatewayId, t.createdAt),
    index('device_commands_waiting_idx')
      .on(t.organizationId, t.gatewayId, t.createdAt)
      .where(sql`${t.status} in ('QUEUED', 'SENT')`),
  ],
);
