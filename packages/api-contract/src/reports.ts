import { z } from 'zod';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { PLACE_CATEGORIES } from './places.ts';

// Trips, stops, place visits and daily summaries (issue 32, decision 0163), kept behind ingest and
// read as pages under `organizations/{orgId}/reports/…`, each with `/export?format=csv|pdf`, and
// e-mailed on a schedule (`report-subscriptions`). Distances in the API are kilometres and speeds
// km/h, as everywhere; screens, exports and e-mails use the organization's units.

defineLabels({ assetId: 'Vehicle', driverId: 'Driver', groupId: 'Group', placeId: 'Place', from: 'From', to: 'To', by: 'Per' });
defineLabels({
  report: 'Report',
  filters: 'Filters',
  frequency: 'Frequency',
  timeOfDay: 'Time of day',
  weekday: 'Day of the week',
  timeZone: 'Time zone',
  formats: 'Attachments',
});

export const REPORT_KINDS = ['VISITS', 'TRIPS', 'STOPS', 'SUMMARY'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_KIND_LABELS: Record<ReportKind, string> = { VISITS: 'Place visits', TRIPS: 'Trips', STOPS: 'Stops', SUMMARY: 'Daily summary' };
/** The path segment of each report under `reports/`. */
export const REPORT_PATHS: Record<ReportKind, string> = { VISITS: 'visits', TRIPS: 'trips', STOPS: 'stops', SUMMARY: 'summary' };

const instant = (label: string) => instantField(label);

/** The filters every report takes (each where it applies); `from`/`to` bound the rows' start times. */
export const reportFiltersSchema = z.object({
  from: instant('from').optional(),
  to: instant('to').optional(),
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  driverId: z.uuid('driverId must be a driver id').optional(),
  groupId: z.uuid('groupId must be a group id').optional(),
  placeId: z.uuid('placeId must be a place id').optional(),
});
export type ReportFilters = z.infer<typeof reportFiltersSchema>;
export const reportQuerySchema = pageQuerySchema.extend(reportFiltersSchema.shape);
export const reportExportQuerySchema = reportFiltersSchema.extend({ format: z.enum(['csv', 'pdf'], { error: () => 'format must be csv or pdf' }) });

/** The daily summary groups per vehicle (default) or per driver (`by=driver`, or any `driverId` filter). */
export const SUMMARY_BY = ['vehicle', 'driver'] as const;
const summaryBy = { by: z.enum(SUMMARY_BY, { error: () => 'by must be vehicle or driver' }).optional() };
export const summaryQuerySchema = reportQuerySchema.extend(summaryBy);
export const summaryExportQuerySchema = reportExportQuerySchema.extend(summaryBy);

const ref = z.object({ id: z.string(), name: z.string() }).nullable();
const unit = z.object({ id: z.string(), unitNumber: z.string() });
/** Where a trip started or ended, or a vehicle stopped: the place it was at, else the nearest known locality. */
const whereSchema = z.object({ latitude: z.number(), longitude: z.number(), place: ref, address: z.string().nullable() });

/** One visit of a vehicle to a place (`reports/visits`): the field names, with names beside the ids. */
export const visitRowSchema = z.object({
  id: z.string(),
  placeId: z.string(),
  placeName: z.string(),
  category: z.enum(PLACE_CATEGORIES),
  assetId: z.string(),
  unitNumber: z.string(),
  driverId: z.string().nullable(),
  driverName: z.string().nullable(),
  arrivedAt: z.string(),
  /** Null while the vehicle is still there. */
  departedAt: z.string().nullable(),
  dwellSeconds: z.number().int(),
  /** Time beyond the organization's free time, at customer places only (0 elsewhere). */
  detentionSeconds: z.number().int(),
});
export type VisitRow = z.infer<typeof visitRowSchema>;

/** A trip: from moving to stopped (by ignition, else by speed). */
export const tripRowSchema = z.object({
  /** `in-progress:<vehicle id>` for the trip under way (`ended:<vehicle id>` for one whose device fell silent before the follower closed it). */
  id: z.string(),
  asset: unit,
  driver: ref,
  startedAt: z.string(),
  endedAt: z.string(),
  start: whereSchema,
  end: whereSchema,
  distanceKm: z.number(),
  durationSeconds: z.number().int(),
  maxSpeedKmh: z.number(),
  avgSpeedKmh: z.number(),
  /** The trip is under way: `endedAt` and `end` are the vehicle's latest fix, the figures so far. */
  inProgress: z.boolean(),
});
export type TripRow = z.infer<typeof tripRowSchema>;

/** A stop between trips; engine-on time while stopped is idling. */
export const stopRowSchema = z.object({
  id: z.string(),
  asset: unit,
  driver: ref,
  startedAt: z.string(),
  /** Null while the vehicle is still stopped. */
  endedAt: z.string().nullable(),
  durationSeconds: z.number().int(),
  where: whereSchema,
  idleSeconds: z.number().int(),
  engineOn: z.boolean().nullable(),
});
export type StopRow = z.infer<typeof stopRowSchema>;

/** One vehicle (or driver) and day of the daily summary, the day in the report's time zone. */
export const summaryRowSchema = z.object({
  day: z.string(),
  asset: unit.nullable(),
  driver: ref,
  distanceKm: z.number(),
  drivingSeconds: z.number().int(),
  idleSeconds: z.number().int(),
  stops: z.number().int(),
  firstMovementAt: z.string().nullable(),
  lastMovementAt: z.string().nullable(),
  /** The day includes a trip under way (counted up to the vehicle's latest fix, which `lastMovementAt` is). */
  inProgress: z.boolean(),
});
export type SummaryRow = z.infer<typeof summaryRowSchema>;

/**
 * Every report page also says the time zone its days and times are meant in (the signed-in user's
 * profile zone, else the organization's; decision 0140). Instants stay ISO UTC; `day` is in that zone.
 */
const zoned = { timeZone: z.string() };
export const visitPageSchema = pageSchema(visitRowSchema).extend(zoned);
export const tripPageSchema = pageSchema(tripRowSchema).extend(zoned);
export const stopPageSchema = pageSchema(stopRowSchema).extend(zoned);
export const summaryPageSchema = pageSchema(summaryRowSchema).extend(zoned);

/** Detention totalled per customer place (`reports/detention`). */
export const detentionTotalSchema = z.object({
  placeId: z.string(),
  placeName: z.string(),
  visits: z.number().int(),
  dwellSeconds: z.number().int(),
  detentionSeconds: z.number().int(),
  visitsWithDetention: z.number().int(),
});
export const detentionTotalsSchema = z.object({ freeMinutes: z.number().int(), timeZone: z.string(), content: z.array(detentionTotalSchema) });
export type DetentionTotals = z.infer<typeof detentionTotalsSchema>;
/** `reports/detention`: customer places' visits arrived within `from`/`to` (a vehicle, driver, group or place narrows them). */
export const detentionQuerySchema = reportFiltersSchema;

export const SUBSCRIPTION_FREQUENCIES = ['DAILY', 'WEEKLY'] as const;
export const REPORT_FORMATS = ['pdf', 'csv'] as const;
/**
 * What a subscription may schedule: the reports above, and the safety events and scores (issue 47),
 * which have their own endpoints under `safety/` (no generic `reports/` page).
 */
export const SUBSCRIBED_REPORT_KINDS = [...REPORT_KINDS, 'SAFETY_EVENTS', 'SAFETY_SCORES'] as const;
export type SubscribedReportKind = (typeof SUBSCRIBED_REPORT_KINDS)[number];
export const SUBSCRIBED_REPORT_LABELS: Record<SubscribedReportKind, string> = {
  ...REPORT_KIND_LABELS,
  SAFETY_EVENTS: 'Safety events',
  SAFETY_SCORES: 'Safety scores',
};
/** Kinds whose subscriber also needs SAFETY_LIST. */
export const isSafetyReport = (k: SubscribedReportKind): k is 'SAFETY_EVENTS' | 'SAFETY_SCORES' => k === 'SAFETY_EVENTS' || k === 'SAFETY_SCORES';

/** `organizations/{orgId}/report-subscriptions`: a user's scheduled report, e-mailed as PDF and CSV. */
export const reportSubscriptionInputSchema = z
  .object({
    report: z.enum(SUBSCRIBED_REPORT_KINDS, { error: () => `Report must be one of ${SUBSCRIBED_REPORT_KINDS.join(', ')}` }),
    /** The report's filters without dates: each run covers the period just ended (the day, or the week); `by` for the summary and the safety scores. */
    filters: reportFiltersSchema.omit({ from: true, to: true }).extend(summaryBy).default({}),
    frequency: z.enum(SUBSCRIPTION_FREQUENCIES, { error: () => 'Frequency must be DAILY or WEEKLY' }),
    timeOfDay: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time of day must look like 07:30'),
    /** 1 (Monday) to 7 (Sunday), for WEEKLY. */
    weekday: z
      .number()
      .int()
      .min(1, 'Day of the week must be 1 (Monday) to 7 (Sunday)')
      .max(7, 'Day of the week must be 1 (Monday) to 7 (Sunday)')
      .nullable()
      .optional(),
    /** Defaults to the user's profile zone. */
    timeZone: z.string().max(64).nullable().optional(),
    formats: z.array(z.enum(REPORT_FORMATS)).min(1, 'Choose at least one attachment').default(['pdf', 'csv']),
  })
  .refine((s) => s.frequency !== 'WEEKLY' || (s.weekday ?? null) !== null, { path: ['weekday'], message: 'Day of the week is required for a weekly report' });
export type ReportSubscriptionInput = z.input<typeof reportSubscriptionInputSchema>;

export const reportSubscriptionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  report: z.enum(SUBSCRIBED_REPORT_KINDS),
  filters: reportFiltersSchema.omit({ from: true, to: true }).extend(summaryBy),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES),
  timeOfDay: z.string(),
  weekday: z.number().int().nullable(),
  timeZone: z.string(),
  formats: z.array(z.enum(REPORT_FORMATS)),
  /** The e-mail address the report goes to: the subscriber's. */
  recipient: z.string(),
  lastRunAt: z.string().nullable(),
  nextRunAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReportSubscription = z.infer<typeof reportSubscriptionSchema>;
export const reportSubscriptionPageSchema = pageSchema(reportSubscriptionSchema);
/**
 * The list: the caller's own subscriptions; `all=true` lists everyone's in the organization, for a
 * user who may also list users (USER_LIST), so an administrator can see what is being e-mailed.
 */
export const reportSubscriptionListQuery = pageQuerySchema.extend({ all: z.enum(['true', 'false'], { error: () => 'all must be true or false' }).optional() });
export const reportSubscriptionIdParams = z.object({ orgId: z.uuid(), subscriptionId: z.uuid('subscriptionId must be a subscription id') });
