import { z } from 'zod';
import { decimalNumber } from './numbers.ts';
import { inYears, yearsMessage } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { FUEL_TYPE_CODES, FUEL_TYPES, type FuelType } from './registry-reference.ts';
import { requiredText } from './validation.ts';
import { FUEL_JURISDICTION_CODES, FUEL_JURISDICTION_MESSAGE } from './ifta-checks.ts';

// IFTA fuel tax (issue 17, reference section 5; docs/decisions/0120-0126). Distances travel in
// metres and volumes as entered (gallons or litres), like every other endpoint (decision 0086);
// the return itself is in miles and US gallons, as a US-based carrier files it.

defineLabels({
  quarter: 'Quarter',
  purchasedAt: 'Purchase time',
  quantity: 'Quantity',
  volumeUnit: 'Volume unit',
  pricePerUnit: 'Price per unit',
  totalAmount: 'Total amount',
  currency: 'Currency',
  vendor: 'Vendor',
  receiptNumber: 'Receipt number',
  taxPaid: 'Tax paid',
  jurisdiction: 'Jurisdiction',
  assetId: 'Vehicle',
  adjustmentKind: 'Kind',
  distanceM: 'Distance',
  reason: 'Reason',
  day: 'Day',
  filedAt: 'Filing date',
  mapping: 'Column mapping',
  preset: 'Preset',
  defaultUnit: 'Default volume unit',
  stationLat: 'Station latitude',
  stationLon: 'Station longitude',
  dateFormat: 'Date format',
  bulk: 'Bulk or split entry',
  keys: 'Items',
  reviewed: 'Reviewed',
});

/** `2026Q2`: the second quarter of 2026 (April to June). */
export const QUARTER_PATTERN = /^(\d{4})Q([1-4])$/;
export const quarterSchema = z
  .string({ error: () => 'Quarter is a required field' })
  .trim()
  .toUpperCase()
  .regex(QUARTER_PATTERN, 'Quarter must look like 2026Q2')
  .refine((v) => inYears(v), yearsMessage('Quarter'));

/** Calendar quarter of a UTC instant, `2026Q4`. */
export function quarterOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
}

/** First day (inclusive) and the day after the last (exclusive) of a quarter, as YYYY-MM-DD (UTC days). */
export function quarterDays(quarter: string): { from: string; to: string } {
  const m = QUARTER_PATTERN.exec(quarter);
  if (!m) throw new Error(`not a quarter: ${quarter}`);
  const year = Number(m[1]);
  const q = Number(m[2]);
  const from = new Date(Date.UTC(year, (q - 1) * 3, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(year, q * 3, 1)).toISOString().slice(0, 10);
  return { from, to };
}

/** The return's due date: the last day of the month after the quarter (Apr 30, Jul 31, Oct 31, Jan 31). */
export function quarterDueDate(quarter: string): string {
  const m = QUARTER_PATTERN.exec(quarter);
  if (!m) throw new Error(`not a quarter: ${quarter}`);
  const year = Number(m[1]);
  const q = Number(m[2]);
  // Day 0 of the month after next = the last day of the month after the quarter.
  return new Date(Date.UTC(year, q * 3 + 1, 0)).toISOString().slice(0, 10);
}

export const quarterLabel = (quarter: string): string => {
  const m = QUARTER_PATTERN.exec(quarter);
  return m ? `Q${m[2]} ${m[1]}` : quarter;
};

export const fuelTypeSchema = z.enum(FUEL_TYPE_CODES, { error: () => 'Fuel type is not an IFTA fuel type' });
export const fuelTypeLabel = (code: string): string => FUEL_TYPES.find(([c]) => c === code)?.[1] ?? code;

/** Postal code of a state or province, `unknown`, or MX. */
export const jurisdictionCodeSchema = z
  .string({ error: () => 'Jurisdiction is a required field' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Jurisdiction must be a two-letter state or province code');

// ---------------------------------------------------------------------------------------------
// Tax rates (a super administrator imports the official matrix; shared by every organization)

export const RATE_KINDS = ['BASE', 'SURCHARGE'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

export const iftaRateSchema = z.object({
  jurisdiction: z.string(),
  name: z.string(),
  country: z.enum(['US', 'CA']),
  fuelType: z.string(),
  kind: z.enum(RATE_KINDS),
  /** US$ per US gallon, 4 decimals; null where the matrix has no rate ("$-"). */
  usdPerGallon: z.number().nullable(),
  /** Can$ per litre, 4 decimals. */
  cadPerLitre: z.number().nullable(),
});
export type IftaRate = z.infer<typeof iftaRateSchema>;

export const iftaRateMatrixSchema = z.object({
  quarter: z.string(),
  /** Where the file came from, as the importer said (URL or a note). */
  source: z.string().nullable(),
  sha256: z.string().nullable(),
  importedAt: z.string().nullable(),
  importedBy: z.string().nullable(),
  rates: z.array(iftaRateSchema),
});
export type IftaRateMatrix = z.infer<typeof iftaRateMatrixSchema>;

export const iftaRatesQuery = z.object({ quarter: quarterSchema });

export const iftaRateImportBodySchema = z.object({
  csv: z
    .string({ error: () => 'CSV file is a required field' })
    .min(1, 'CSV file is a required field')
    .max(2_000_000, 'The file is too large (2 MB at most)'),
  /** Must match the quarter the file names in its first line, when given. */
  quarter: quarterSchema.optional(),
  source: z.string().trim().max(500).optional(),
});

export const iftaRateImportPreviewSchema = z.object({
  quarter: z.string(),
  jurisdictions: z.number().int(),
  rates: z.number().int(),
  surcharges: z.array(z.object({ jurisdiction: z.string(), fuelType: z.string(), usdPerGallon: z.number().nullable() })),
  /** Names in the file that are not IFTA member jurisdictions (skipped). */
  skipped: z.array(z.string()),
  /** Rows the parser could not read: line (1-based), column and why. */
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })),
  /** Members without a row in the file. */
  missing: z.array(z.string()),
  /** Already imported for that quarter (importing replaces it). */
  replaces: z.boolean(),
  sample: z.array(iftaRateSchema),
});
export type IftaRateImportPreview = z.infer<typeof iftaRateImportPreviewSchema>;
export const iftaRateImportResultSchema = iftaRateImportPreviewSchema.extend({ imported: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Filters (the spec's settings/ifta-filters)

export const iftaFiltersQuery = z.object({ organizationId: z.uuid().optional() });
export const iftaFiltersSchema = z.object({
  currentQuarter: z.string(),
  quarters: z.array(
    z.object({
      quarter: z.string(),
      label: z.string(),
      hasMiles: z.boolean(),
      hasPurchases: z.boolean(),
      hasRates: z.boolean(),
      /** Version of the latest filing, null when the quarter was never closed. */
      filedVersion: z.number().int().nullable(),
    }),
  ),
  fuelTypes: z.array(z.object({ code: z.string(), label: z.string(), inUse: z.boolean() })),
  jurisdictions: z.array(z.object({ code: z.string(), name: z.string(), country: z.string(), member: z.boolean() })),
});
export type IftaFilters = z.infer<typeof iftaFiltersSchema>;

// ---------------------------------------------------------------------------------------------
// Fuel purchases

export const VOLUME_UNITS = ['GAL', 'L'] as const;
export type VolumeUnit = (typeof VOLUME_UNITS)[number];
export const CURRENCIES = ['USD', 'CAD'] as const;

/** A decimal with at most `digits` decimals (kept exact: stored as an integer of 10^-digits). */
const decimal = decimalNumber;

const isoInstant = (label: string) =>
  z
    .string({ error: () => `${label} is a required field` })
    .trim()
    .min(1, `${label} is a required field`)
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), `${label} must be a date and time (ISO 8601)`)
    .refine((v) => inYears(v), yearsMessage(label));

/** Where fuel was bought: an IFTA member or a known non-member (AK, HI, DC, PR, YT, NT, NU, MX), as the CSV import reads it. */
export const fuelJurisdictionSchema = jurisdictionCodeSchema.refine((v) => FUEL_JURISDICTION_CODES.has(v), FUEL_JURISDICTION_MESSAGE);

export const fuelPurchaseInputSchema = z.object({
  purchasedAt: isoInstant('Purchase time'),
  assetId: z.uuid({ error: () => 'Vehicle is a required field' }),
  jurisdiction: fuelJurisdictionSchema,
  fuelType: fuelTypeSchema.default('DIESEL'),
  quantity: decimal('Quantity', 3, 0.001, 100_000),
  volumeUnit: z.enum(VOLUME_UNITS, { error: () => 'Volume unit must be GAL or L' }).default('GAL'),
  pricePerUnit: decimal('Price per unit', 3, 0, 100).nullable().optional(),
  totalAmount: decimal('Total amount', 2, 0, 1_000_000).nullable().optional(),
  currency: z.enum(CURRENCIES, { error: () => 'Currency must be USD or CAD' }).default('USD'),
  vendor: z.string().trim().max(120).nullable().optional(),
  city: z.string().trim().max(80).nullable().optional(),
  receiptNumber: requiredText('Receipt number', 64),
  taxPaid: z.boolean().default(true),
  /** Where the station is, when known (a purchase far from the vehicle is flagged). */
  stationLat: z.number().min(-90).max(90).nullable().optional(),
  stationLon: z.number().min(-180).max(180).nullable().optional(),
  notes: z.string().trim().max(500).nullable().optional(),
  /**
   * Confirms a quantity above the vehicle's tank capacity: a bulk withdrawal or a receipt split
   * later. Without it such a quantity is refused; with it the purchase is listed under To review.
   */
  bulk: z.boolean({ error: () => 'Bulk or split entry must be true or false' }).default(false),
});
export type FuelPurchaseInput = z.input<typeof fuelPurchaseInputSchema>;

/** How a purchase compares with where its vehicle was at that time. */
export const LOCATION_CHECKS = ['OK', 'FAR', 'OTHER_JURISDICTION', 'NO_POSITION'] as const;
export type LocationCheck = (typeof LOCATION_CHECKS)[number];

export const fuelPurchaseSchema = z.object({
  id: z.string(),
  purchasedAt: z.string(),
  assetId: z.string(),
  unitNumber: z.string(),
  jurisdiction: z.string(),
  fuelType: z.string(),
  quantity: z.number(),
  volumeUnit: z.enum(VOLUME_UNITS),
  /** The quantity in US gallons (3 decimals). */
  gallons: z.number(),
  pricePerUnit: z.number().nullable(),
  totalAmount: z.number().nullable(),
  currency: z.enum(CURRENCIES),
  vendor: z.string().nullable(),
  city: z.string().nullable(),
  receiptNumber: z.string(),
  taxPaid: z.boolean(),
  stationLat: z.number().nullable(),
  stationLon: z.number().nullable(),
  notes: z.string().nullable(),
  source: z.enum(['MANUAL', 'CSV', 'DEMO', 'CARD']),
  locationCheck: z.enum(LOCATION_CHECKS),
  /** Metres between the station (or its jurisdiction) and the vehicle at purchase time. */
  locationDistanceM: z.number().nullable(),
  bulk: z.boolean(),
  /** Price per unit × quantity misses the total by more than 1 % (flagged for review). */
  priceMismatch: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FuelPurchase = z.infer<typeof fuelPurchaseSchema>;
export const fuelPurchasePageSchema = pageSchema(fuelPurchaseSchema);

export const fuelPurchaseListQuery = pageQuerySchema.extend({
  quarter: quarterSchema.optional(),
  assetId: z.uuid().optional(),
  jurisdiction: jurisdictionCodeSchema.optional(),
  fuelType: fuelTypeSchema.optional(),
  /** Only purchases under To review (bought away from the vehicle, price × quantity off the total, bulk entry above the tank), or only the others. */
  flagged: z.enum(['true', 'false']).optional(),
});
export const fuelPurchaseIdParams = z.object({ orgId: z.uuid(), id: z.uuid() });

// Fuel-card CSV import: the column mapping is chosen at upload (WEX, Comdata and EFS differ).

/** Fields a fuel-card column can fill. */
export const FUEL_CSV_FIELDS = [
  'date',
  'time',
  'dateTime',
  'unitNumber',
  'cardNumber',
  'jurisdiction',
  'city',
  'vendor',
  'productCode',
  'quantity',
  'gallons',
  'litres',
  'pricePerUnit',
  'totalAmount',
  'receiptNumber',
  'stationLat',
  'stationLon',
  'taxPaid',
  'currency',
  'bulk',
] as const;
export type FuelCsvField = (typeof FUEL_CSV_FIELDS)[number];

export const FUEL_CSV_FIELD_LABELS: Record<FuelCsvField, string> = {
  date: 'Date',
  time: 'Time',
  dateTime: 'Date and time',
  unitNumber: 'Unit number',
  cardNumber: 'Card number',
  jurisdiction: 'State or province',
  city: 'City',
  vendor: 'Merchant',
  productCode: 'Product code',
  quantity: 'Quantity (in the unit below)',
  gallons: 'Quantity in gallons',
  litres: 'Quantity in litres',
  pricePerUnit: 'Price per unit',
  totalAmount: 'Total amount',
  receiptNumber: 'Receipt or transaction number',
  stationLat: 'Station latitude',
  stationLon: 'Station longitude',
  taxPaid: 'Tax paid (Y/N)',
  currency: 'Currency',
  bulk: 'Bulk or split entry (Y/N)',
};

export const FUEL_CSV_PRESETS = ['WEX', 'COMDATA', 'EFS', 'CUSTOM'] as const;
export type FuelCsvPreset = (typeof FUEL_CSV_PRESETS)[number];

/**
 * The export layouts of the three big fuel cards as we know them (headers differ by account set-up;
 * a preset names the usual header and the upload can still change any column).
 */
export const FUEL_CSV_PRESET_COLUMNS: Record<
  Exclude<FuelCsvPreset, 'CUSTOM'>,
  { label: string; dateFormat: DateFormat; columns: Partial<Record<FuelCsvField, string>> }
> = {
  WEX: {
    label: 'WEX',
    dateFormat: 'MDY',
    columns: {
      date: 'Transaction Date',
      time: 'Transaction Time',
      unitNumber: 'Vehicle Number',
      cardNumber: 'Card Number',
      vendor: 'Merchant Name',
      city: 'Merchant City',
      jurisdiction: 'Merchant State',
      productCode: 'Product Description',
      gallons: 'Units',
      pricePerUnit: 'Unit Price',
      totalAmount: 'Gross Amount',
      receiptNumber: 'Transaction Number',
    },
  },
  COMDATA: {
    label: 'Comdata',
    dateFormat: 'MDY',
    columns: {
      date: 'Trans Date',
      time: 'Trans Time',
      unitNumber: 'Unit',
      cardNumber: 'Card Number',
      vendor: 'Truck Stop Name',
      city: 'Truck Stop City',
      jurisdiction: 'Truck Stop State',
      productCode: 'Product',
      gallons: 'Quantity',
      pricePerUnit: 'PPU',
      totalAmount: 'Total Amount',
      receiptNumber: 'Invoice',
    },
  },
  EFS: {
    label: 'EFS',
    dateFormat: 'YMD',
    columns: {
      dateTime: 'Tran Date',
      unitNumber: 'Unit',
      cardNumber: 'Card #',
      vendor: 'Location Name',
      city: 'City',
      jurisdiction: 'State/Prov',
      productCode: 'Item',
      quantity: 'Qty',
      pricePerUnit: 'Unit Price',
      totalAmount: 'Amt',
      receiptNumber: 'Invoice #',
      currency: 'Currency',
    },
  },
};

export const DATE_FORMATS = ['MDY', 'DMY', 'YMD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export const fuelCsvImportBodySchema = z.object({
  csv: z
    .string({ error: () => 'CSV file is a required field' })
    .min(1, 'CSV file is a required field')
    .max(8_000_000, 'The file is too large (8 MB at most)'),
  preset: z.enum(FUEL_CSV_PRESETS, { error: () => 'Preset must be WEX, COMDATA, EFS or CUSTOM' }).default('CUSTOM'),
  /** Field → the file's column header. With a preset, these replace its columns one by one. */
  mapping: z.partialRecord(z.enum(FUEL_CSV_FIELDS), z.string().trim().max(120)).default({}),
  /** Unit of a `quantity` column (a `gallons` or `litres` column says its own). */
  defaultUnit: z.enum(VOLUME_UNITS).default('GAL'),
  dateFormat: z.enum(DATE_FORMATS).optional(),
  fuelType: fuelTypeSchema.default('DIESEL'),
  /** Times without an offset are read in this IANA zone (default the organization's). */
  timeZone: z.string().trim().max(64).optional(),
});
export type FuelCsvImportBody = z.input<typeof fuelCsvImportBodySchema>;

export const fuelCsvPreviewSchema = z.object({
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  /** Product lines that are not IFTA-taxable fuel (reefer, DEF, oil, cash advances, fees): listed, not imported. */
  skippedRows: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })),
  skipped: z.array(z.object({ line: z.number().int(), productCode: z.string(), reason: z.string() })),
  /** Valid rows imported but listed under To review: the vehicle elsewhere, price × quantity off the total, a bulk entry above the tank. */
  flagged: z.array(
    z.object({
      line: z.number().int(),
      receiptNumber: z.string(),
      check: z.enum(LOCATION_CHECKS),
      distanceM: z.number().nullable(),
      priceMismatch: z.boolean(),
      reason: z.string(),
    }),
  ),
  /** The mapping used (field → column), and the file's columns no field reads. */
  mapping: z.record(z.string(), z.string()),
  headers: z.array(z.string()),
  unmappedColumns: z.array(z.string()),
  sample: z.array(
    z.object({
      line: z.number().int(),
      purchasedAt: z.string(),
      unitNumber: z.string(),
      jurisdiction: z.string(),
      gallons: z.number(),
      quantity: z.number(),
      volumeUnit: z.enum(VOLUME_UNITS),
      totalAmount: z.number().nullable(),
      receiptNumber: z.string(),
      vendor: z.string().nullable(),
      check: z.enum(LOCATION_CHECKS),
    }),
  ),
});
export type FuelCsvPreview = z.infer<typeof fuelCsvPreviewSchema>;
export const fuelCsvResultSchema = fuelCsvPreviewSchema.extend({ imported: z.number().int() });
export type FuelCsvResult = z.infer<typeof fuelCsvResultSchema>;

// ---------------------------------------------------------------------------------------------
// Adjustments

/**
 * MISSING_TRIP adds miles (total and taxable); CORRECTION adds or removes miles (signed);
 * OFF_HIGHWAY and TRIP_PERMIT mark miles already recorded as exempt (taxable only, total unchanged).
 */
export const ADJUSTMENT_KINDS = ['MISSING_TRIP', 'CORRECTION', 'OFF_HIGHWAY', 'TRIP_PERMIT'] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];
export const ADJUSTMENT_KIND_LABELS: Record<AdjustmentKind, string> = {
  MISSING_TRIP: 'Missing trip (adds miles)',
  CORRECTION: 'Correction (adds or removes miles)',
  OFF_HIGHWAY: 'Off-highway miles (exempt)',
  TRIP_PERMIT: 'Trip-permit miles (exempt)',
};

const dayString = z
  .string({ error: () => 'Day is a required field' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Day must be a date (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, 'Day must be a real calendar date')
  .refine((v) => inYears(v), yearsMessage('Day'));

export const iftaAdjustmentInputSchema = z
  .object({
    day: dayString,
    assetId: z.uuid().nullable().optional(),
    jurisdiction: jurisdictionCodeSchema,
    adjustmentKind: z.enum(ADJUSTMENT_KINDS, { error: () => 'Kind must be MISSING_TRIP, CORRECTION, OFF_HIGHWAY or TRIP_PERMIT' }),
    /** Metres; negative only for a CORRECTION. */
    distanceM: z
      .number({ error: () => 'Distance must be a number' })
      .min(-10_000_000, 'Distance is too large')
      .max(10_000_000, 'Distance is too large'),
    reason: requiredText('Reason', 500),
  })
  .superRefine((v, ctx) => {
    if (v.distanceM === 0) ctx.addIssue({ code: 'custom', path: ['distanceM'], message: 'Distance must not be zero' });
    else if (v.distanceM < 0 && v.adjustmentKind !== 'CORRECTION')
      ctx.addIssue({ code: 'custom', path: ['distanceM'], message: 'Distance may be negative only for a correction' });
  });
export type IftaAdjustmentInput = z.input<typeof iftaAdjustmentInputSchema>;

export const iftaAdjustmentSchema = z.object({
  id: z.string(),
  quarter: z.string(),
  day: z.string(),
  assetId: z.string().nullable(),
  unitNumber: z.string().nullable(),
  jurisdiction: z.string(),
  adjustmentKind: z.enum(ADJUSTMENT_KINDS),
  distanceM: z.number(),
  reason: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type IftaAdjustment = z.infer<typeof iftaAdjustmentSchema>;
export const iftaAdjustmentPageSchema = pageSchema(iftaAdjustmentSchema);
export const iftaAdjustmentListQuery = pageQuerySchema.extend({ quarter: quarterSchema.optional(), assetId: z.uuid().optional() });
export const iftaAdjustmentIdParams = z.object({ orgId: z.uuid(), id: z.uuid() });

// ---------------------------------------------------------------------------------------------
// The return

export const iftaReportQuery = z.object({
  quarter: quarterSchema,
  fuelType: fuelTypeSchema.default('DIESEL'),
  assetId: z.uuid().optional(),
  groupId: z.uuid().optional(),
});
export type IftaReportQuery = z.input<typeof iftaReportQuery>;

export const iftaReturnRowSchema = z.object({
  /** Postal code ("IL", "ON"). */
  jurisdiction: z.string(),
  name: z.string(),
  country: z.string(),
  fuelType: z.string(),
  totalMiles: z.number().int(),
  taxableMiles: z.number().int(),
  taxableGallons: z.number().int(),
  taxPaidGallons: z.number().int(),
  netTaxableGallons: z.number().int(),
  /** US$ per US gallon; null where the matrix has none (taxed at 0). */
  rate: z.number().nullable(),
  /** Tax due (positive) or credit (negative), US$. */
  tax: z.number(),
  surchargeRate: z.number().nullable(),
  surcharge: z.number(),
  interest: z.number(),
  total: z.number(),
});
export type IftaReturnRow = z.infer<typeof iftaReturnRowSchema>;

export const iftaReturnTotalsSchema = z.object({
  /** Every mile, member jurisdictions or not (AK, DC, Mexico, unknown places, adjustments). */
  totalMiles: z.number().int(),
  /** Miles outside member jurisdictions, included in totalMiles. */
  nonMemberMiles: z.number().int(),
  totalGallons: z.number().int(),
  /** Fleet miles per gallon, 2 decimals; null without fuel. */
  mpg: z.number().nullable(),
  taxableMiles: z.number().int(),
  taxableGallons: z.number().int(),
  taxPaidGallons: z.number().int(),
  tax: z.number(),
  surcharge: z.number(),
  interest: z.number(),
  /** Late filing: the greater of $50 or 10 % of the net tax due. */
  penalty: z.number(),
  total: z.number(),
});
export type IftaReturnTotals = z.infer<typeof iftaReturnTotalsSchema>;

export const iftaVehicleRowSchema = z.object({
  assetId: z.string(),
  unitNumber: z.string(),
  totalMiles: z.number().int(),
  gallons: z.number().int(),
  mpg: z.number().nullable(),
  jurisdictions: z.array(z.object({ jurisdiction: z.string(), miles: z.number().int() })),
  /** Odometer travel over the quarter's days with readings (miles), and GPS + odometer miles of the same days. */
  odometerMiles: z.number().int().nullable(),
  recordedMiles: z.number().int(),
});
export type IftaVehicleRow = z.infer<typeof iftaVehicleRowSchema>;

export const IFTA_FLAG_KINDS = [
  'UNKNOWN_PLACE',
  'INTERPOLATED',
  'ODOMETER_MISMATCH',
  'SUSPICIOUS_PURCHASE',
  'PRICE_MISMATCH',
  'BULK_PURCHASE',
  'IMPOSSIBLE_SPEED',
  'NO_PURCHASES',
  'RATES_FALLBACK',
  'UNQUALIFIED_FUEL',
] as const;
export type IftaFlagKind = (typeof IFTA_FLAG_KINDS)[number];

export const iftaFlagSchema = z.object({
  kind: z.enum(IFTA_FLAG_KINDS),
  assetId: z.string().nullable(),
  unitNumber: z.string().nullable(),
  day: z.string().nullable(),
  jurisdiction: z.string().nullable(),
  /** Miles concerned (unknown, interpolated, odometer difference), when it is about distance. */
  miles: z.number().nullable(),
  message: z.string(),
  /** The purchase concerned. */
  purchaseId: z.string().nullable(),
  /**
   * Names the item as it is now: marking it reviewed keeps this key, so an item whose facts change
   * (a purchase edited, other rates used) comes back unreviewed.
   */
  key: z.string(),
  /** Who marked it reviewed and when; null while it waits. */
  reviewed: z.object({ at: z.string(), by: z.string().nullable(), note: z.string().nullable() }).nullable(),
});
export type IftaFlag = z.infer<typeof iftaFlagSchema>;

export const iftaReturnSchema = z.object({
  totals: iftaReturnTotalsSchema,
  rows: z.array(iftaReturnRowSchema),
});
export type IftaReturn = z.infer<typeof iftaReturnSchema>;

export const iftaFilingSummarySchema = z.object({
  version: z.number().int(),
  filedAt: z.string(),
  filedBy: z.string().nullable(),
  amended: z.boolean(),
});

export const iftaReportSchema = z.object({
  quarter: z.string(),
  fuelType: z.string(),
  from: z.string(),
  to: z.string(),
  dueDate: z.string(),
  /** The day the interest is counted to: the filing's day, or today for an open quarter. */
  asOf: z.string(),
  /** The quarter whose rates were used (an earlier one when this quarter's matrix is not imported). */
  ratesQuarter: z.string().nullable(),
  licensee: z.object({ name: z.string(), dotNumber: z.string().nullable(), baseJurisdiction: z.string().nullable() }),
  scope: z.object({ assetId: z.string().nullable(), groupId: z.string().nullable(), vehicles: z.number().int() }),
  ...iftaReturnSchema.shape,
  vehicles: z.array(iftaVehicleRowSchema),
  flags: z.array(iftaFlagSchema),
  /** Items to review listed in flags and how many of them nobody has marked reviewed yet. */
  review: z.object({ items: z.number().int(), unreviewed: z.number().int() }),
  /**
   * The quarter's fuel-card transactions of this fuel type that are IFTA purchases (issue 68):
   * `unverified` ones (not verified against the truck, nor accepted by a reviewer) still count in the
   * return; `disputed` ones too, until someone removes the purchase.
   */
  cardTransactions: z.object({ total: z.number().int(), unverified: z.number().int(), disputed: z.number().int() }),
  /**
   * Jumps flagged as impossible (faster than 90 mph) that nobody has accepted yet (marked reviewed):
   * their miles are left out of every total of the return until then (issue 46). Whole miles.
   */
  unacceptedJumps: z.object({
    days: z.number().int(),
    miles: z.number().int(),
    jurisdictions: z.array(z.object({ jurisdiction: z.string(), miles: z.number().int() })),
  }),
  /** The organization's unit system: the messages use it for what is not an IFTA unit (station distance, speed). */
  units: z.enum(['IMPERIAL', 'METRIC']),
  /** The zone the quarter's days are cut in: the carrier's base jurisdiction's (decision 0189). */
  timeZone: z.string(),
  /** The latest filing of the quarter (null while open) and, when the figures moved since, the differences. */
  filing: iftaFilingSummarySchema.nullable(),
  filed: iftaReturnSchema.nullable(),
  amendment: z
    .object({
      rows: z.array(
        z.object({
          jurisdiction: z.string(),
          filedTotal: z.number(),
          currentTotal: z.number(),
          difference: z.number(),
          filedMiles: z.number().int(),
          currentMiles: z.number().int(),
        }),
      ),
      difference: z.number(),
    })
    .nullable(),
  boundaryDataset: z.string(),
});
export type IftaReport = z.infer<typeof iftaReportSchema>;

/** Marks items of a quarter's return reviewed (or not reviewed again). */
export const iftaReviewInputSchema = z.object({
  quarter: quarterSchema,
  fuelType: fuelTypeSchema.default('DIESEL'),
  keys: z
    .array(z.string().trim().min(1).max(300), { error: () => 'Items must be a list of item keys' })
    .min(1, 'Items must name at least one item')
    .max(1000, 'At most 1,000 items at a time'),
  reviewed: z.boolean({ error: () => 'Reviewed must be true or false' }).default(true),
  note: z.string().trim().max(500).nullable().optional(),
});
export type IftaReviewInput = z.input<typeof iftaReviewInputSchema>;
export const iftaReviewResultSchema = z.object({ changed: z.number().int(), review: z.object({ items: z.number().int(), unreviewed: z.number().int() }) });
export type IftaReviewResult = z.infer<typeof iftaReviewResultSchema>;

export const iftaExportQuery = iftaReportQuery.extend({ format: z.enum(['csv', 'pdf'], { error: () => 'format must be csv or pdf' }).default('csv') });

export const iftaFilingInputSchema = z.object({
  quarter: quarterSchema,
  /** Defaults to today; interest and penalty are counted to it. */
  filedAt: dayString.optional(),
});
export const iftaFilingSchema = iftaFilingSummarySchema.extend({
  quarter: z.string(),
  returns: z.array(iftaReturnSchema.extend({ fuelType: z.string() })),
});
export type IftaFiling = z.infer<typeof iftaFilingSchema>;
export const iftaFilingListSchema = z.array(iftaFilingSchema);

// Distance records (the auditor's individual vehicle mileage records)

export const iftaDistanceQuery = pageQuerySchema.extend({ quarter: quarterSchema, assetId: z.uuid().optional() });
export const iftaCrossingSchema = z.object({
  time: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  odometerM: z.number().nullable(),
  from: z.string(),
  to: z.string(),
});
export const iftaDistanceDaySchema = z.object({
  assetId: z.string(),
  unitNumber: z.string(),
  day: z.string(),
  firstFixAt: z.string().nullable(),
  lastFixAt: z.string().nullable(),
  odometerStartM: z.number().nullable(),
  odometerEndM: z.number().nullable(),
  metres: z.number(),
  jurisdictions: z.array(z.object({ jurisdiction: z.string(), metres: z.number(), interpolatedMetres: z.number() })),
  crossings: z.array(iftaCrossingSchema),
  /** Some of the day's positions were imported from another system's GPS history (not recorded by a device here). */
  imported: z.boolean(),
});
export type IftaDistanceDay = z.infer<typeof iftaDistanceDaySchema>;
export const iftaDistancePageSchema = pageSchema(iftaDistanceDaySchema);

export type { FuelType };
