import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { assets } from './fleet.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// IFTA (issue 17, docs/decisions/0120-0126). Distances in metres; days are UTC days (decision
// 0120); money in integer cents and rates in integer ten-thousandths of a dollar (decision 0122).
// The distance tables carry no foreign key to assets (a vehicle removed later keeps its records
// for the 4 years IFTA asks); their organization key cascades, so removing an organization removes them.

/**
 * The last fix of each vehicle already counted into the distance tables: where the next fixes
 * continue from, and the watermark a late fix is compared with.
 */
/** The organization a row belongs to; removing the organization removes the row. */
const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const iftaVehicleState = pgTable('ifta_vehicle_state', {
  vehicleId: uuid('vehicle_id').primaryKey(),
  organizationId: orgKey(),
  fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  speed: doublePrecision('speed'),
  odometer: doublePrecision('odometer'),
  updatedAt: updatedAt(),
});

/** Metres per vehicle, UTC day and jurisdiction (postal code, `unknown`, MX): what a quarter's return sums. */
export const iftaDistanceDays = pgTable(
  'ifta_distance_days',
  {
    organizationId: orgKey(),
    vehicleId: uuid('vehicle_id').notNull(),
    day: date('day').notNull(),
    jurisdiction: text('jurisdiction').notNull(),
    metres: doublePrecision('metres').notNull().default(0),
    /** Of which allocated along the straight line over a gap (flag "interpolated"). */
    interpolatedMetres: doublePrecision('interpolated_metres').notNull().default(0),
  },
  (t) => [
    // No (organization, day) index: the report reads the month rollup and the review index below,
    // the distance records go by vehicle and day; one index less for every row written behind ingest.
    primaryKey({ name: 'ifta_distance_days_pkey', columns: [t.vehicleId, t.day, t.jurisdiction] }),
    // The report's review items: the few days with gaps or unknown places, without scanning the quarter.
    index('ifta_distance_days_review_idx')
      .on(t.organizationId, t.day)
      .where(sql`${t.interpolatedMetres} > 0 or ${t.jurisdiction} = 'unknown'`),
  ],
);

/**
 * The same metres rolled up per calendar month (kept in the same statements as the days): a quarter's
 * return sums three rows per vehicle and jurisdiction instead of ninety (decision 0121).
 */
export const iftaDistanceMonths = pgTable(
  'ifta_distance_months',
  {
    organizationId: orgKey(),
    vehicleId: uuid('vehicle_id').notNull(),
    month: date('month').notNull(),
    jurisdiction: text('jurisdiction').notNull(),
    metres: doublePrecision('metres').notNull().default(0),
    interpolatedMetres: doublePrecision('interpolated_metres').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'ifta_distance_months_pkey', columns: [t.vehicleId, t.month, t.jurisdiction] }),
    index('ifta_distance_months_org_month_idx').on(t.organizationId, t.month),
  ],
);

/** Per vehicle and UTC day: first and last fix and odometer (the distance record's begin/end), fixes counted. */
export const iftaVehicleDays = pgTable(
  'ifta_vehicle_days',
  {
    organizationId: orgKey(),
    vehicleId: uuid('vehicle_id').notNull(),
    day: date('day').notNull(),
    firstFixAt: timestamp('first_fix_at', { withTimezone: true }),
    lastFixAt: timestamp('last_fix_at', { withTimezone: true }),
    odometerStartM: doublePrecision('odometer_start_m'),
    odometerEndM: doublePrecision('odometer_end_m'),
    /** Metres of the day, all jurisdictions. */
    metres: doublePrecision('metres').notNull().default(0),
    /** Odometer travel over the day's consecutive fixes that both carry one, and the metres counted for those same pairs. */
    odometerTravelM: doublePrecision('odometer_travel_m').notNull().default(0),
    odometerMetres: doublePrecision('odometer_metres').notNull().default(0),
    fixes: integer('fixes').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'ifta_vehicle_days_pkey', columns: [t.vehicleId, t.day] }), index('ifta_vehicle_days_org_day_idx').on(t.organizationId, t.day)],
);

/** The vehicle-days rolled up per month (same statements): the report's odometer check reads three rows a vehicle. */
export const iftaVehicleMonths = pgTable(
  'ifta_vehicle_months',
  {
    organizationId: orgKey(),
    vehicleId: uuid('vehicle_id').notNull(),
    month: date('month').notNull(),
    metres: doublePrecision('metres').notNull().default(0),
    odometerTravelM: doublePrecision('odometer_travel_m').notNull().default(0),
    odometerMetres: doublePrecision('odometer_metres').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'ifta_vehicle_months_pkey', columns: [t.vehicleId, t.month] }),
    index('ifta_vehicle_months_org_month_idx').on(t.organizationId, t.month),
  ],
);

/** State and province lines crossed: the distance record an auditor asks for. */
export const iftaCrossings = pgTable(
  'ifta_crossings',
  {
    organizationId: orgKey(),
    vehicleId: uuid('vehicle_id').notNull(),
    day: date('day').notNull(),
    crossedAt: timestamp('crossed_at', { withTimezone: true }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    odometerM: doublePrecision('odometer_m'),
    fromJurisdiction: text('from_jurisdiction').notNull(),
    toJurisdiction: text('to_jurisdiction').notNull(),
  },
  (t) => [index('ifta_crossings_vehicle_day_idx').on(t.vehicleId, t.day, t.crossedAt), index('ifta_crossings_org_day_idx').on(t.organizationId, t.day)],
);

/** Stretches that need review: gaps allocated along the straight line, unknown places, impossible jumps. */
export const iftaFlaggedSegments = pgTable(
  'ifta_flagged_segments',
  {
    organizationId: orgKey(),
    vehicleId: uuid('vehicle_id').notNull(),
    day: date('day').notNull(),
    fromTime: timestamp('from_time', { withTimezone: true }).notNull(),
    toTime: timestamp('to_time', { withTimezone: true }).notNull(),
    fromLat: doublePrecision('from_lat').notNull(),
    fromLon: doublePrecision('from_lon').notNull(),
    toLat: doublePrecision('to_lat').notNull(),
    toLon: doublePrecision('to_lon').notNull(),
    /** `interpolated`, `unknown-position`, `impossible-speed`, `odometer-rejected`, `time-order`. */
    flags: text('flags').array().notNull(),
    metres: doublePrecision('metres').notNull(),
    /** The jurisdictions the stretch ran through, in order. */
    jurisdictions: text('jurisdictions').array().notNull(),
    /** Its metres per jurisdiction, `{"TX": 1520.4}` (issue 46; null for stretches counted before). */
    metresByJurisdiction: jsonb('metres_by_jurisdiction').$type<Record<string, number>>(),
  },
  (t) => [index('ifta_flagged_segments_vehicle_day_idx').on(t.vehicleId, t.day), index('ifta_flagged_segments_org_day_idx').on(t.organizationId, t.day)],
);

/**
 * Days a late or out-of-order fix landed in: recomputed from the stored positions shortly after
 * (decision 0121). Written in the round that saw the late fix, so a restart finds them.
 */
export const iftaDirtyDays = pgTable(
  'ifta_dirty_days',
  {
    vehicleId: uuid('vehicle_id').notNull(),
    day: date('day').notNull(),
    organizationId: orgKey(),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'ifta_dirty_days_pkey', columns: [t.vehicleId, t.day] })],
);

/** A quarter's tax-rate matrix as imported (shared by every organization). */
export const iftaRateQuarters = pgTable('ifta_rate_quarters', {
  quarter: text('quarter').primaryKey(),
  source: text('source'),
  sha256: text('sha256'),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  importedBy: text('imported_by'),
});

/** One rate of the matrix: US$ per US gallon and Can$ per litre in ten-thousandths (0.7380 → 7380). */
export const iftaTaxRates = pgTable(
  'ifta_tax_rates',
  {
    quarter: text('quarter')
      .notNull()
      .references(() => iftaRateQuarters.quarter, { onDelete: 'cascade' }),
    jurisdiction: text('jurisdiction').notNull(),
    fuelType: text('fuel_type').notNull(),
    /** BASE or SURCHARGE (Kentucky, Virginia: on taxable gallons, no credit for fuel bought). */
    kind: text('kind', { enum: ['BASE', 'SURCHARGE'] }).notNull(),
    usdPerGallonE4: integer('usd_per_gallon_e4'),
    cadPerLitreE4: integer('cad_per_litre_e4'),
  },
  (t) => [primaryKey({ name: 'ifta_tax_rates_pkey', columns: [t.quarter, t.jurisdiction, t.fuelType, t.kind] })],
);

export const iftaFuelPurchases = pgTable(
  'ifta_fuel_purchases',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => assets.id),
    purchasedAt: timestamp('purchased_at', { withTimezone: true }).notNull(),
    jurisdiction: text('jurisdiction').notNull(),
    fuelType: text('fuel_type').notNull(),
    /** The quantity as the receipt says it, in thousandths of `volume_unit` (exact). */
    quantityMilli: bigint('quantity_milli', { mode: 'number' }).notNull(),
    volumeUnit: text('volume_unit', { enum: ['GAL', 'L'] }).notNull(),
    /** Thousandths of the currency per unit. */
    pricePerUnitMilli: integer('price_per_unit_milli'),
    totalCents: bigint('total_cents', { mode: 'number' }),
    currency: text('currency', { enum: ['USD', 'CAD'] })
      .notNull()
      .default('USD'),
    vendor: text('vendor'),
    city: text('city'),
    receiptNumber: text('receipt_number').notNull(),
    taxPaid: boolean('tax_paid').notNull().default(true),
    stationLat: doublePrecision('station_lat'),
    stationLon: doublePrecision('station_lon'),
    notes: text('notes'),
    source: text('source', { enum: ['MANUAL', 'CSV', 'DEMO', 'CARD'] })
      .notNull()
      .default('MANUAL'),
    /** OK, FAR, OTHER_JURISDICTION, NO_POSITION: the vehicle's place at purchase time (decision 0124). */
    locationCheck: text('location_check').notNull().default('NO_POSITION'),
    locationDistanceM: doublePrecision('location_distance_m'),
    /** Confirmed as a bulk withdrawal or split receipt: may exceed the vehicle's tank (issue 28). */
    bulk: boolean('bulk').notNull().default(false),
    /** Price per unit × quantity misses the total by more than 1 % (a review item). */
    priceMismatch: boolean('price_mismatch').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('ifta_fuel_purchases_receipt_uq').on(t.organizationId, sql`lower(${t.receiptNumber})`),
    index('ifta_fuel_purchases_org_time_idx').on(t.organizationId, t.purchasedAt),
    index('ifta_fuel_purchases_vehicle_idx').on(t.vehicleId, t.purchasedAt),
  ],
);

export const iftaAdjustments = pgTable(
  'ifta_adjustments',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id').references(() => assets.id),
    day: date('day').notNull(),
    jurisdiction: text('jurisdiction').notNull(),
    kind: text('kind', { enum: ['MISSING_TRIP', 'CORRECTION', 'OFF_HIGHWAY', 'TRIP_PERMIT'] }).notNull(),
    distanceM: doublePrecision('distance_m').notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email'),
    createdAt: createdAt(),
  },
  (t) => [index('ifta_adjustments_org_day_idx').on(t.organizationId, t.day)],
);

/** A quarter closed: the return as filed, per fuel type; a later filing of the same quarter is an amendment. */
export const iftaFilings = pgTable(
  'ifta_filings',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    quarter: text('quarter').notNull(),
    version: integer('version').notNull(),
    filedAt: date('filed_at').notNull(),
    filedBy: text('filed_by'),
    /** Every fuel type's return (totals and rows) as computed at filing. */
    returns: jsonb('returns').$type<unknown[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ifta_filings_org_quarter_version_uq').on(t.organizationId, t.quarter, t.version)],
);

/**
 * An item of a quarter's "To review" list that someone checked (decision 0137). The key names the
 * item as it was when checked, so an item whose facts changed since comes back unreviewed.
 */
export const iftaReviewMarks = pgTable(
  'ifta_review_marks',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    quarter: text('quarter').notNull(),
    itemKey: text('item_key').notNull(),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedByEmail: text('reviewed_by_email'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull().defaultNow(),
    note: text('note'),
  },
  (t) => [primaryKey({ name: 'ifta_review_marks_pkey', columns: [t.organizationId, t.quarter, t.itemKey] })],
);
