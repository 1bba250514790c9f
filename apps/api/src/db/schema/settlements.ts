import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type {
  HourlyBasis,
  PayAdjustmentCategory,
  PayAdjustmentType,
  PayRates,
  PayRecurrence,
  SettlementLineKind,
  SettlementLineUnit,
  SettlementStatus,
} from '@fleet/api-contract';
import { organizations } from './organizations.ts';

// Driver settlements (issue 70, decision 0294). Keys lead with organization_id (decision 0169). No
// foreign key to drivers or loads: a settlement is a pay record that keeps the names and figures it
// was made with, and outlives a removed driver as an IFTA return outlives a removed truck. Money is
// in whole cents; per-mile rates in mills (a tenth of a cent: $0.525 a mile is 525), percentages in
// basis points (25% is 2500).

const orgKey = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const newId = () =>
  uuid('id')
    .notNull()
    .default(sql`gen_random_uuid()`);

/** A driver's pay rates; a driver without a row is paid nothing until one is saved. */
export const driverPayProfiles = pgTable(
  'driver_pay_profiles',
  {
    organizationId: orgKey(),
    driverId: uuid('driver_id').notNull(),
    loadedMileMills: integer('loaded_mile_mills').notNull().default(0),
    emptyMileMills: integer('empty_mile_mills').notNull().default(0),
    lineHaulBp: integer('line_haul_bp').notNull().default(0),
    flatPerLoadCents: integer('flat_per_load_cents').notNull().default(0),
    extraStopCents: integer('extra_stop_cents').notNull().default(0),
    hourlyCents: integer('hourly_cents').notNull().default(0),
    hourlyBasis: text('hourly_basis').$type<HourlyBasis>().notNull().default('ON_DUTY_NOT_DRIVING'),
    detentionCentsPerHour: integer('detention_cents_per_hour').notNull().default(0),
    detentionFreeMinutes: integer('detention_free_minutes').notNull().default(120),
    teamSharePercent: integer('team_share_percent').notNull().default(50),
    notes: text('notes'),
    updatedAt: instant('updated_at').notNull().defaultNow(),
    /** Who saved it last, by name (a person, or an API token). */
    updatedBy: text('updated_by'),
  },
  (t) => [primaryKey({ name: 'driver_pay_profiles_pkey', columns: [t.organizationId, t.driverId] })],
);

/** A deduction (lease, insurance, escrow, an advance) or a reimbursement (tolls, lumper) of a driver. */
export const payAdjustments = pgTable(
  'pay_adjustments',
  {
    organizationId: orgKey(),
    id: newId(),
    driverId: uuid('driver_id').notNull(),
    type: text('type').$type<PayAdjustmentType>().notNull(),
    category: text('category').$type<PayAdjustmentCategory>().notNull(),
    description: text('description').notNull(),
    amountCents: integer('amount_cents').notNull(),
    recurrence: text('recurrence').$type<PayRecurrence>().notNull(),
    startsOn: date('starts_on').notNull(),
    endsOn: date('ends_on'),
    /** ONCE: the settlement (not voided) that took it; null while it waits. */
    appliedSettlementId: uuid('applied_settlement_id'),
    createdAt: instant('created_at').notNull().defaultNow(),
    createdBy: text('created_by'),
    /** Removed: no later settlement takes it; those that did keep their line. */
    removedAt: instant('removed_at'),
  },
  (t) => [
    primaryKey({ name: 'pay_adjustments_pkey', columns: [t.organizationId, t.id] }),
    index('pay_adjustments_driver_idx').on(t.organizationId, t.driverId),
  ],
);

/** The last settlement number given in each organization (S-1001, S-1002, …). */
export const settlementCounters = pgTable('settlement_counters', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  last: integer('last').notNull(),
});

export const settlements = pgTable(
  'settlements',
  {
    organizationId: orgKey(),
    id: newId(),
    number: text('number').notNull(),
    driverId: uuid('driver_id').notNull(),
    driverName: text('driver_name').notNull(),
    periodFrom: date('period_from').notNull(),
    periodTo: date('period_to').notNull(),
    /** The driver's home terminal zone the days were counted in. */
    timeZone: text('time_zone').notNull(),
    status: text('status').$type<SettlementStatus>().notNull().default('DRAFT'),
    currency: text('currency').notNull().default('USD'),
    /** The pay profile the draft was figured with. */
    rates: jsonb('rates').$type<Omit<PayRates, 'notes'>>().notNull(),
    loadCount: integer('load_count').notNull().default(0),
    loadsCents: integer('loads_cents').notNull().default(0),
    detentionCents: integer('detention_cents').notNull().default(0),
    hourlyCents: integer('hourly_cents').notNull().default(0),
    reimbursementCents: integer('reimbursement_cents').notNull().default(0),
    deductionCents: integer('deduction_cents').notNull().default(0),
    netCents: integer('net_cents').notNull().default(0),
    createdAt: instant('created_at').notNull().defaultNow(),
    createdBy: text('created_by'),
    approvedAt: instant('approved_at'),
    approvedBy: text('approved_by'),
    paidAt: instant('paid_at'),
    paidBy: text('paid_by'),
    paymentReference: text('payment_reference'),
    voidedAt: instant('voided_at'),
    voidedBy: text('voided_by'),
    voidReason: text('void_reason'),
  },
  (t) => [
    primaryKey({ name: 'settlements_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('settlements_number_uq').on(t.organizationId, t.number),
    index('settlements_driver_idx').on(t.organizationId, t.driverId, t.periodFrom),
    index('settlements_status_idx').on(t.organizationId, t.status, t.createdAt),
  ],
);

/**
 * The loads a settlement pays a driver for. A load is settled once per driver: the unique index holds
 * while the settlement stands; voiding it releases its loads (the rows stay, as the void's record).
 */
export const settlementLoads = pgTable(
  'settlement_loads',
  {
    organizationId: orgKey(),
    settlementId: uuid('settlement_id').notNull(),
    loadId: uuid('load_id').notNull(),
    driverId: uuid('driver_id').notNull(),
    loadNumber: text('load_number').notNull(),
    customer: text('customer').notNull(),
    deliveredAt: instant('delivered_at').notNull(),
    seat: text('seat').$type<'LEAD' | 'CO_DRIVER'>().notNull(),
    teammate: text('teammate'),
    sharePercent: integer('share_percent').notNull(),
    loadedM: doublePrecision('loaded_m'),
    emptyM: doublePrecision('empty_m'),
    stopCount: integer('stop_count').notNull(),
    amountCents: integer('amount_cents').notNull(),
    released: boolean('released').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'settlement_loads_pkey', columns: [t.organizationId, t.settlementId, t.loadId] }),
    uniqueIndex('settlement_loads_once_uq')
      .on(t.organizationId, t.driverId, t.loadId)
      .where(sql`not ${t.released}`),
  ],
);

/** A settlement's lines in statement order, each with where its figure came from. */
export const settlementLines = pgTable(
  'settlement_lines',
  {
    organizationId: orgKey(),
    id: newId(),
    settlementId: uuid('settlement_id').notNull(),
    seq: integer('seq').notNull(),
    kind: text('kind').$type<SettlementLineKind>().notNull(),
    loadId: uuid('load_id'),
    loadNumber: text('load_number'),
    stopSeq: integer('stop_seq'),
    logDate: date('log_date'),
    adjustmentId: uuid('adjustment_id'),
    description: text('description').notNull(),
    source: text('source').notNull(),
    /** Display figures (miles to a tenth, hours to a hundredth); the amount is the exact one. */
    quantity: doublePrecision('quantity'),
    unit: text('unit').$type<SettlementLineUnit>(),
    rate: doublePrecision('rate'),
    baseCents: integer('base_cents'),
    distanceM: doublePrecision('distance_m'),
    sharePercent: integer('share_percent'),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    primaryKey({ name: 'settlement_lines_pkey', columns: [t.organizationId, t.id] }),
    uniqueIndex('settlement_lines_seq_uq').on(t.organizationId, t.settlementId, t.seq),
    // A recurring deduction comes once on a settlement.
    uniqueIndex('settlement_lines_adjustment_uq')
      .on(t.organizationId, t.settlementId, t.adjustmentId)
      .where(sql`${t.adjustmentId} is not null`),
  ],
);
