import { z } from 'zod';
import { hasDecimals } from './numbers.ts';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { optionalText } from './registry-fields.ts';
import { requiredText } from './validation.ts';

// Dispatch (issue 33, decisions 0165-0168): loads with their stops, legal trip plans built by the HoS
// engine from a driver's real clocks, the drivers who can take a load, live ETAs and revenue. The
// issue fixes the paths and the names of a stop, a plan and a candidate; those are kept as written
// (a plan's and a candidate's distances are `miles`, as the issue spells them). Elsewhere the API
// speaks SI as everywhere: kilograms, kilometres; screens and exports use the organization's units.
// Money is in the organization's currency, as decimal amounts with two places.

defineLabels({
  customer: 'Customer',
  customerPlaceId: 'Customer place',
  overlapAllowed: 'Assign despite overlapping loads',
  podWaived: 'Complete without the proof of delivery',
  bolNumber: 'BOL number',
  poNumber: 'PO number',
  commodity: 'Commodity',
  weightKg: 'Weight',
  stops: 'Stops',
  windowStart: 'Appointment from',
  windowEnd: 'Appointment until',
  serviceMinutes: 'Loading or unloading time',
  rate: 'Rate',
  'rate.lineHaul': 'Line haul',
  'rate.fuelSurcharge': 'Fuel surcharge',
  'rate.accessorials': 'Accessorials',
  amount: 'Amount',
  driverIds: 'Drivers',
  trailerId: 'Trailer',
  status: 'Status',
  event: 'Stop event',
  at: 'Time',
  documentKind: 'Document',
  type: 'Type',
  imageId: 'Photo',
  pages: 'Pages',
  stopId: 'Stop',
});

export const LOAD_STATUSES = ['PLANNED', 'ASSIGNED', 'EN_ROUTE', 'AT_STOP', 'DELIVERED', 'CANCELLED'] as const;
export type LoadStatus = (typeof LOAD_STATUSES)[number];
export const LOAD_STATUS_LABELS: Record<LoadStatus, string> = {
  PLANNED: 'Planned',
  ASSIGNED: 'Assigned',
  EN_ROUTE: 'En route',
  AT_STOP: 'At stop',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled',
};
/** Statuses in which a load still moves (its ETAs are kept live). */
export const ACTIVE_LOAD_STATUSES: readonly LoadStatus[] = ['ASSIGNED', 'EN_ROUTE', 'AT_STOP'];

export const STOP_KINDS = ['PICKUP', 'DELIVERY'] as const;
export type StopKind = (typeof STOP_KINDS)[number];
export const STOP_KIND_LABELS: Record<StopKind, string> = { PICKUP: 'Pick-up', DELIVERY: 'Delivery' };

export const ACCESSORIAL_KINDS = ['DETENTION', 'LAYOVER', 'LUMPER', 'STOP_OFF', 'TARP', 'OTHER'] as const;
export type AccessorialKind = (typeof ACCESSORIAL_KINDS)[number];
export const ACCESSORIAL_LABELS: Record<AccessorialKind, string> = {
  DETENTION: 'Detention',
  LAYOVER: 'Layover',
  LUMPER: 'Lumper',
  STOP_OFF: 'Stop-off',
  TARP: 'Tarp',
  OTHER: 'Other',
};

/** A load's paper types (issue 70 added the lumper receipt and the scale ticket). The API names it `type`; `documentKind` is the older name. */
export const LOAD_DOCUMENT_TYPES = ['BOL', 'POD', 'LUMPER', 'SCALE', 'OTHER'] as const;
export type LoadDocumentType = (typeof LOAD_DOCUMENT_TYPES)[number];
export const LOAD_DOCUMENT_KINDS = LOAD_DOCUMENT_TYPES;
export type LoadDocumentKind = LoadDocumentType;
export const LOAD_DOCUMENT_LABELS: Record<LoadDocumentType, string> = {
  BOL: 'Bill of lading',
  POD: 'Proof of delivery',
  LUMPER: 'Lumper receipt',
  SCALE: 'Scale ticket',
  OTHER: 'Other document',
};
/** A document's pages: a bill of lading rarely runs past five; each page is one photo under the image upload limit. */
export const LOAD_DOCUMENT_MAX_PAGES = 15;

/** Where a stop's arrival or departure came from. */
export const STOP_EVENT_SOURCES = ['PLACE', 'DRIVER', 'DISPATCHER'] as const;
export type StopEventSource = (typeof STOP_EVENT_SOURCES)[number];

export const LOAD_LIMITS = { stops: 20, serviceMinutesMax: 24 * 60, weightKgMax: 60_000, amountMax: 1_000_000, accessorials: 20 } as const;
/** A team: at most two drivers on one load, alternating at the wheel. */
export const MAX_LOAD_DRIVERS = 2;

const instant = (label: string) => instantField(label);
const money = (label: string) =>
  z
    .number({ error: () => `${label} must be a number` })
    .min(0, `${label} must not be negative`)
    .max(LOAD_LIMITS.amountMax, `${label} must be at most ${LOAD_LIMITS.amountMax}`)
    .refine(hasDecimals(2), `${label} has at most two decimal places`);

/** One stop as the issue spells it. A stop with a `placeId` takes its arrival and departure from the place's visits. */
export const loadStopInputSchema = z
  .object({
    kind: z.enum(STOP_KINDS, { error: () => 'Stop kind must be PICKUP or DELIVERY' }),
    placeId: z.uuid('Place must be a place id').nullable().optional(),
    latitude: z.number().min(-90, 'Latitude must be between -90 and 90').max(90, 'Latitude must be between -90 and 90'),
    longitude: z.number().min(-180, 'Longitude must be between -180 and 180').max(180, 'Longitude must be between -180 and 180'),
    address: optionalText(300),
    windowStart: instant('Appointment from'),
    windowEnd: instant('Appointment until'),
    serviceMinutes: z.number().int('Loading or unloading time is whole minutes').min(0).max(LOAD_LIMITS.serviceMinutesMax),
  })
  .refine((s) => Date.parse(s.windowEnd) >= Date.parse(s.windowStart), { message: 'The appointment must end at or after it starts', path: ['windowEnd'] });
export type LoadStopInput = z.infer<typeof loadStopInputSchema>;

export const accessorialSchema = z.object({
  kind: z.enum(ACCESSORIAL_KINDS, { error: () => `Accessorial kind must be one of ${ACCESSORIAL_KINDS.join(', ')}` }),
  amount: money('Amount'),
  note: optionalText(200),
});
export const loadRateSchema = z.object({
  lineHaul: money('Line haul'),
  fuelSurcharge: money('Fuel surcharge').default(0),
  accessorials: z.array(accessorialSchema).max(LOAD_LIMITS.accessorials).default([]),
});
export type LoadRate = z.infer<typeof loadRateSchema>;

/** Create or replace a load (POST `loads`, PUT `loads/{id}`). Stops are in driving order: the first a pick-up, the last a delivery. */
export const loadInputSchema = z
  .object({
    /** The name printed on the load; when `customerId` is given it is the customer's name, whatever is sent. */
    customer: requiredText('Customer', 200).optional(),
    /** The customer of the registry (issue 70); null: a name typed on the load only. */
    customerId: z.uuid('Customer must be a customer id').nullable().optional(),
    customerPlaceId: z.uuid('Customer place must be a place id').nullable().optional(),
    bolNumber: optionalText(60),
    poNumber: optionalText(60),
    commodity: optionalText(120),
    weightKg: z.number().min(0).max(LOAD_LIMITS.weightKgMax, `Weight must be at most ${LOAD_LIMITS.weightKgMax} kg`).nullable().optional(),
    stops: z.array(loadStopInputSchema).min(2, 'A load needs a pick-up and a delivery').max(LOAD_LIMITS.stops, `A load has at most ${LOAD_LIMITS.stops} stops`),
    rate: loadRateSchema,
    /** One driver, or two for a team (the first is the lead). Empty: unassigned. */
    driverIds: z.array(z.uuid('Drivers must be driver ids')).max(MAX_LOAD_DRIVERS, 'A load has at most two drivers').default([]),
    assetId: z.uuid('Tractor must be a vehicle id').nullable().optional(),
    trailerId: z.uuid('Trailer must be a trailer id').nullable().optional(),
    notes: optionalText(2000),
    /** Save even though a named driver or the tractor is on a load whose time overlaps this one's (else 409, as the assignment). */
    overlapAllowed: z.boolean({ error: () => 'overlapAllowed must be true or false' }).optional(),
  })
  .refine((l) => l.customer !== undefined || !!l.customerId, { message: 'Customer is a required field', path: ['customer'] })
  .refine((l) => l.stops[0]?.kind === 'PICKUP', { message: 'The first stop must be a pick-up', path: ['stops'] })
  .refine((l) => l.stops[l.stops.length - 1]?.kind === 'DELIVERY', { message: 'The last stop must be a delivery', path: ['stops'] })
  .refine((l) => new Set(l.driverIds).size === l.driverIds.length, { message: 'A driver is named twice', path: ['driverIds'] });
export type LoadInput = z.infer<typeof loadInputSchema>;

/** One-click assignment from the candidates list (POST `loads/{id}/assignment`); an empty list unassigns. */
export const loadAssignmentSchema = z.object({
  driverIds: z.array(z.uuid('Drivers must be driver ids')).max(MAX_LOAD_DRIVERS, 'A load has at most two drivers'),
  assetId: z.uuid('Tractor must be a vehicle id').nullable().optional(),
  trailerId: z.uuid('Trailer must be a trailer id').nullable().optional(),
  /**
   * Assign even though a driver or the tractor is on (or assigned to) a load whose time overlaps this
   * one's; without it such an assignment answers 409 naming that load (issue 46).
   */
  overlapAllowed: z.boolean({ error: () => 'overlapAllowed must be true or false' }).optional(),
});
export type LoadAssignment = z.infer<typeof loadAssignmentSchema>;

/** A status a person sets (POST `loads/{id}/status`); the others follow from assignment and stop events. */
/**
 * The office lets a delivery be completed without its proof of delivery when the load's customer
 * requires one (issue 70): only a caller with LOAD_UPDATE, recorded in the load's history.
 */
const podWaived = z.boolean({ error: () => 'podWaived must be true or false' }).optional();

export const loadStatusChangeSchema = z.object({
  status: z.enum(['CANCELLED', 'PLANNED', 'DELIVERED'], { error: () => 'status must be CANCELLED, PLANNED or DELIVERED' }),
  note: optionalText(500),
  podWaived,
});

/** POST `loads/{id}/stops/{stopId}/status`: the driver or dispatcher marks arrival or departure; `at` defaults to now. */
export const stopStatusInputSchema = z.object({
  event: z.enum(['ARRIVE', 'DEPART'], { error: () => 'event must be ARRIVE or DEPART' }),
  at: instant('Time').optional(),
  podWaived,
});
export type StopStatusInput = z.infer<typeof stopStatusInputSchema>;

const documentTypeField = (label: string) =>
  z.enum(LOAD_DOCUMENT_TYPES, {
    error: (issue) => (issue.input === undefined ? `${label} is a required field` : `${label} must be one of ${LOAD_DOCUMENT_TYPES.join(', ')}`),
  });

/**
 * POST `loads/{id}/documents` as JSON: a paper of one page or several, photographed and uploaded
 * first as images (`imageIds` in the order taken). The older body (`documentKind`, one `imageId`)
 * is still taken. The same call as multipart carries `type`, `stopId` and the pages as files.
 */
export const loadDocumentInputSchema = z
  .object({
    type: documentTypeField('Type').optional(),
    documentKind: documentTypeField('Document').optional(),
    imageIds: z
      .array(z.uuid('Pages must be uploaded image ids'))
      .min(1, 'A document needs at least one page')
      .max(LOAD_DOCUMENT_MAX_PAGES, `A document has at most ${LOAD_DOCUMENT_MAX_PAGES} pages`)
      .optional(),
    imageId: z.uuid('Photo must be an uploaded image id').optional(),
    stopId: z.uuid('Stop must be a stop id').nullable().optional(),
  })
  .refine((d) => d.type ?? d.documentKind, { message: 'Type is a required field', path: ['type'] })
  .refine((d) => d.imageIds ?? d.imageId, { message: 'A document needs at least one page', path: ['imageIds'] })
  .refine((d) => !(d.imageIds && d.imageId), { message: 'Give the pages in imageIds or one photo in imageId, not both', path: ['imageId'] })
  .refine((d) => !d.imageIds || new Set(d.imageIds).size === d.imageIds.length, { message: 'A page is named twice', path: ['imageIds'] });
export type LoadDocumentInput = z.infer<typeof loadDocumentInputSchema>;
/** The same call as a multipart form: these text fields, and the pages as image files in the order taken. */
export const loadDocumentFormSchema = z.object({
  type: documentTypeField('Type'),
  stopId: z.uuid('Stop must be a stop id').nullable().optional(),
});

/** Paths of one load, one stop, one document. */
export const loadIdParams = z.object({ orgId: z.uuid(), loadId: z.uuid('loadId must be a load id') });
export const loadStopIdParams = loadIdParams.extend({ stopId: z.uuid('stopId must be a stop id') });
export const loadDocumentIdParams = loadIdParams.extend({ documentId: z.uuid('documentId must be a document id') });

/**
 * POST `loads/import`: a CSV with one row per stop; rows with the same `reference` make one load
 * (its stops in the file's order; the load's own columns are read from its first row). Nothing is
 * saved when any row has an error; `dryRun` checks only.
 */
export const loadImportBodySchema = z.object({
  content: z
    .string({ error: () => 'File is a required field' })
    .min(1, 'File is a required field')
    .max(4_000_000, 'The file is too large (4 MB at most)'),
  dryRun: z.boolean().default(false),
});
export const LOAD_IMPORT_MAX_ROWS = 5_000;
export const loadImportResultSchema = z.object({
  dryRun: z.boolean(),
  totalRows: z.number().int(),
  /** Loads in the file (distinct references). */
  totalLoads: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })),
  /** The first loads as they will be saved (at most 20). */
  sample: z.array(z.object({ reference: z.string(), customer: z.string(), stops: z.number().int(), total: z.number() })),
  /** Loads saved (0 on a dry run or when any row has an error) and their numbers. */
  imported: z.number().int(),
  numbers: z.array(z.string()),
});
export type LoadImportResult = z.infer<typeof loadImportResultSchema>;

export const loadListQuerySchema = pageQuerySchema.extend({
  /** One status or several, comma-separated. */
  status: z
    .string()
    .optional()
    .refine((v) => !v || v.split(',').every((s) => (LOAD_STATUSES as readonly string[]).includes(s)), `status must be among ${LOAD_STATUSES.join(', ')}`),
  driverId: z.uuid('driverId must be a driver id').optional(),
  customer: z.string().trim().max(120).optional(),
  /** Loads that name this customer of the registry. */
  customerId: z.uuid('customerId must be a customer id').optional(),
  /** Loads whose first pick-up window starts at or after `from` and before `to`. */
  from: instant('from').optional(),
  to: instant('to').optional(),
});
export type LoadListQuery = z.infer<typeof loadListQuerySchema>;

const ref = z.object({ id: z.string(), name: z.string() });

export const loadStopSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  kind: z.enum(STOP_KINDS),
  placeId: z.string().nullable(),
  placeName: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  address: z.string().nullable(),
  windowStart: z.string(),
  windowEnd: z.string(),
  serviceMinutes: z.number().int(),
  arrivedAt: z.string().nullable(),
  departedAt: z.string().nullable(),
  arrivalSource: z.enum(STOP_EVENT_SOURCES).nullable(),
  departureSource: z.enum(STOP_EVENT_SOURCES).nullable(),
  /** The live ETA (null once arrived, or when the load has no driver). */
  eta: z.string().nullable(),
  windowMet: z.boolean().nullable(),
});
export type LoadStop = z.infer<typeof loadStopSchema>;

export const loadStatusEntrySchema = z.object({ status: z.enum(LOAD_STATUSES), at: z.string(), by: z.string().nullable(), note: z.string().nullable() });
export const loadDocumentSchema = z.object({
  id: z.string(),
  type: z.enum(LOAD_DOCUMENT_TYPES),
  stopId: z.string().nullable(),
  /** Pages in the document's PDF (`documents/{id}/pdf`), in the order taken. */
  pageCount: z.number().int(),
  createdAt: z.string(),
  /** The person who added it (a name); null for an API token or a removed user. */
  createdBy: z.string().nullable(),
  /** The older names: `type`, and `createdBy`. */
  documentKind: z.enum(LOAD_DOCUMENT_TYPES),
  uploadedBy: z.string().nullable(),
  /** The first page's image. */
  imageId: z.string(),
  /** A signed link that shows the first page (valid 1 to 2 hours; issue 43). */
  imageUrl: z.string(),
});
export type LoadDocument = z.infer<typeof loadDocumentSchema>;

export const loadSchema = z.object({
  id: z.string(),
  /** A short number people say on the phone, e.g. L-1042. */
  number: z.string(),
  customer: z.string(),
  /** The customer of the registry the load names (issue 70), or null. */
  customerId: z.string().nullable(),
  /** The customer requires a proof of delivery before each delivery is completed (issue 70). */
  requiresPod: z.boolean(),
  customerPlaceId: z.string().nullable(),
  bolNumber: z.string().nullable(),
  poNumber: z.string().nullable(),
  commodity: z.string().nullable(),
  weightKg: z.number().nullable(),
  status: z.enum(LOAD_STATUSES),
  stops: z.array(loadStopSchema),
  rate: z.object({
    lineHaul: z.number(),
    fuelSurcharge: z.number(),
    // Output shape (the input's accessorial trims its note with a transform, which cannot serialize).
    accessorials: z.array(z.object({ kind: z.enum(ACCESSORIAL_KINDS), amount: z.number(), note: z.string().nullable() })),
    total: z.number(),
  }),
  currency: z.string(),
  drivers: z.array(ref),
  asset: z.object({ id: z.string(), unitNumber: z.string() }).nullable(),
  trailer: z.object({ id: z.string(), unitNumber: z.string() }).nullable(),
  /** Road distance from the first pick-up to the last delivery (km), by the routing port. */
  loadedKm: z.number().nullable(),
  /** Live: the ETA passes an appointment window; `riskReason` says why (a required rest, drive time). */
  atRisk: z.boolean(),
  riskReason: z.string().nullable(),
  etaUpdatedAt: z.string().nullable(),
  /** When the last delivery was done (departed, or marked delivered). */
  deliveredAt: z.string().nullable(),
  notes: z.string().nullable(),
  statusHistory: z.array(loadStatusEntrySchema),
  documents: z.array(loadDocumentSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Load = z.infer<typeof loadSchema>;
/** List rows carry the whole load but the history and documents (empty arrays). */
export const loadPageSchema = pageSchema(loadSchema);

// ------------------------------------------------------------------------------------------ plans

export const PLAN_SEGMENT_KINDS = ['DEADHEAD', 'DRIVE', 'BREAK', 'REST', 'RESTART', 'STOP'] as const;
export type PlanSegmentKind = (typeof PLAN_SEGMENT_KINDS)[number];
export const PLAN_SEGMENT_LABELS: Record<PlanSegmentKind, string> = {
  DEADHEAD: 'Deadhead',
  DRIVE: 'Drive',
  BREAK: '30-minute break',
  REST: '10-hour rest',
  RESTART: '34-hour restart',
  STOP: 'At stop',
};

export const planQuerySchema = z.object({
  /** The driver to plan for; defaults to the load's assigned lead driver. */
  driverId: z.uuid('driverId must be a driver id').optional(),
  /** A team's second driver. */
  coDriverId: z.uuid('coDriverId must be a driver id').optional(),
});

/** The issue's plan shape; the extra fields (driver, rest kind, clocks) are additive. */
export const planSegmentSchema = z.object({
  kind: z.enum(PLAN_SEGMENT_KINDS),
  start: z.string(),
  end: z.string(),
  miles: z.number(),
  /** Who drives (a team alternates), or who rests. */
  driverId: z.string().nullable(),
  /** For a STOP: the load stop; for a REST: 'SPLIT_7_3' etc. when it is one part of a sleeper split. */
  stopId: z.string().nullable(),
  note: z.string().nullable(),
});
export type PlanSegment = z.infer<typeof planSegmentSchema>;
export const planStopSchema = z.object({ stopId: z.string(), eta: z.string(), windowMet: z.boolean() });
export const planClocksSchema = z.object({
  driveMinutes: z.number(),
  windowMinutes: z.number(),
  breakMinutes: z.number().nullable(),
  cycleMinutes: z.number(),
});
/**
 * Where and when a driver on other loads is free (issue 46): the last of the loads they finish first
 * (running, then assigned ahead), its last stop, when its service there ends, and the clocks they will
 * have then. A plan or a candidate of a driver free now has none.
 */
export const freeAfterSchema = z.object({
  loadId: z.string(),
  number: z.string(),
  /** How many loads they finish first (this one the last). */
  loads: z.number().int(),
  freeAt: z.string(),
  /** The last stop's city ("Minneapolis, MN"), else its place's name; null when neither is known. */
  place: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  clocks: planClocksSchema,
});
export type FreeAfter = z.infer<typeof freeAfterSchema>;
/** One road leg the plan's map draws: from the plan's origin (fromStopId null) or a stop, to a stop; [longitude, latitude] pairs. */
export const planRouteLegSchema = z.object({
  fromStopId: z.string().nullable(),
  toStopId: z.string(),
  line: z.array(z.tuple([z.number(), z.number()])),
});
export type PlanRouteLeg = z.infer<typeof planRouteLegSchema>;
export const loadPlanSchema = z.object({
  segments: z.array(planSegmentSchema),
  stops: z.array(planStopSchema),
  feasible: z.boolean(),
  /** Why not feasible (or the first appointment missed), in words. */
  reason: z.string().nullable(),
  driverIds: z.array(z.string()),
  /** The driver's clocks when the last delivery is done. */
  clocksAtDelivery: planClocksSchema,
  /** 'estimated' for the built-in road network; 'osrm' for a routing service at ROUTING_URL. */
  routing: z.enum(['estimated', 'osrm']),
  /** The driver's position the plan starts from, and when. */
  startsAt: z.string(),
  origin: z.object({ latitude: z.number(), longitude: z.number() }),
  /** The driver's other loads come first: the plan starts where and when they end (issue 46). */
  after: freeAfterSchema.nullable(),
  /**
   * The roads the load follows, as the planner routed them: every leg between the load's stops, then
   * the leg from the plan's origin to the next stop not yet left (the deadhead before the pick-up).
   */
  route: z.array(planRouteLegSchema),
});
export type LoadPlan = z.infer<typeof loadPlanSchema>;

export const candidateSchema = z.object({
  driverId: z.string(),
  name: z.string(),
  feasible: z.boolean(),
  deadheadMiles: z.number(),
  remainingDriveMinutes: z.number(),
  lastStopEta: z.string().nullable(),
  /** Null for a feasible driver; else why not, in words ("cycle runs out in Missouri; …"). */
  reason: z.string().nullable(),
  /** The load the driver is on now, if any. */
  currentLoad: z.object({ id: z.string(), number: z.string() }).nullable(),
  /** The loads the driver finishes first: the plan (deadhead, clocks, ETA) starts where and when they end (issue 46). */
  after: freeAfterSchema.nullable(),
});
export type Candidate = z.infer<typeof candidateSchema>;
export const candidatePageSchema = pageSchema(candidateSchema);
export const candidateQuerySchema = pageQuerySchema.pick({ page: true, size: true, search: true });

// ------------------------------------------------------------------------------------------ revenue

export const REVENUE_GROUPS = ['truck', 'driver', 'customer', 'lane'] as const;
export type RevenueGroup = (typeof REVENUE_GROUPS)[number];
export const REVENUE_PERIODS = ['week', 'month'] as const;
export type RevenuePeriod = (typeof REVENUE_PERIODS)[number];

/** GET `analytics/revenue`: delivered loads whose last delivery falls in [from, to). */
export const revenueQuerySchema = z.object({
  from: instant('from'),
  to: instant('to'),
  groupBy: z.enum(REVENUE_GROUPS, { error: () => `groupBy must be one of ${REVENUE_GROUPS.join(', ')}` }).default('truck'),
  period: z.enum(REVENUE_PERIODS, { error: () => 'period must be week or month' }).default('week'),
});
export const revenueExportQuerySchema = revenueQuerySchema.extend({ format: z.enum(['csv'], { error: () => 'format must be csv' }) });

const revenueFigures = {
  loads: z.number().int(),
  revenue: z.number(),
  loadedKm: z.number(),
  /** Empty distance driven to reach the loads, from positions (between a delivery and the next pick-up). */
  deadheadKm: z.number(),
  totalKm: z.number(),
  revenuePerLoadedKm: z.number().nullable(),
  revenuePerTotalKm: z.number().nullable(),
};
export const revenueRowSchema = z.object({ key: z.string(), label: z.string(), ...revenueFigures });
export const revenuePeriodSchema = z.object({ period: z.string(), label: z.string(), ...revenueFigures });
export const revenueReportSchema = z.object({
  currency: z.string(),
  timeZone: z.string(),
  totals: z.object(revenueFigures),
  rows: z.array(revenueRowSchema),
  series: z.array(revenuePeriodSchema),
});
export type RevenueReport = z.infer<typeof revenueReportSchema>;
