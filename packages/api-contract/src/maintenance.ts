import { z } from 'zod';
import { zeroOrAtLeast } from './numbers.ts';
import { dayField, instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { optionalText } from './registry-fields.ts';
import { requiredText } from './validation.ts';
import { DVIR_ITEMS, type DvirItemCode } from './dvir-items.ts';

export { DVIR_ITEMS, type DvirItemCode };

// Vehicle inspections (driver vehicle inspection reports, 49 CFR 396.11 and 396.13) and maintenance
// (issue 31, decision 0158): an inspection reports on every item; a failed item is a defect; a defect
// is repaired through a work order and closed by a mechanic's certification; the next driver of the
// vehicle reviews that certification. Distances in the API are kilometres and engine hours are hours,
// as everywhere (screens convert to the organization's units).

defineLabels({
  assetId: 'Vehicle',
  trailerIds: 'Trailers',
  kind: 'Inspection',
  items: 'Items',
  'items.item': 'Item',
  'items.ok': 'Result',
  'items.note': 'Defect note',
  'items.imageIds': 'Photos',
  'items.assetId': 'Unit',
  'items.safety': 'Affects safe operation',
  signature: 'Signature',
  'signature.name': 'Name',
  'signature.imageId': 'Drawn signature',
  location: 'Location',
  remarks: 'Remarks',
  certification: 'Certification',
  defectIds: 'Defects',
  laborHours: 'Labour hours',
  everyMiles: 'Every (distance)',
  everyEngineHours: 'Every (engine hours)',
  everyDays: 'Every (days)',
});
defineLabels({ title: 'Title', assignee: 'Mechanic or shop', parts: 'Parts', cost: 'Cost', scheduleId: 'Maintenance schedule', groupId: 'Group' });
// The organization's own inspection items (`PUT maintenance/inspection-items`).
defineLabels({ 'items.name': 'Item', 'items.trailer': 'Inspected on each trailer' });

export const DVIR_KINDS = ['PRE_TRIP', 'POST_TRIP'] as const;
export type DvirKind = (typeof DVIR_KINDS)[number];

/** A defect's state: open until a mechanic certifies it repaired, or that repair is unnecessary (396.11(a)(3)). */
export const DEFECT_STATUSES = ['OPEN', 'REPAIRED', 'NOT_NEEDED'] as const;
export type DefectStatus = (typeof DEFECT_STATUSES)[number];

export const WORK_ORDER_STATUSES = ['OPEN', 'IN_PROGRESS', 'DONE'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

export const MAINTENANCE_DUE_STATUSES = ['DUE', 'OVERDUE'] as const;

/** How long a report is kept at least (396.11(a)(4): three months from its date). */
export const DVIR_MIN_RETENTION_DAYS = 92;

/** A signature: the signer's name, and a drawn signature as an uploaded image (typed when absent). */
export const signatureSchema = z.object({
  name: requiredText('Name', 100),
  imageId: z.uuid('Drawn signature must be an uploaded image id').nullable().optional(),
});
export type Signature = z.output<typeof signatureSchema>;
/** A signature as the API shows it: with a signed link to the drawn image (null when typed; issue 43). */
export const signatureViewSchema = z.object({ name: z.string(), imageId: z.string().nullable(), imageUrl: z.string().nullable() });
export type SignatureView = z.infer<typeof signatureViewSchema>;

export const dvirItemInputSchema = z
  .object({
    /** A DVIR_ITEMS code, or the name of one of the organization's own items. */
    item: requiredText('Item', 100),
    /** Which unit the item was inspected on: the vehicle when absent, else one of `trailerIds`. */
    assetId: z.uuid('Unit must be the vehicle or one of the trailers').nullable().optional(),
    ok: z.boolean({ error: () => 'Result must be true (no defect) or false (defect)' }),
    note: optionalText(1000),
    imageIds: z.array(z.uuid('Photos must be uploaded image ids')).max(5, 'Photos: at most 5 an item').default([]),
    /** For a defect: whether it affects safe operation (the vehicle may not run until it is repaired). */
    safety: z.boolean().default(true),
  })
  .refine((i) => i.ok || (i.note ?? '').trim().length > 0, { path: ['note'], message: 'Defect note is required for an item with a defect' });
export type DvirItemInput = z.input<typeof dvirItemInputSchema>;

/** `POST organizations/{orgId}/dvirs`: a signed inspection; immutable once stored. */
export const dvirInputSchema = z.object({
  assetId: z.uuid('Vehicle must be a vehicle id'),
  trailerIds: z.array(z.uuid('Trailers must be trailer ids')).max(3, 'Trailers: at most 3').default([]),
  kind: z.enum(DVIR_KINDS, { error: () => 'Inspection must be PRE_TRIP or POST_TRIP' }),
  /** Kilometres; filled from the vehicle when absent. */
  // Given back to the tenth of a kilometre.
  odometer: z
    .number()
    .min(0, 'Odometer must be 0 or more')
    .max(10_000_000)
    .refine(zeroOrAtLeast(0.1), 'Odometer must be 0 or at least 0.1')
    .nullable()
    .optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  location: optionalText(200),
  items: z.array(dvirItemInputSchema).min(1, 'Items must list every inspected item').max(200),
  signature: signatureSchema,
  remarks: optionalText(2000),
  /** When the driver signed on a phone without signal, sent later (issue 44): the inspection's time. */
  recordedAt: instantField('Recorded at').nullish(),
});
export type DvirInput = z.input<typeof dvirInputSchema>;

export const dvirItemSchema = z.object({
  item: z.string(),
  label: z.string(),
  assetId: z.string(),
  ok: z.boolean(),
  note: z.string().nullable(),
  imageIds: z.array(z.string()),
  /** Signed links that show the photos, in the order of `imageIds` (valid 1 to 2 hours). */
  imageUrls: z.array(z.string()),
  safety: z.boolean(),
  /** The defect this item opened (null for a passed item). */
  defectId: z.string().nullable(),
});

const unitRef = z.object({ id: z.string(), unitNumber: z.string() });

export const defectSchema = z.object({
  id: z.string(),
  /** The inspection report that found it; null for a defect made of an engine fault (decision 0191). */
  dvirId: z.string().nullable(),
  /** The engine fault it was made of, if any. */
  engineFaultId: z.string().nullable(),
  /** The annual inspection (a compliance item) whose failed item it is, if any (issue 71). */
  complianceItemId: z.string().nullable(),
  asset: unitRef,
  item: z.string(),
  label: z.string(),
  note: z.string().nullable(),
  imageIds: z.array(z.string()),
  /** Signed links that show the photos, in the order of `imageIds` (valid 1 to 2 hours). */
  imageUrls: z.array(z.string()),
  safety: z.boolean(),
  status: z.enum(DEFECT_STATUSES),
  reportedAt: z.string(),
  reportedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  workOrderId: z.string().nullable(),
  certifiedAt: z.string().nullable(),
  certifiedBy: signatureViewSchema.nullable(),
  certification: z.string().nullable(),
});
export type Defect = z.infer<typeof defectSchema>;

export const dvirSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  asset: unitRef,
  trailers: z.array(unitRef),
  driver: z.object({ id: z.string(), name: z.string() }).nullable(),
  kind: z.enum(DVIR_KINDS),
  inspectedAt: z.string(),
  /** Kilometres. */
  odometer: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  location: z.string().nullable(),
  items: z.array(dvirItemSchema),
  defects: z.array(defectSchema),
  hasDefects: z.boolean(),
  /** True while a defect that affects safe operation is open. */
  unsafe: z.boolean(),
  signature: signatureViewSchema,
  remarks: z.string().nullable(),
  /** The next driver's signed review of the repair certifications (396.13(c)). */
  review: z.object({ driver: z.object({ id: z.string(), name: z.string() }), signature: signatureViewSchema, reviewedAt: z.string() }).nullable(),
});
export type Dvir = z.infer<typeof dvirSchema>;

export const dvirPageSchema = pageSchema(dvirSchema);
export const dvirListQuery = pageQuerySchema.extend({
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  driverId: z.uuid('driverId must be a driver id').optional(),
  from: instantField('from', { message: 'from must be an ISO date-time' }).optional(),
  to: instantField('to', { message: 'to must be an ISO date-time' }).optional(),
  hasDefects: z
    .enum(['true', 'false'], { error: () => 'hasDefects must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});
export const dvirIdParams = z.object({ orgId: z.uuid(), dvirId: z.uuid('dvirId must be an inspection id') });

/** `POST dvirs/{id}/review`: the next driver signs that they reviewed the repair certifications. */
export const dvirReviewInputSchema = z.object({ signature: signatureSchema });

export const defectPageSchema = pageSchema(defectSchema);
export const defectListQuery = pageQuerySchema.extend({
  assetId: z.uuid('assetId must be a vehicle or trailer id').optional(),
  status: z.enum(DEFECT_STATUSES, { error: () => 'status must be OPEN, REPAIRED or NOT_NEEDED' }).optional(),
  safety: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** Only the units of this group (the dashboard's group filter). */
  groupId: z.uuid('groupId must be a group id').optional(),
});
export const defectIdParams = z.object({ orgId: z.uuid(), defectId: z.uuid('defectId must be a defect id') });

/** `PUT defects/{id}`: the mechanic's certification that closes a defect. */
export const defectCertificationSchema = z.object({
  status: z.enum(['REPAIRED', 'NOT_NEEDED'], { error: () => 'Status must be REPAIRED or NOT_NEEDED' }),
  certification: optionalText(2000),
  signature: signatureSchema,
});

export const workOrderInputSchema = z.object({
  assetId: z.uuid('Vehicle must be a vehicle or trailer id'),
  title: requiredText('Title', 200),
  description: optionalText(4000),
  status: z.enum(WORK_ORDER_STATUSES, { error: () => 'Status must be OPEN, IN_PROGRESS or DONE' }).default('OPEN'),
  defectIds: z.array(z.uuid('Defects must be defect ids')).max(50).default([]),
  /** The mechanic or shop. */
  assignee: optionalText(200),
  parts: optionalText(4000),
  // Stored in a `real` (which cannot hold 1e-50: a 500) and shown to the hundredth.
  laborHours: z
    .number()
    .min(0, 'Labour hours must be 0 or more')
    .max(10_000)
    .refine(zeroOrAtLeast(0.01), 'Labour hours must be 0 or at least 0.01')
    .nullable()
    .optional(),
  /** In the organization's currency. */
  // Stored in cents: a smaller amount would be stored as 0.
  cost: z.number().min(0, 'Cost must be 0 or more').max(10_000_000).refine(zeroOrAtLeast(0.01), 'Cost must be 0 or at least 0.01').nullable().optional(),
  /** The schedule this order services: done, it restarts the schedule's intervals. */
  scheduleId: z.uuid().nullable().optional(),
});
export type WorkOrderInput = z.input<typeof workOrderInputSchema>;

export const workOrderSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  asset: unitRef,
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(WORK_ORDER_STATUSES),
  defectIds: z.array(z.string()),
  assignee: z.string().nullable(),
  parts: z.string().nullable(),
  laborHours: z.number().nullable(),
  cost: z.number().nullable(),
  scheduleId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type WorkOrder = z.infer<typeof workOrderSchema>;
export const workOrderPageSchema = pageSchema(workOrderSchema);
export const workOrderListQuery = pageQuerySchema.extend({
  assetId: z.uuid('assetId must be a vehicle or trailer id').optional(),
  status: z.enum(WORK_ORDER_STATUSES, { error: () => 'status must be OPEN, IN_PROGRESS or DONE' }).optional(),
});
export const workOrderIdParams = z.object({ orgId: z.uuid(), workOrderId: z.uuid('workOrderId must be a work order id') });

export const maintenanceScheduleInputSchema = z
  .object({
    assetId: z.uuid('Vehicle must be a vehicle id').nullable().optional(),
    groupId: z.uuid('Group must be a group id').nullable().optional(),
    name: requiredText('Name', 200),
    /** Miles, as the API's one named field says (the only distance in the API not in kilometres). */
    everyMiles: z
      .number()
      .positive('Every (distance) must be more than 0')
      .max(1_000_000)
      .refine(zeroOrAtLeast(0.001), 'Every (distance) must be at least 0.001')
      .nullable()
      .optional(),
    everyEngineHours: z.number().positive('Every (engine hours) must be more than 0').max(100_000).nullable().optional(),
    everyDays: z.number().int('Every (days) must be whole days').positive('Every (days) must be more than 0').max(3650).nullable().optional(),
  })
  .refine((s) => !!s.assetId !== !!s.groupId, { path: ['assetId'], message: 'Vehicle or group: give exactly one' })
  .refine((s) => s.everyMiles != null || s.everyEngineHours != null || s.everyDays != null, {
    path: ['everyMiles'],
    message: 'Give at least one interval: distance, engine hours or days',
  });
export type MaintenanceScheduleInput = z.input<typeof maintenanceScheduleInputSchema>;

export const maintenanceScheduleSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  assetId: z.string().nullable(),
  groupId: z.string().nullable(),
  name: z.string(),
  everyMiles: z.number().nullable(),
  everyEngineHours: z.number().nullable(),
  everyDays: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MaintenanceSchedule = z.infer<typeof maintenanceScheduleSchema>;
export const maintenanceSchedulePageSchema = pageSchema(maintenanceScheduleSchema);
export const maintenanceScheduleIdParams = z.object({ orgId: z.uuid(), scheduleId: z.uuid('scheduleId must be a schedule id') });
/** Schedules list: `assetId` lists the schedules covering that vehicle (its own and its groups'). */
export const maintenanceScheduleListQuery = pageQuerySchema.extend({
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  groupId: z.uuid('groupId must be a group id').optional(),
});

/** One line of `GET maintenance/due`: a vehicle's service coming due or overdue under one schedule. */
export const maintenanceDueSchema = z.object({
  scheduleId: z.string(),
  assetId: z.string(),
  unitNumber: z.string(),
  name: z.string(),
  status: z.enum(MAINTENANCE_DUE_STATUSES),
  /** When the days interval comes due (null without one). */
  dueAt: z.string().nullable(),
  /** Kilometres on the vehicle's odometer at which the distance interval comes due (null without one). */
  dueOdometer: z.number().nullable(),
  dueEngineHours: z.number().nullable(),
});
export type MaintenanceDue = z.infer<typeof maintenanceDueSchema>;
export const maintenanceDuePageSchema = pageSchema(maintenanceDueSchema);
export const maintenanceDueQuery = pageQuerySchema.extend({
  status: z.enum(MAINTENANCE_DUE_STATUSES).optional(),
  assetId: z.uuid().optional(),
  /** Only the vehicles of this group (the dashboard's group filter). */
  groupId: z.uuid('groupId must be a group id').optional(),
});

/** `GET maintenance/next?assetId=`: every schedule covering one vehicle with its next service, due or not (the vehicle detail's "next service"). */
export const maintenanceNextQuery = z.object({ assetId: z.uuid('assetId must be a vehicle id') });
export const maintenanceNextSchema = z.object({
  items: z.array(maintenanceDueSchema.extend({ status: z.enum(['OK', ...MAINTENANCE_DUE_STATUSES]) })),
});
export type MaintenanceNext = z.infer<typeof maintenanceNextSchema>;

/**
 * `GET maintenance/inspections-due?date=YYYY-MM-DD`: vehicles that moved on that day (the viewer's
 * profile zone) and have no inspection report signed that day: the dashboard's "inspections due".
 */
export const inspectionsDueQuery = pageQuerySchema.extend({
  date: dayField('date', { message: 'date must be a day like 2026-06-01' }).optional(),
  /** Only this group's vehicles (the dashboard's group filter). */
  groupId: z.uuid('groupId must be a group id').optional(),
});
export const inspectionDueSchema = z.object({
  assetId: z.string(),
  unitNumber: z.string(),
  /** The driver assigned to the vehicle now, if any. */
  driver: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The vehicle's latest report before that day ended, if any. */
  lastReportAt: z.string().nullable(),
});
export type InspectionDue = z.infer<typeof inspectionDueSchema>;
export const inspectionDuePageSchema = pageSchema(inspectionDueSchema);

/** `GET dvirs/{id}/export?format=csv|pdf` and `GET maintenance/history/export?assetId=&format=csv|pdf`. */
export const maintenanceExportQuery = z.object({ format: z.enum(['csv', 'pdf'], { error: () => 'format must be csv or pdf' }).default('csv') });
export const maintenanceHistoryExportQuery = maintenanceExportQuery.extend({ assetId: z.uuid('assetId must be a vehicle or trailer id') });

/**
 * `GET|PUT organizations/{orgId}/maintenance/inspection-items`: the items an organization adds to the
 * 396.11 list; every inspection reports each of them too (`trailer`: inspected on each trailer as well).
 */
export const inspectionItemSchema = z.object({
  name: requiredText('Item', 100),
  trailer: z.boolean().default(false),
});
export const inspectionItemsSchema = z.object({ items: z.array(inspectionItemSchema).max(50, 'Items: at most 50') });
export type InspectionItems = z.output<typeof inspectionItemsSchema>;
