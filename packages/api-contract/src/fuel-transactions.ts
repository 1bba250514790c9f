import { z } from 'zod';
import { inYears, yearsMessage } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { FUEL_JURISDICTION_CODES, FUEL_JURISDICTION_MESSAGE } from './ifta-checks.ts';
import { DATE_FORMATS, VOLUME_UNITS, fuelTypeSchema } from './ifta.ts';
import { decimalNumber } from './numbers.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';

// Fuel-card transactions (issue 68, decisions 0274-0276): what a card processor (WEX, EFS, Comdata,
// Fleet One) or a TMS sends, each becoming an IFTA fuel purchase checked against where the truck was.

defineLabels({
  transactions: 'Transactions',
  transactionId: 'Transaction id',
  cardNumberLast4: 'Card number (last 4)',
  unitNumber: 'Unit number',
  driverName: 'Driver name',
  vehicleId: 'Vehicle',
  merchant: 'Merchant',
  state: 'State or province',
  fuelType: 'Fuel type',
  unit: 'Volume unit',
  unitPrice: 'Unit price',
  total: 'Total',
  decision: 'Decision',
  note: 'Note',
  time: 'Time',
  base: 'Base preset',
});

/**
 * The verification of a transaction: VERIFIED (the truck within the radius of the station within the
 * window), LOCATION_MISMATCH (it was elsewhere), NO_POSITION (no fix near that time), OVER_TANK (more
 * than its tank holds, or than it could take given its fuel level before), NO_FILL_SEEN (the truck
 * reports its fuel level and no rise followed; decision 0276), NO_VEHICLE (no truck found for it:
 * unit number, card and driver unknown; it is not an IFTA purchase until one is).
 */
export const FUEL_TRANSACTION_CHECKS = ['VERIFIED', 'LOCATION_MISMATCH', 'NO_POSITION', 'OVER_TANK', 'NO_FILL_SEEN', 'NO_VEHICLE'] as const;
export type FuelTransactionCheck = (typeof FUEL_TRANSACTION_CHECKS)[number];
export const FUEL_TRANSACTION_CHECK_LABELS: Record<FuelTransactionCheck, string> = {
  VERIFIED: 'Verified',
  LOCATION_MISMATCH: 'Truck elsewhere',
  NO_POSITION: 'No position',
  OVER_TANK: 'Over tank',
  NO_FILL_SEEN: 'No fill seen',
  NO_VEHICLE: 'No vehicle',
};
export const FUEL_REVIEW_DECISIONS = ['ACCEPTED', 'DISPUTED'] as const;
export type FuelReviewDecision = (typeof FUEL_REVIEW_DECISIONS)[number];
export const FUEL_RESOLVED_BY = ['VEHICLE_ID', 'UNIT_NUMBER', 'CARD', 'DRIVER'] as const;
export type FuelResolvedBy = (typeof FUEL_RESOLVED_BY)[number];

/** Defaults of the organization's `fuelCards` settings: the station radius and the time window. */
export const DEFAULT_FUEL_MATCH = { radiusM: 150, windowMinutes: 15 };

/** What the check found, kept with the transaction (and worded by `fuelVerificationReason`). */
export interface FuelVerificationDetails {
  radiusM?: number;
  windowMinutes?: number;
  /** STATION: against the station's coordinates; STATE: without them, against its state only. */
  basis?: 'STATION' | 'STATE';
  /** Closest the truck came to the station within the window (metres). */
  distanceM?: number | null;
  /** Where the truck was: the fix nearest the transaction time. */
  truck?: { lat: number; lon: number; at: string; place: string | null; jurisdiction: string | null } | null;
  /** OVER_TANK: the quantity and the capacity, litres. */
  quantityL?: number;
  tankCapacityL?: number | null;
  /** A location finding hidden under OVER_TANK or NO_FILL_SEEN (both are said in words). */
  location?: 'VERIFIED' | 'LOCATION_MISMATCH' | 'NO_POSITION';
  /** OVER_TANK: more than the tank holds (CAPACITY) or than it could take given its level before (LEVEL, with `room`). */
  overBy?: 'CAPACITY' | 'LEVEL';
  /** What the truck's fuel level says, when it reports one around the time (decision 0276). */
  fill?: FuelFillFinding;
}

/**
 * SEEN: a refuel of the truck matched the purchase; NOT_SEEN: the level was read after it and no rise
 * followed (NO_FILL_SEEN); PENDING: the level is not yet read far enough after the purchase to tell;
 * TOO_SMALL: less than the smallest rise the level shows as a refuel (10 % of the tank).
 */
export interface FuelFillFinding {
  status: 'SEEN' | 'NOT_SEEN' | 'PENDING' | 'TOO_SMALL';
  /** The refuel (SEEN): its id and how much the level rose, litres. */
  eventId?: string;
  risenL?: number;
  /** The level before the purchase, litres: the refuel's, else the lowest reading within the window. */
  levelBeforeL?: number | null;
  /** LEVEL over tank: what the tank could take, litres. */
  roomL?: number;
}

const isoInstant = (label: string) =>
  z
    .string({ error: () => `${label} is a required field` })
    .trim()
    .min(1, `${label} is a required field`)
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), `${label} must be a date and time (ISO 8601)`)
    .refine((v) => inYears(v), yearsMessage(label));

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const fuelTransactionInputSchema = z
  .object({
    transactionId: z
      .string({ error: () => 'Transaction id is a required field' })
      .trim()
      .min(1, 'Transaction id is a required field')
      .max(64, 'Transaction id must be at most 64 characters'),
    cardNumberLast4: z
      .string()
      .trim()
      .regex(/^\d{4}$/, 'Card number (last 4) must be 4 digits')
      .nullable()
      .optional(),
    unitNumber: optionalText(40),
    driverName: optionalText(120),
    vehicleId: z
      .uuid({ error: () => 'Vehicle must be a vehicle id' })
      .nullable()
      .optional(),
    time: isoInstant('Time'),
    latitude: z
      .number({ error: () => 'Latitude must be a number' })
      .min(-90)
      .max(90)
      .nullable()
      .optional(),
    longitude: z
      .number({ error: () => 'Longitude must be a number' })
      .min(-180)
      .max(180)
      .nullable()
      .optional(),
    merchant: optionalText(120),
    city: optionalText(80),
    state: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => FUEL_JURISDICTION_CODES.has(v), FUEL_JURISDICTION_MESSAGE.replace('Jurisdiction', 'State or province'))
      .nullable()
      .optional(),
    fuelType: fuelTypeSchema,
    quantity: decimalNumber('Quantity', 3, 0.001, 100_000),
    unit: z.enum(VOLUME_UNITS, { error: () => 'Volume unit must be GAL or L' }),
    unitPrice: decimalNumber('Unit price', 3, 0, 100).nullable().optional(),
    total: decimalNumber('Total', 2, 0, 1_000_000).nullable().optional(),
    odometer: z
      .number({ error: () => 'Odometer must be a number' })
      .min(0)
      .max(10_000_000)
      .nullable()
      .optional(),
  })
  .refine((t) => (t.latitude == null) === (t.longitude == null), { path: ['longitude'], message: 'Give both latitude and longitude, or neither' })
  .refine((t) => t.state != null || t.latitude != null, { path: ['state'], message: 'State or province is needed when the station has no coordinates' });
export type FuelTransactionInput = z.input<typeof fuelTransactionInputSchema>;

export const MAX_FUEL_TRANSACTIONS_PER_REQUEST = 1000;
export const fuelTransactionBatchSchema = z.object({
  transactions: z
    .array(fuelTransactionInputSchema, { error: () => 'Transactions must be a list' })
    .min(1, 'Transactions must hold at least one transaction')
    .max(MAX_FUEL_TRANSACTIONS_PER_REQUEST, `At most ${MAX_FUEL_TRANSACTIONS_PER_REQUEST} transactions at a time`),
});

export const fuelTransactionBatchResultSchema = z.object({
  received: z.number().int(),
  created: z.number().int(),
  /** Transaction ids already recorded (or repeated in the batch): counted, not stored twice. */
  duplicates: z.number().int(),
  results: z.array(
    z.object({
      transactionId: z.string(),
      id: z.string(),
      duplicate: z.boolean(),
      verification: z.enum(FUEL_TRANSACTION_CHECKS),
    }),
  ),
});
export type FuelTransactionBatchResult = z.infer<typeof fuelTransactionBatchResultSchema>;

export const fuelTransactionSchema = z.object({
  id: z.string(),
  transactionId: z.string(),
  cardNumberLast4: z.string().nullable(),
  unitNumber: z.string().nullable(),
  driverName: z.string().nullable(),
  vehicleId: z.string().nullable(),
  /** The resolved truck's unit number. */
  vehicleUnitNumber: z.string().nullable(),
  driverId: z.string().nullable(),
  resolvedBy: z.enum(FUEL_RESOLVED_BY).nullable(),
  time: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  merchant: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  fuelType: z.string(),
  quantity: z.number(),
  unit: z.enum(VOLUME_UNITS),
  unitPrice: z.number().nullable(),
  total: z.number().nullable(),
  odometer: z.number().nullable(),
  source: z.enum(['API', 'FILE', 'DEMO']),
  purchaseId: z.string().nullable(),
  verification: z.enum(FUEL_TRANSACTION_CHECKS),
  /** The verification in words, in the organization's units. */
  reason: z.string(),
  distanceM: z.number().nullable(),
  truckPosition: z.object({ lat: z.number(), lon: z.number(), at: z.string(), place: z.string().nullable() }).nullable(),
  checkedAt: z.string(),
  review: z
    .object({
      decision: z.enum(FUEL_REVIEW_DECISIONS),
      note: z.string().nullable(),
      by: z.string().nullable(),
      at: z.string(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type FuelTransaction = z.infer<typeof fuelTransactionSchema>;
export const fuelTransactionPageSchema = pageSchema(fuelTransactionSchema).extend({
  /** Per verification, over the filters other than verification: the review queue's tabs. */
  counts: z.record(z.enum(FUEL_TRANSACTION_CHECKS), z.number().int()),
});
export type FuelTransactionPage = z.infer<typeof fuelTransactionPageSchema>;

const csvList = <T extends string>(values: readonly [T, ...T[]], label: string) =>
  z
    .string()
    .trim()
    .transform((v) => v.split(',').map((s) => s.trim().toUpperCase()))
    .pipe(z.array(z.enum(values, { error: () => `${label} must be one or more of ${values.join(', ')}` })))
    .optional();

export const fuelTransactionListQuery = pageQuerySchema.extend({
  /** One or more, comma-separated. */
  verification: csvList(FUEL_TRANSACTION_CHECKS, 'Verification'),
  /** PENDING (not reviewed), ACCEPTED or DISPUTED. */
  review: z.enum(['PENDING', 'ACCEPTED', 'DISPUTED'], { error: () => 'Review must be PENDING, ACCEPTED or DISPUTED' }).optional(),
  from: isoInstant('From').optional(),
  to: isoInstant('To').optional(),
  vehicleId: z.uuid().optional(),
});
export type FuelTransactionListQuery = z.input<typeof fuelTransactionListQuery>;
export const fuelTransactionIdParams = z.object({ orgId: z.uuid(), id: z.uuid() });

export const fuelTransactionReviewSchema = z
  .object({
    decision: z.enum(FUEL_REVIEW_DECISIONS, { error: () => 'Decision must be ACCEPTED or DISPUTED' }),
    note: z.string().trim().max(1000, 'Note must be at most 1000 characters').nullable().optional(),
  })
  .refine((r) => r.decision !== 'DISPUTED' || (r.note ?? '').length > 0, { path: ['note'], message: 'Say why in a note when disputing' });
export type FuelTransactionReviewInput = z.input<typeof fuelTransactionReviewSchema>;

// Cards given to a vehicle or a driver.

export const fuelCardAssignmentSchema = z.object({
  cardNumberLast4: z.string(),
  vehicleId: z.string().nullable(),
  vehicleUnitNumber: z.string().nullable(),
  driverId: z.string().nullable(),
  driverName: z.string().nullable(),
  updatedAt: z.string(),
});
export type FuelCardAssignment = z.infer<typeof fuelCardAssignmentSchema>;
export const fuelCardAssignmentListSchema = z.object({ content: z.array(fuelCardAssignmentSchema) });
export const fuelCardParams = z.object({ orgId: z.uuid(), last4: z.string().regex(/^\d{4}$/, 'Card number (last 4) must be 4 digits') });
export const fuelCardAssignmentInputSchema = z
  .object({ vehicleId: z.uuid().nullable().optional(), driverId: z.uuid().nullable().optional() })
  .refine((a) => (a.vehicleId == null) !== (a.driverId == null), { path: ['vehicleId'], message: 'Give the card to a vehicle or to a driver (one of them)' });

// File import: a card portal's export read through a column mapping. The built-in presets are our
// best knowledge of each portal's usual export headers; accounts differ, so a user adjusts any
// column and saves the result under a name for the organization.

export const FUEL_IMPORT_FIELDS = [
  'transactionId',
  'date',
  'time',
  'dateTime',
  'cardNumber',
  'unitNumber',
  'driverName',
  'merchant',
  'city',
  'state',
  'latitude',
  'longitude',
  'productCode',
  'quantity',
  'gallons',
  'litres',
  'unitPrice',
  'total',
  'odometer',
] as const;
export type FuelImportField = (typeof FUEL_IMPORT_FIELDS)[number];
export type FuelImportMapping = Partial<Record<FuelImportField, string>>;

export const FUEL_IMPORT_FIELD_LABELS: Record<FuelImportField, string> = {
  transactionId: 'Transaction id',
  date: 'Date',
  time: 'Time',
  dateTime: 'Date and time',
  cardNumber: 'Card number',
  unitNumber: 'Unit number',
  driverName: 'Driver name',
  merchant: 'Merchant',
  city: 'City',
  state: 'State or province',
  latitude: 'Station latitude',
  longitude: 'Station longitude',
  productCode: 'Product',
  quantity: 'Quantity (in the unit chosen)',
  gallons: 'Quantity in gallons',
  litres: 'Quantity in litres',
  unitPrice: 'Unit price',
  total: 'Total',
  odometer: 'Odometer',
};

export const FUEL_IMPORT_PRESETS = ['WEX', 'EFS', 'COMDATA', 'FLEET_ONE', 'CUSTOM'] as const;
export type FuelImportPreset = (typeof FUEL_IMPORT_PRESETS)[number];

/**
 * The card portals' usual export columns, as presets a user can adjust (and save adjusted): headers
 * vary with the account's report set-up, so none of these is taken as certain.
 */
export const FUEL_IMPORT_PRESET_COLUMNS: Record<
  Exclude<FuelImportPreset, 'CUSTOM'>,
  { label: string; dateFormat: (typeof DATE_FORMATS)[number]; columns: FuelImportMapping }
> = {
  WEX: {
    label: 'WEX',
    dateFormat: 'MDY',
    columns: {
      transactionId: 'Transaction Number',
      date: 'Transaction Date',
      time: 'Transaction Time',
      cardNumber: 'Card Number',
      unitNumber: 'Vehicle Number',
      driverName: 'Driver Name',
      merchant: 'Merchant Name',
      city: 'Merchant City',
      state: 'Merchant State',
      productCode: 'Product Description',
      gallons: 'Units',
      unitPrice: 'Unit Price',
      total: 'Gross Amount',
      odometer: 'Odometer',
    },
  },
  EFS: {
    label: 'EFS',
    dateFormat: 'YMD',
    columns: {
      transactionId: 'Invoice #',
      dateTime: 'Tran Date',
      cardNumber: 'Card #',
      unitNumber: 'Unit',
      driverName: 'Driver Name',
      merchant: 'Location Name',
      city: 'City',
      state: 'State/Prov',
      productCode: 'Item',
      quantity: 'Qty',
      unitPrice: 'Unit Price',
      total: 'Amt',
      odometer: 'Odometer',
    },
  },
  COMDATA: {
    label: 'Comdata',
    dateFormat: 'MDY',
    columns: {
      transactionId: 'Invoice',
      date: 'Trans Date',
      time: 'Trans Time',
      cardNumber: 'Card Number',
      unitNumber: 'Unit',
      driverName: 'Driver Name',
      merchant: 'Truck Stop Name',
      city: 'Truck Stop City',
      state: 'Truck Stop State',
      productCode: 'Product',
      gallons: 'Quantity',
      unitPrice: 'PPU',
      total: 'Total Amount',
      odometer: 'Hub Miles',
    },
  },
  FLEET_ONE: {
    label: 'Fleet One',
    dateFormat: 'MDY',
    columns: {
      transactionId: 'Transaction ID',
      date: 'Date',
      time: 'Time',
      cardNumber: 'Card Number',
      unitNumber: 'Unit Number',
      driverName: 'Driver',
      merchant: 'Site Name',
      city: 'Site City',
      state: 'Site State',
      productCode: 'Product',
      gallons: 'Gallons',
      unitPrice: 'Price Per Gallon',
      total: 'Total Amount',
      odometer: 'Odometer',
    },
  },
};

const mappingSchema = z.partialRecord(z.enum(FUEL_IMPORT_FIELDS), z.string().trim().max(120)).default({});

export const fuelImportBodySchema = z.object({
  csv: z
    .string({ error: () => 'CSV file is a required field' })
    .min(1, 'CSV file is a required field')
    .max(8_000_000, 'The file is too large (8 MB at most)'),
  /** A built-in preset, or the name of one the organization saved. */
  preset: z.string().trim().min(1).max(60).default('CUSTOM'),
  /** Field → the file's column header; replaces the preset's columns one by one. */
  mapping: mappingSchema,
  defaultUnit: z.enum(VOLUME_UNITS).optional(),
  dateFormat: z.enum(DATE_FORMATS).optional(),
  fuelType: fuelTypeSchema.default('DIESEL'),
  /** Times without an offset are read in this IANA zone (default the organization's). */
  timeZone: z.string().trim().max(64).optional(),
});
export type FuelImportBody = z.input<typeof fuelImportBodySchema>;

export const fuelImportResultSchema = z.object({
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  skippedRows: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })),
  skipped: z.array(z.object({ line: z.number().int(), productCode: z.string(), reason: z.string() })),
  mapping: z.record(z.string(), z.string()),
  headers: z.array(z.string()),
  unmappedColumns: z.array(z.string()),
  /** Only after an import: */
  created: z.number().int(),
  duplicates: z.number().int(),
  byVerification: z.record(z.string(), z.number().int()),
});
export type FuelImportResult = z.infer<typeof fuelImportResultSchema>;

export const fuelImportPresetSchema = z.object({
  name: z.string(),
  label: z.string(),
  builtIn: z.boolean(),
  base: z.enum(FUEL_IMPORT_PRESETS),
  mapping: z.record(z.string(), z.string()),
  dateFormat: z.enum(DATE_FORMATS).nullable(),
  defaultUnit: z.enum(VOLUME_UNITS),
});
export type FuelImportPresetInfo = z.infer<typeof fuelImportPresetSchema>;
export const fuelImportPresetListSchema = z.object({ content: z.array(fuelImportPresetSchema) });
export const fuelImportPresetParams = z.object({ orgId: z.uuid(), name: z.string().trim().min(1).max(60) });
export const fuelImportPresetInputSchema = z.object({
  base: z.enum(FUEL_IMPORT_PRESETS, { error: () => 'Base must be WEX, EFS, COMDATA, FLEET_ONE or CUSTOM' }),
  mapping: mappingSchema,
  dateFormat: z.enum(DATE_FORMATS).nullable().optional(),
  defaultUnit: z.enum(VOLUME_UNITS).default('GAL'),
});
export type FuelImportPresetInput = z.input<typeof fuelImportPresetInputSchema>;
