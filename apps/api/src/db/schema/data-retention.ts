import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

/** A saved retention period per organization and data kind; a kind without a row uses its default. */
export const retentionPolicies = pgTable(
  'retention_policies',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Null keeps the data forever. */
    retentionDays: integer('retention_days'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.kind] })],
);

/** Last run of each scheduled job, shared by every API instance. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  status: text('status', { enum: ['OK', 'FAILED', 'RUNNING'] }),
  /** Totals of the run (rows removed per kind, organizations visited, error text). */
  summary: jsonb('summary').$type<Record<string, unknown>>(),
});
