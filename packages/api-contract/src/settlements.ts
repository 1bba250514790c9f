import { z } from 'zod';
import { dayField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { decimalNumber } from './numbers.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { optionalText } from './registry-fields.ts';
import { requiredText } from './validation.ts';

// Driver settlements (issue 70, decision 0294): each driver's pay profile, the deductions and
// reimbursements that recur on every settlement or come once, and the settlements made from the
// driver's delivered loads and log over a span of days. Money is in the organization's currency as
// decimal amounts with two places (per-mile rates with three: $0.525); distances are kilometres as
// everywhere in the API, and pay per mile is paid on the miles rounded to a tenth.

defineLabels({
  loadedMileRate: 'Pay per loaded mile',
  emptyMileRate: 'Pay per empty mile',
  lineHaulPercent: 'Share of line haul',
  flatPerLoad: 'Flat pay per load',
  extraStopRate: 'Pay per extra stop',
  hourlyRate: 'Hourly pay',
  hourlyBasis: 'Hours paid',
  detentionRate: 'Detention pay per hour',
  teamSharePercent: 'Share of a team load',
  adjustmentType: 'Deduction or reimbursement',
  adjustmentCategory: 'Category',
  recurrence: 'Applies',
  startsOn: 'From',
  endsOn: 'Until',
  paymentReference: 'Payment reference',
  voidReason: 'Reason',
});

/** On-duty time paid by the hour: ON only (line 4, the OTR driver paid by the mile for driving), or ON and D (the local driver). */
export const HOURLY_BASES = ['ON_DUTY_NOT_DRIVING', 'ALL_ON_DUTY'] as const;
export type HourlyBasis = (typeof HOURLY_BASES)[number];
export const HOURLY_BASIS_LABELS: Record<HourlyBasis, string> = {
  ON_DUTY_NOT_DRIVING: 'On duty, not driving',
  ALL_ON_DUTY: 'All on-duty time, driving included',
};

export const SETTLEMENT_LIMITS = { maxDays: 31, mileRateMax: 100, moneyMax: 100_000, hourlyMax: 1_000, freeMinutesMax: 24 * 60 } as const;

const money = (label: string, max: number = SETTLEMENT_LIMITS.moneyMax) => decimalNumber(label, 2, 0, max);
const day = (label: string) => dayField(label);

/** PUT `drivers/{driverId}/pay-profile`: every field; a zero rate pays nothing of that kind. */
export const payProfileInputSchema = z.object({
  loadedMileRate: decimalNumber('Pay per loaded mile', 3, 0, SETTLEMENT_LIMITS.mileRateMax).default(0),
  emptyMileRate: decimalNumber('Pay per empty mile', 3, 0, SETTLEMENT_LIMITS.mileRateMax).default(0),
  lineHaulPercent: decimalNumber('Share of line haul', 2, 0, 100).default(0),
  flatPerLoad: money('Flat pay per load').default(0),
  /** Per stop beyond the first pick-up and the last delivery. */
  extraStopRate: money('Pay per extra stop').default(0),
  hourlyRate: money('Hourly pay', SETTLEMENT_LIMITS.hourlyMax).default(0),
  hourlyBasis: z.enum(HOURLY_BASES, { error: () => `Hours paid must be one of ${HOURLY_BASES.join(', ')}` }).default('ON_DUTY_NOT_DRIVING'),
  detentionRate: money('Detention pay per hour', SETTLEMENT_LIMITS.hourlyMax).default(0),
  detentionFreeMinutes: z
    .number({ error: () => 'Detention free time must be a number' })
    .int('Detention free time is whole minutes')
    .min(0, 'Detention free time must not be negative')
    .max(SETTLEMENT_LIMITS.freeMinutesMax, `Detention free time must be at most ${SETTLEMENT_LIMITS.freeMinutesMax} minutes`)
    .default(120),
  /** This driver's share of a team load's pay, whether they lead or not (the two of a team usually make 100). */
  teamSharePercent: z
    .number({ error: () => 'Share of a team load must be a number' })
    .int('Share of a team load is a whole percent')
    .min(1, 'Share of a team load must be at least 1%')
    .max(100, 'Share of a team load must be at most 100%')
    .default(50),
  notes: optionalText(500),
});
export type PayProfileInput = z.infer<typeof payProfileInputSchema>;
/** The profile as stored and shown (defaults filled in). */
export type PayRates = z.output<typeof payProfileInputSchema>;

/** The rates as answered (plain values: answers are not parsed with the input's defaults and trims). */
export const payRatesSchema = z.object({
  loadedMileRate: z.number(),
  emptyMileRate: z.number(),
  lineHaulPercent: z.number(),
  flatPerLoad: z.number(),
  extraStopRate: z.number(),
  hourlyRate: z.number(),
  hourlyBasis: z.enum(HOURLY_BASES),
  detentionRate: z.number(),
  detentionFreeMinutes: z.number().int(),
  teamSharePercent: z.number().int(),
});

export const payProfileSchema = payRatesSchema.extend({
  notes: z.string().nullable(),
  driverId: z.string(),
  driverName: z.string(),
  currency: z.string(),
  /** Null: never saved (the defaults: nothing paid). */
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type PayProfile = z.infer<typeof payProfileSchema>;

export const PAY_ADJUSTMENT_TYPES = ['DEDUCTION', 'REIMBURSEMENT'] as const;
export type PayAdjustmentType = (typeof PAY_ADJUSTMENT_TYPES)[number];
export const PAY_ADJUSTMENT_CATEGORIES = ['LEASE', 'INSURANCE', 'ESCROW', 'ADVANCE', 'FUEL', 'TOLLS', 'LUMPER', 'OTHER'] as const;
export type PayAdjustmentCategory = (typeof PAY_ADJUSTMENT_CATEGORIES)[number];
export const PAY_ADJUSTMENT_CATEGORY_LABELS: Record<PayAdjustmentCategory, string> = {
  LEASE: 'Truck lease',
  INSURANCE: 'Insurance',
  ESCROW: 'Escrow',
  ADVANCE: 'Advance',
  FUEL: 'Fuel',
  TOLLS: 'Tolls',
  LUMPER: 'Lumper',
  OTHER: 'Other',
};
/** EACH_SETTLEMENT: once on every settlement whose days it is in force on; ONCE: on the first settlement made after it, never again. */
export const PAY_RECURRENCES = ['EACH_SETTLEMENT', 'ONCE'] as const;
export type PayRecurrence = (typeof PAY_RECURRENCES)[number];

/** POST `drivers/{driverId}/pay-adjustments`. */
export const payAdjustmentInputSchema = z
  .object({
    adjustmentType: z.enum(PAY_ADJUSTMENT_TYPES, { error: () => 'Deduction or reimbursement must be DEDUCTION or REIMBURSEMENT' }),
    adjustmentCategory: z.enum(PAY_ADJUSTMENT_CATEGORIES, { error: () => `Category must be one of ${PAY_ADJUSTMENT_CATEGORIES.join(', ')}` }),
    description: requiredText('Description', 120),
    amount: decimalNumber('Amount', 2, 0.01, SETTLEMENT_LIMITS.moneyMax),
    recurrence: z.enum(PAY_RECURRENCES, { error: () => 'Applies must be EACH_SETTLEMENT or ONCE' }),
    /** The first day it counts on (a settlement whose last day is before it does not take it); default: today. */
    startsOn: day('From').nullish(),
    /** A recurring one's last day (a settlement whose first day is after it does not take it); none: until removed. */
    endsOn: day('Until').nullish(),
  })
  .refine((a) => a.recurrence === 'EACH_SETTLEMENT' || !a.endsOn, { message: 'A one-time amount has no end date', path: ['endsOn'] })
  .refine((a) => !a.endsOn || !a.startsOn || a.endsOn >= a.startsOn, { message: 'Until must not be before From', path: ['endsOn'] });
export type PayAdjustmentInput = z.infer<typeof payAdjustmentInputSchema>;

export const payAdjustmentSchema = z.object({
  id: z.string(),
  driverId: z.string(),
  adjustmentType: z.enum(PAY_ADJUSTMENT_TYPES),
  adjustmentCategory: z.enum(PAY_ADJUSTMENT_CATEGORIES),
  description: z.string(),
  amount: z.number(),
  recurrence: z.enum(PAY_RECURRENCES),
  startsOn: z.string(),
  endsOn: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** A one-time amount: the settlement that took it (null: waiting for the next one). */
  appliedIn: z.object({ id: z.string(), number: z.string() }).nullable(),
  /** Settlements (not voided) it is on. */
  timesApplied: z.number().int(),
});
export type PayAdjustment = z.infer<typeof payAdjustmentSchema>;
export const payAdjustmentIdParams = z.object({
  orgId: z.uuid(),
  driverId: z.uuid('driverId must be a driver id'),
  adjustmentId: z.uuid('adjustmentId must be an adjustment id'),
});
export const driverPayParams = z.object({ orgId: z.uuid(), driverId: z.uuid('driverId must be a driver id') });

export const SETTLEMENT_STATUSES = ['DRAFT', 'APPROVED', 'PAID', 'VOID'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];
export const SETTLEMENT_STATUS_LABELS: Record<SettlementStatus, string> = { DRAFT: 'Draft', APPROVED: 'Approved', PAID: 'Paid', VOID: 'Void' };

export const SETTLEMENT_LINE_KINDS = [
  'LOADED_MILES',
  'EMPTY_MILES',
  'LINE_HAUL_PERCENT',
  'FLAT',
  'EXTRA_STOPS',
  'DETENTION',
  'HOURLY',
  'REIMBURSEMENT',
  'DEDUCTION',
] as const;
export type SettlementLineKind = (typeof SETTLEMENT_LINE_KINDS)[number];
/** The statement's groups, in the order it prints them. */
export const SETTLEMENT_GROUPS = ['LOADS', 'DETENTION', 'HOURLY', 'REIMBURSEMENTS', 'DEDUCTIONS'] as const;
export type SettlementGroup = (typeof SETTLEMENT_GROUPS)[number];
export const SETTLEMENT_GROUP_OF: Record<SettlementLineKind, SettlementGroup> = {
  LOADED_MILES: 'LOADS',
  EMPTY_MILES: 'LOADS',
  LINE_HAUL_PERCENT: 'LOADS',
  FLAT: 'LOADS',
  EXTRA_STOPS: 'LOADS',
  DETENTION: 'DETENTION',
  HOURLY: 'HOURLY',
  REIMBURSEMENT: 'REIMBURSEMENTS',
  DEDUCTION: 'DEDUCTIONS',
};
export const SETTLEMENT_LINE_UNITS = ['MILE', 'HOUR', 'STOP', 'PERCENT', 'LOAD'] as const;
export type SettlementLineUnit = (typeof SETTLEMENT_LINE_UNITS)[number];

/** POST `settlements`: a draft for the driver's days `from` to `to` (their log days, in their home terminal's zone). */
export const settlementCreateSchema = z
  .object({
    driverId: z.uuid('Driver must be a driver id'),
    from: day('From'),
    to: day('To'),
  })
  .refine((s) => s.to >= s.from, { message: 'To must not be before From', path: ['to'] })
  .refine((s) => Date.parse(`${s.to}T00:00:00Z`) - Date.parse(`${s.from}T00:00:00Z`) < SETTLEMENT_LIMITS.maxDays * 86_400_000, {
    message: `A settlement covers at most ${SETTLEMENT_LIMITS.maxDays} days`,
    path: ['to'],
  });
export type SettlementCreate = z.infer<typeof settlementCreateSchema>;

export const settlementPaidSchema = z.object({ paymentReference: optionalText(60) });
export type SettlementPaid = z.infer<typeof settlementPaidSchema>;
export const settlementVoidSchema = z.object({ voidReason: optionalText(300) });
export type SettlementVoid = z.infer<typeof settlementVoidSchema>;

export const settlementListQuerySchema = pageQuerySchema.extend({
  driverId: z.uuid('driverId must be a driver id').optional(),
  /** One status or a comma list. */
  status: z
    .string()
    .regex(
      new RegExp(`^(${SETTLEMENT_STATUSES.join('|')})(,(${SETTLEMENT_STATUSES.join('|')}))*$`),
      `status must be one or more of ${SETTLEMENT_STATUSES.join(', ')}`,
    )
    .optional(),
});
export type SettlementListQuery = z.infer<typeof settlementListQuerySchema>;
export const settlementIdParams = z.object({ orgId: z.uuid(), settlementId: z.uuid('settlementId must be a settlement id') });

export const settlementLineSchema = z.object({
  id: z.string(),
  kind: z.enum(SETTLEMENT_LINE_KINDS),
  group: z.enum(SETTLEMENT_GROUPS),
  loadId: z.string().nullable(),
  loadNumber: z.string().nullable(),
  /** A stop's position on its load, from 0 (detention). */
  stopSeq: z.number().int().nullable(),
  /** The log day the hours are from. */
  logDate: z.string().nullable(),
  adjustmentId: z.string().nullable(),
  description: z.string(),
  /** Where the figure came from, in words (the load's distance, the previous delivery, the log's day). */
  source: z.string(),
  quantity: z.number().nullable(),
  unit: z.enum(SETTLEMENT_LINE_UNITS).nullable(),
  /** Money per unit; for PERCENT the percent. */
  rate: z.number().nullable(),
  /** The amount a percent is of (the load's line haul). */
  base: z.number().nullable(),
  distanceKm: z.number().nullable(),
  /** The driver's share of a team load, applied to the line. */
  sharePercent: z.number().nullable(),
  /** Signed: a deduction is negative. */
  amount: z.number(),
});
export type SettlementLine = z.infer<typeof settlementLineSchema>;

export const settlementLoadSchema = z.object({
  loadId: z.string(),
  number: z.string(),
  customer: z.string(),
  deliveredAt: z.string(),
  /** Whether the driver led the load or was its second driver. */
  seat: z.enum(['LEAD', 'CO_DRIVER']),
  teammate: z.string().nullable(),
  sharePercent: z.number(),
  loadedKm: z.number().nullable(),
  emptyKm: z.number().nullable(),
  stopCount: z.number().int(),
  /** The load's pay on this settlement (its lines, detention included). */
  amount: z.number(),
});
export type SettlementLoad = z.infer<typeof settlementLoadSchema>;

export const settlementTotalsSchema = z.object({
  loads: z.number(),
  detention: z.number(),
  hourly: z.number(),
  reimbursements: z.number(),
  deductions: z.number(),
  /** Loads, detention and hours. */
  gross: z.number(),
  /** Gross plus reimbursements less deductions (may be negative). */
  net: z.number(),
});
export type SettlementTotals = z.infer<typeof settlementTotalsSchema>;

export const settlementSummarySchema = z.object({
  id: z.string(),
  number: z.string(),
  driver: z.object({ id: z.string(), name: z.string() }),
  from: z.string(),
  to: z.string(),
  /** The zone the days are counted in: the driver's home terminal's, as their log. */
  timeZone: z.string(),
  status: z.enum(SETTLEMENT_STATUSES),
  currency: z.string(),
  loadCount: z.number().int(),
  totals: settlementTotalsSchema,
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  paidAt: z.string().nullable(),
  paidBy: z.string().nullable(),
  paymentReference: z.string().nullable(),
  voidedAt: z.string().nullable(),
  voidedBy: z.string().nullable(),
  voidReason: z.string().nullable(),
});
export type SettlementSummary = z.infer<typeof settlementSummarySchema>;

export const settlementSchema = settlementSummarySchema.extend({
  /** The pay profile the draft was figured with. */
  rates: payRatesSchema,
  loads: z.array(settlementLoadSchema),
  lines: z.array(settlementLineSchema),
});
export type Settlement = z.infer<typeof settlementSchema>;
export const settlementPageSchema = pageSchema(settlementSummarySchema);
