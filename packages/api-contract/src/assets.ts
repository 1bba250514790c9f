import { z } from 'zod';
import { zeroOrAtLeast } from './numbers.ts';
import { FUEL_TYPE_CODES, TRAILER_TYPE_CODES } from './registry-reference.ts';
import {
  assetRef,
  driverRef,
  entityRef,
  gatewayRef,
  optionalStateCode,
  optionalText,
  optionalUpper,
  recordStatus,
  registryListQuery,
} from './registry-fields.ts';
import { pageSchema } from './paging.ts';
import { vinProblem } from './vin.ts';
import { defineLabels } from './field-words.ts';
import { jsonValueSchema } from './json.ts';
import { requiredText } from './validation.ts';

defineLabels({
  type: 'Type',
  unitNumber: 'Unit number',
  vin: 'VIN',
  make: 'Make',
  model: 'Model',
  year: 'Year',
  plate: 'Plate',
  plateState: 'Plate state',
  fuelType: 'Fuel type',
  iftaQualified: 'IFTA qualified',
  odometerKm: 'Odometer (km)',
  trailerType: 'Trailer type',
  lengthM: 'Length (m)',
  tankCapacityL: 'Tank capacity (L)',
});

export const ASSET_TYPES = ['VEHICLE', 'TRAILER'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

const maxYear = () => new Date().getUTCFullYear() + 2;

const vinField = z
  .string()
  .trim()
  .toUpperCase()
  .superRefine((v, ctx) => {
    const problem = vinProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const optionalVin = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v === '' || v == null ? null : v.toUpperCase()))
  .superRefine((v, ctx) => {
    const problem = v === null ? null : vinProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

// Numbers are JSON numbers: text and booleans are refused, not coerced (`""` was stored as 0, `true` as 1).
const year = z
  .number({ error: () => 'Year must be a number' })
  .int('Year must be a whole number')
  .min(1950, 'Year must be 1950 or later')
  .refine((y) => y <= maxYear(), 'Year cannot be more than a year ahead')
  .nullish()
  .transform((v) => v ?? null);

/** A number from 0 to `max`, given back to `step` (a smaller one but 0 would come back as 0). */
const nonNegative = (label: string, max: number, step: number) =>
  z
    .number({ error: () => `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} is too large`)
    .refine(zeroOrAtLeast(step), `${label} must be 0 or at least ${step}`)
    .nullish()
    .transform((v) => v ?? null);

const unitNumber = requiredText('Unit number', 32).regex(/^[A-Za-z0-9][A-Za-z0-9 ._#/-]*$/, 'Unit number may use letters, digits, spaces and . _ # / -');

/** Add and edit form of a vehicle (power unit). */
export const vehicleInputSchema = z.object({
  type: z.literal('VEHICLE'),
  unitNumber,
  vin: vinField,
  make: optionalText(60),
  model: optionalText(60),
  year,
  plate: optionalUpper(16),
  plateState: optionalStateCode('Plate state'),
  fuelType: z.enum(FUEL_TYPE_CODES, { error: () => 'Fuel type is not an IFTA fuel type' }).default('DIESEL'),
  iftaQualified: z.boolean().default(true),
  /** Odometer in kilometres (stored in metres; shown per the organization's units). */
  odometerKm: nonNegative('Odometer', 10_000_000, 0.1),
  /**
   * Fuel tank capacity in litres (shown per the organization's units); unset means 300 US gallons.
   * A fuel purchase above it is refused unless marked as a bulk or split entry (issue 28).
   */
  tankCapacityL: z
    .number({ error: () => 'Tank capacity must be a number' })
    .positive('Tank capacity must be more than zero')
    .max(10_000, 'Tank capacity is too large')
    .refine(zeroOrAtLeast(0.001), 'Tank capacity must be at least 0.001')
    .nullish()
    .transform((v) => (v == null ? null : Math.round(v * 1000) / 1000)),
  status: recordStatus.default('ACTIVE'),
  notes: optionalText(2000),
});
export type VehicleInput = z.input<typeof vehicleInputSchema>;

/** Add and edit form of a trailer. */
export const trailerInputSchema = z.object({
  type: z.literal('TRAILER'),
  unitNumber,
  vin: optionalVin,
  make: optionalText(60),
  model: optionalText(60),
  year,
  trailerType: z.enum(TRAILER_TYPE_CODES, { error: () => 'Trailer type must be one of DRY_VAN, REEFER, FLATBED, TANKER, OTHER' }).default('DRY_VAN'),
  /** Length in metres (a 53 ft trailer is 16.15 m). */
  lengthM: nonNegative('Length', 40, 0.01),
  plate: optionalUpper(16),
  plateState: optionalStateCode('Plate state'),
  status: recordStatus.default('ACTIVE'),
  notes: optionalText(2000),
});
export type TrailerInput = z.input<typeof trailerInputSchema>;

export const assetInputSchema = z.discriminatedUnion('type', [vehicleInputSchema, trailerInputSchema], {
  error: () => 'Type must be VEHICLE or TRAILER',
});
export type AssetInput = z.output<typeof assetInputSchema>;

export const assetSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  type: z.enum(ASSET_TYPES),
  unitNumber: z.string(),
  vin: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  year: z.number().int().nullable(),
  plate: z.string().nullable(),
  plateState: z.string().nullable(),
  fuelType: z.string().nullable(),
  iftaQualified: z.boolean(),
  odometerKm: z.number().nullable(),
  /** Vehicles: fuel tank capacity in litres; null = not set (300 US gallons is assumed). */
  tankCapacityL: z.number().nullable(),
  trailerType: z.string().nullable(),
  lengthM: z.number().nullable(),
  status: recordStatus,
  notes: z.string().nullable(),
  /** Vehicles: the driver assigned now. */
  currentDriver: driverRef.nullable(),
  /** Vehicles: the device paired now. */
  device: gatewayRef.nullable(),
  /** Vehicles: trailers attached now. */
  trailers: z.array(assetRef),
  /** Trailers: the vehicle it is attached to now. */
  attachedTo: assetRef.nullable(),
  groups: z.array(entityRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Asset = z.infer<typeof assetSchema>;

const historyEntry = z.object({ from: z.string(), to: z.string().nullable() });

export const activityEntrySchema = z.object({
  id: z.number(),
  action: z.string(),
  entityType: z.string(),
  actorEmail: z.string().nullable(),
  createdAt: z.string(),
  /** The record before and after the change, as the activity log keeps it (null when nothing was kept). */
  changes: z.object({ before: jsonValueSchema.optional(), after: jsonValueSchema.optional() }).nullable(),
});

/** Vehicle or trailer detail view: the record, its history and recent activity. */
/** Where a vehicle's odometer comes from: its engine (ECM), its device's GPS odometer, or the one entered on it. */
export const ODOMETER_SOURCES = ['ENGINE', 'GPS', 'ENTERED'] as const;
/**
 * The vehicle's odometer now (issue 66), the one its log, ELD file, inspections and maintenance
 * schedules read: the newest fix's (the engine's where it reports one), else `odometerKm`, the one
 * entered. Null for a trailer and for a vehicle with neither.
 */
const currentOdometerSchema = z.object({ km: z.number(), source: z.enum(ODOMETER_SOURCES), at: z.string().nullable() }).nullable();

export const assetDetailSchema = assetSchema.extend({
  currentOdometer: currentOdometerSchema,
  driverHistory: z.array(historyEntry.extend({ driver: driverRef })),
  trailerHistory: z.array(historyEntry.extend({ asset: assetRef })),
  deviceHistory: z.array(historyEntry.extend({ device: gatewayRef })),
  recentActivity: z.array(activityEntrySchema),
});
export type AssetDetail = z.infer<typeof assetDetailSchema>;

/** A list row: the record and the vehicle's odometer now, the same figure its page shows. */
export const assetListItemSchema = assetSchema.extend({ currentOdometer: currentOdometerSchema });
export type AssetListItem = z.infer<typeof assetListItemSchema>;
export const assetPageSchema = pageSchema(assetListItemSchema);

export const ASSET_SORT_FIELDS = ['unitNumber', 'vin', 'make', 'model', 'year', 'plate', 'status', 'type', 'createdAt', 'updatedAt'] as const;

/** `GET organizations/{orgId}/assets`: size defaults to 15 (spec section 9). */
export const assetListQuery = registryListQuery.extend({
  type: z.enum(ASSET_TYPES, { error: () => 'type must be VEHICLE or TRAILER' }).optional(),
});
export type AssetListQuery = z.input<typeof assetListQuery>;

export const assetIdParams = z.object({ orgId: z.uuid(), assetId: z.uuid('assetId must be an id') });
export const assetDriverParams = assetIdParams.extend({ driverId: z.uuid('driverId must be an id') });
export const assetTrailerParams = assetIdParams.extend({ id: z.uuid('id must be a trailer id') });

/** DELETE answers which one happened: a hard delete, or a deactivation because history references it. */
export const removalResultSchema = z.object({ result: z.enum(['DELETED', 'DEACTIVATED']), message: z.string() });
export type RemovalResult = z.infer<typeof removalResultSchema>;
