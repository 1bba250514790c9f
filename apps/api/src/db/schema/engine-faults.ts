import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { EngineFaultSource, FaultLamps } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Engine faults (issue 46, decision 0191). One row per episode of a fault on a vehicle: from the
// first report to the report that no longer lists it; a fault that returns is a new row. Keys lead
// with organization_id (decision 0169) so db:distribute places the rows with the organization's.

/**
 * How the device reports the fault, which says how it clears: LIST channels (`dtcs`, `dm1`) send
 * every active fault each time, so a report without it clears it; the EVENT channel (`dm1Dtc`,
 * Teltonika's "DTC DM1") sends a fault once when it appears, and again after each ignition on while
 * it lasts, so an ignition cycle without it clears it.
 */
export type FaultChannel = 'dtcs' | 'dm1' | 'dm1Dtc';

export const engineFaults = pgTable(
  'engine_faults',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** No foreign key: the history outlives a removed vehicle as its reports do. */
    assetId: uuid('asset_id').notNull(),
    source: text('source').$type<EngineFaultSource>().notNull(),
    channel: text('channel').$type<FaultChannel>().notNull(),
    /** "P0301" or "SPN 110 FMI 0". */
    code: text('code').notNull(),
    spn: integer('spn'),
    fmi: smallint('fmi'),
    occurrences: integer('occurrences'),
    lamps: jsonb('lamps').$type<FaultLamps>(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, precision: 3 }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }).notNull(),
    clearedAt: timestamp('cleared_at', { withTimezone: true, precision: 3 }),
    defectId: uuid('defect_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    // One active episode per vehicle and code: a report of an active fault updates it.
    uniqueIndex('engine_faults_active_uq')
      .on(t.organizationId, t.assetId, t.code)
      .where(sql`${t.clearedAt} is null`),
    index('engine_faults_asset_idx').on(t.organizationId, t.assetId, t.lastSeenAt.desc()),
  ],
);

/** The organization's grounding codes ("P0301", "SPN 110 FMI 0", or "SPN 110" for every FMI). */
export const engineFaultSettings = pgTable('engine_fault_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  groundingCodes: text('grounding_codes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
