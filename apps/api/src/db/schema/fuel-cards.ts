import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { FuelEventType, FuelImportMapping, FuelTransactionCheck, FuelVerificationDetails } from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Fuel-card transactions (issue 68, decisions 0274-0275). Keys lead with organization_id (decision
// 0169). No foreign key to assets, drivers or purchases: a transaction is a record of the card
// processor's and outlives a removed vehicle, like the positions it was checked against.

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const fuelTransactions = pgTable(
  'fuel_transactions',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    /** The card processor's id: a repeat is a duplicate. */
    transactionId: text('transaction_id').notNull(),
    cardLast4: text('card_last4'),
    unitNumber: text('unit_number'),
    driverName: text('driver_name'),
    /** The truck it was resolved to (null: none found; the transaction waits for a card assignment). */
    vehicleId: uuid('vehicle_id'),
    driverId: uuid('driver_id'),
    /** How the truck was found: VEHICLE_ID, UNIT_NUMBER, CARD, DRIVER. */
    resolvedBy: text('resolved_by'),
    time: timestamp('time', { withTimezone: true, precision: 3 }).notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    merchant: text('merchant'),
    city: text('city'),
    state: text('state'),
    fuelType: text('fuel_type').notNull(),
    /** Thousandths of `unit` (exact, as the IFTA purchase keeps it). */
    quantityMilli: bigint('quantity_milli', { mode: 'number' }).notNull(),
    unit: text('unit', { enum: ['GAL', 'L'] }).notNull(),
    unitPriceMilli: integer('unit_price_milli'),
    totalCents: bigint('total_cents', { mode: 'number' }),
    odometer: doublePrecision('odometer'),
    source: text('source', { enum: ['API', 'FILE', 'DEMO'] })
      .notNull()
      .default('API'),
    /** The IFTA fuel purchase it counts as (null while no truck is known). */
    purchaseId: uuid('purchase_id'),
    verification: text('verification').$type<FuelTransactionCheck>().notNull(),
    verificationDetails: jsonb('verification_details').$type<FuelVerificationDetails>().notNull().default({}),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }).notNull(),
    reviewStatus: text('review_status', { enum: ['ACCEPTED', 'DISPUTED'] }),
    reviewNote: text('review_note'),
    reviewedBy: uuid('reviewed_by'),
    reviewedByEmail: text('reviewed_by_email'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'fuel_transactions_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('fuel_transactions_transaction_uq').on(t.organizationId, t.transactionId),
    index('fuel_transactions_time_idx').on(t.organizationId, t.time.desc()),
    index('fuel_transactions_verification_idx').on(t.organizationId, t.verification, t.time.desc()),
    index('fuel_transactions_vehicle_idx').on(t.organizationId, t.vehicleId, t.time),
    index('fuel_transactions_purchase_idx').on(t.organizationId, t.purchaseId),
  ],
);

/** A card given to a vehicle or to a driver (exactly one), by its last 4 digits. */
export const fuelCardAssignments = pgTable(
  'fuel_card_assignments',
  {
    organizationId: orgKey(),
    cardLast4: text('card_last4').notNull(),
    vehicleId: uuid('vehicle_id'),
    driverId: uuid('driver_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'fuel_card_assignments_pkey', columns: [t.organizationId, t.cardLast4] })],
);

/** An organization's saved column mapping for a card export: a preset it adjusted, under a name. */
export const fuelImportPresets = pgTable(
  'fuel_import_presets',
  {
    organizationId: orgKey(),
    name: text('name').notNull(),
    /** The built-in preset it started from (WEX, EFS, COMDATA, FLEET_ONE, CUSTOM). */
    base: text('base').notNull(),
    mapping: jsonb('mapping').$type<FuelImportMapping>().notNull().default({}),
    dateFormat: text('date_format', { enum: ['MDY', 'DMY', 'YMD'] }),
    defaultUnit: text('default_unit', { enum: ['GAL', 'L'] })
      .notNull()
      .default('GAL'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'fuel_import_presets_pkey', columns: [t.organizationId, t.name] })],
);

/**
 * A refuel or a drop the fuel-level follower found in a truck's positions (issue 68, decision 0276).
 * (asset, type, start) names it: a replay of the same positions finds the same row. No foreign key to
 * the vehicle or driver: the record outlives them, as positions do.
 */
export const fuelEvents = pgTable(
  'fuel_events',
  {
    organizationId: orgKey(),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    assetId: uuid('asset_id').notNull(),
    driverId: uuid('driver_id'),
    type: text('type').$type<FuelEventType>().notNull(),
    /** The last steady reading before the level moved, and the first at the level it settled at. */
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    /** Litres in (a refuel) or out (a drop). */
    quantityL: doublePrecision('quantity_l').notNull(),
    levelBeforePct: doublePrecision('level_before_pct').notNull(),
    levelAfterPct: doublePrecision('level_after_pct').notNull(),
    levelBeforeL: doublePrecision('level_before_l').notNull(),
    levelAfterL: doublePrecision('level_after_l').notNull(),
    /** The tank the percentages are of, litres; `capacityAssumed`: the 300 gal default, the vehicle has none set. */
    tankCapacityL: doublePrecision('tank_capacity_l').notNull(),
    capacityAssumed: boolean('capacity_assumed').notNull().default(false),
    ignitionOff: boolean('ignition_off').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'fuel_events_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('fuel_events_key_uq').on(t.organizationId, t.assetId, t.type, t.startedAt),
    index('fuel_events_time_idx').on(t.organizationId, t.startedAt.desc()),
  ],
);

/** How far each vehicle's positions were worked by the fuel-level follower (its start-up catch-up). */
export const fuelLevelMarks = pgTable(
  'fuel_level_marks',
  {
    organizationId: orgKey(),
    assetId: uuid('asset_id').notNull(),
    coveredUntil: timestamp('covered_until', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ name: 'fuel_level_marks_pkey', columns: [t.organizationId, t.assetId] })],
);
