import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

/**
 * Fixes that ingest refused (issue 43): answered to the device as received so it never resends
 * them, recorded here so the device's page can say why. One row per device, reason and minute
 * (`count` of them, the newest one's times and message): a tracker with a bad clock sending every
 * second for days costs 1,440 rows a day, and rows older than a day are purged
 * (modules/positions/refused-fixes.ts). No foreign key to gateways: a device deleted while its
 * refusals wait in memory must not fail the batch; its rows go with the purge.
 */
export const refusedFixes = pgTable(
  'refused_fixes',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id').notNull(),
    /** The minute received, truncated: the aggregation bucket. */
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    /** fix-check.ts's RefusalReason, or 'database'. */
    reason: text('reason').notNull(),
    /** When the newest of them arrived. */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The newest one's fix time (null: it had none that was a time). */
    fixTime: timestamp('fix_time', { withTimezone: true }),
    /** The newest one's fix time as text when it was not a time the column holds (year 0000, +010000, not a time at all). */
    fixTimeText: text('fix_time_text'),
    message: text('message').notNull(),
    field: text('field'),
    protocol: text('protocol').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.gatewayId, t.minute, t.reason] }), index('refused_fixes_received_idx').on(t.receivedAt)],
);
