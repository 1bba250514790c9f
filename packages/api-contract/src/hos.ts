import { z } from 'zod';
import { queryNumber } from './numbers.ts';
import { dayField, ELD_YEARS, instantField } from './dates.ts';
import { RULESET_IDS } from '@fleet/hos/ruleset-facts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { assetRef, driverRef } from './registry-fields.ts';
import { requiredText } from './validation.ts';
import { HOS_EVENT_TYPES } from './hos-codes.ts';

export { HOS_EVENT_TYPES };

// Hours-of-service records (issue 15, decision 0091): the ELD event model of 49 CFR 395 Appendix A
// stored as events; duty periods, clocks and violations derived from the active ones by @fleet/hos.

defineLabels({
  recordedAt: 'Recorded at',
  source: 'Source',
  periods: 'Periods',
  special: 'Special driving category',
  driverId: 'Driver',
  severity: 'Severity',
  rule: 'Rule',
  at: 'Time',
  from: 'From',
  to: 'To',
  date: 'Log day',
  annotation: 'Annotation',
  locationDescription: 'Location',
  declared: 'Deferral declared',
  shippingDocuments: 'Shipping documents',
  trailerIds: 'Trailers',
  coDriverId: 'Co-driver',
  'periods.status': 'Status',
  'periods.start': 'Start',
  'periods.end': 'End',
});

export const DUTY_STATUSES = ['OFF', 'SB', 'D', 'ON'] as const;
/**
 * Special categories of a duty status: personal conveyance (OFF) and yard moves (ON), which an ELD
 * records as event type 3, and a team driver's time in the passenger seat (OFF) next to ≥ 7 h in
 * the sleeper berth (49 CFR 395.1(g)(1): up to 3 h of it counts as rest), and waiting time at an oil
 * or gas well site (OFF, 49 CFR 395.1(d)(2): the annotation that marks it; it is left out of the
 * 14-hour window for a driver with the oilfield exemption, and is plain off duty otherwise).
 */
export const SPECIAL_CATEGORIES = ['PC', 'YM', 'PASSENGER', 'WAITING'] as const;
const specialMessage = 'Special category must be PC, YM, PASSENGER or WAITING';
export const VIOLATION_RULES = [
  'DRIVING_LIMIT',
  'WINDOW_LIMIT',
  'BREAK_REQUIRED',
  'CYCLE_LIMIT',
  'ON_DUTY_LIMIT',
  'SHIFT_ELAPSED_LIMIT',
  'DAILY_DRIVING_LIMIT',
  'DAILY_ON_DUTY_LIMIT',
  'DAILY_OFF_DUTY',
  'CYCLE_OFF_DUTY_REQUIRED',
] as const;
export const SEVERITIES = ['NOMINAL', 'VIOLATION', 'EGREGIOUS'] as const;
/**
 * Rules the engine judges on a whole log day (Canada, SOR/2005-313): s. 14, less than 10 h off in
 * the day; s. 29 / s. 54, a cycle switch declared after too little rest.
 */
export const DAY_FINDING_RULES = ['DAILY_OFF_DUTY', 'CYCLE_SWITCH'] as const;

/** ELD record status (7.23). */
export const HOS_RECORD_STATUSES = { ACTIVE: 1, INACTIVE_CHANGED: 2, INACTIVE_CHANGE_REQUESTED: 3, INACTIVE_CHANGE_REJECTED: 4 } as const;
/** ELD record origin (7.22). */
export const HOS_RECORD_ORIGINS = { AUTOMATIC: 1, DRIVER: 2, OTHER: 3, UNIDENTIFIED: 4 } as const;

export type HosRecordStatus = keyof typeof HOS_RECORD_STATUSES;
export type HosRecordOrigin = keyof typeof HOS_RECORD_ORIGINS;

// Records of duty status are in the years an ELD output file can carry.
const instant = (label: string) => instantField(label, { years: ELD_YEARS });
const day = (label: string) => dayField(label, { years: ELD_YEARS });

// ---------------------------------------------------------------- import

export const HOS_IMPORT_MAX_PERIODS = 5000;

/** One duty-status period to import: sorted, contiguous, not overlapping the driver's records. */
export const hosImportPeriodSchema = z.object({
  status: z.enum(DUTY_STATUSES, { error: () => 'Status must be OFF, SB, D or ON' }),
  start: instant('Start'),
  end: instant('End'),
  special: z.enum(SPECIAL_CATEGORIES, { error: () => specialMessage }).optional(),
});

export const hosImportBodySchema = z.object({
  // "Imported from {source}" is the events' annotation, at most 60 characters (Appendix A 4.5.1).
  source: requiredText('Source', 46),
  periods: z
    .array(hosImportPeriodSchema)
    .min(1, 'Periods must hold at least one period')
    .max(HOS_IMPORT_MAX_PERIODS, `Periods must hold at most ${HOS_IMPORT_MAX_PERIODS} periods`),
});
export type HosImportBody = z.infer<typeof hosImportBodySchema>;

export const hosLogDayRef = z.object({ id: z.string(), date: z.string() });

export const hosImportResultSchema = z.object({
  driverId: z.string(),
  /** Events written (a PC or YM period also writes its special-category events). */
  events: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** The log days the import touched. */
  logs: z.array(hosLogDayRef),
});
export type HosImportResult = z.infer<typeof hosImportResultSchema>;

export const driverHosParams = z.object({ orgId: z.uuid(), driverId: z.uuid('driverId must be a driver id') });
export const hosLogIdParams = z.object({ orgId: z.uuid(), id: z.uuid('id must be a log id') });

// ---------------------------------------------------------------- clocks and violations

export const hosClocksSchema = z.object({
  driveMs: z.number(),
  windowMs: z.number(),
  breakMs: z.number().nullable(),
  cycleMs: z.number(),
});

export const violationSchema = z.object({
  driver: driverRef,
  rule: z.enum(VIOLATION_RULES),
  start: z.string(),
  end: z.string(),
  durationMs: z.number(),
  severity: z.enum(SEVERITIES),
  /** Log day of the violation's start in the driver's home-terminal zone. */
  logDate: z.string(),
  ruleset: z.enum(RULESET_IDS),
  /** The driver's home-terminal zone: the log day's zone, in which the screens show start and end (decision 0140). */
  timeZone: z.string(),
  /** The log day's id (the `{id}` of `hos_log/{id}`), to open the day at the violation. */
  logId: z.string(),
  /**
   * null for driving past a limit. A number for a finding of a whole log day (Canada, s. 14: less
   * than 10 h off in the day, whatever work took the time): how much the day fell short, in ms;
   * `start`/`end` are then the day's bounds and `durationMs` and `severity` measure the shortfall.
   */
  shortMs: z.number().nullable(),
});
export type HosViolation = z.infer<typeof violationSchema>;
export const violationPageSchema = pageSchema(violationSchema);

/** A finding of one log day (engine `DayFinding`): the rule, the day (YYYY-MM-DD) and how much it fell short (ms). */
export const hosDayFindingSchema = z.object({ rule: z.enum(DAY_FINDING_RULES), day: z.string(), shortMs: z.number() });
export type HosDayFinding = z.infer<typeof hosDayFindingSchema>;

export const VIOLATIONS_MAX_RANGE_DAYS = 31;

export const violationsQuery = pageQuerySchema.omit({ search: true }).extend({
  from: instant('From').optional(),
  to: instant('To').optional(),
  driverId: z.uuid('driverId must be a driver id').optional(),
  rule: z.enum(VIOLATION_RULES, { error: () => `Rule must be one of ${VIOLATION_RULES.join(', ')}` }).optional(),
  severity: z.enum(SEVERITIES, { error: () => 'Severity must be NOMINAL, VIOLATION or EGREGIOUS' }).optional(),
  /** Only the drivers of this group (the dashboard's counters link here with their group). */
  groupId: z.uuid('groupId must be a group id').optional(),
});

// ---------------------------------------------------------------- availability

export const availabilitySchema = z.object({
  driver: driverRef,
  vehicle: assetRef.nullable(),
  ruleset: z.enum(RULESET_IDS),
  /** The driver's home-terminal zone, in which the screens show `since` and the restart (decision 0140). */
  timeZone: z.string(),
  /** Duty status at `at`; null when the driver has no records before it. */
  status: z.enum(DUTY_STATUSES).nullable(),
  special: z.enum(SPECIAL_CATEGORIES).nullable(),
  since: z.string().nullable(),
  strict: hosClocksSchema,
  provisional: hosClocksSchema,
  cycleUsedMs: z.number(),
  /** When a 34-hour restart would complete if the driver went (or stayed) off duty now; null where the ruleset has none. */
  restartCompleteAt: z.string().nullable(),
  /** Driving time available now: the smallest strict clock. */
  availableDriveMs: z.number(),
});
export type Availability = z.infer<typeof availabilitySchema>;
export const availabilityPageSchema = pageSchema(availabilitySchema);
export const AVAILABILITY_SORT_FIELDS = ['lastName', 'availableDriveMs', 'cycleUsedMs'] as const;

/** The dashboard's driver counters, as availability filters: duty status now, and driving time left. */
export const AVAILABILITY_DUTY_FILTERS = ['DRIVING', 'ON_DUTY', 'OFF_DUTY'] as const;

export const availabilityQuery = pageQuerySchema.extend({
  at: instant('At').optional(),
  groupId: z.uuid('groupId must be a group id').optional(),
  /** DRIVING (status D), ON_DUTY (ON), OFF_DUTY (OFF, SB or no records). */
  duty: z.enum(AVAILABILITY_DUTY_FILTERS, { error: () => 'duty must be DRIVING, ON_DUTY or OFF_DUTY' }).optional(),
  /** Only drivers with less driving time available than this many minutes. */
  underMinutes: queryNumber(z.number().int().min(1, 'underMinutes must be at least 1').max(6000, 'underMinutes must be at most 6000')).optional(),
});

// ---------------------------------------------------------------- log day

export const hosEventSchema = z.object({
  id: z.string(),
  sequenceId: z.number().int(),
  eventType: z.number().int(),
  eventCode: z.number().int(),
  /** Duty status (type 1) or special category (type 3, null when cleared) in words. */
  status: z.enum(DUTY_STATUSES).nullable(),
  special: z.enum(SPECIAL_CATEGORIES).nullable(),
  recordStatus: z.enum(Object.keys(HOS_RECORD_STATUSES) as [HosRecordStatus, ...HosRecordStatus[]]),
  recordOrigin: z.enum(Object.keys(HOS_RECORD_ORIGINS) as [HosRecordOrigin, ...HosRecordOrigin[]]),
  at: z.string(),
  logDate: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  locationDescription: z.string().nullable(),
  vehicle: assetRef.nullable(),
  odometerM: z.number().nullable(),
  engineHours: z.number().nullable(),
  /**
   * On the log day's records of a vehicle: the distance (metres) and engine hours (tenths, rounded
   * down) since that vehicle's last engine power-up, null each without the totals (decision 0155).
   */
  sincePowerUp: z.object({ distanceM: z.number().nullable(), engineHours: z.number().nullable() }).nullable().optional(),
  annotation: z.string().nullable(),
  replacesEventId: z.string().nullable(),
  /**
   * The edit request (proposal) the record belongs to (decision 0112): with record status
   * INACTIVE_CHANGE_REQUESTED it waits for the driver, INACTIVE_CHANGE_REJECTED the driver refused it,
   * ACTIVE the driver accepted it. Null for records that were never proposed.
   */
  editRequestId: z.string().nullable(),
  createdAt: z.string(),
});
export type HosEvent = z.infer<typeof hosEventSchema>;

/** Malfunction (Table 4 letters) and data diagnostic (digits) codes of Appendix A 4.6, in words. */
export const ELD_DIAGNOSTIC_NAMES: Record<string, string> = {
  P: 'Power compliance malfunction',
  E: 'Engine synchronization compliance malfunction',
  T: 'Timing compliance malfunction',
  L: 'Positioning compliance malfunction',
  R: 'Data recording compliance malfunction',
  S: 'Data transfer compliance malfunction',
  O: 'Other ELD-detected malfunction',
  '1': 'Power data diagnostic',
  '2': 'Engine synchronization data diagnostic',
  '3': 'Missing required data elements data diagnostic',
  '4': 'Data transfer data diagnostic',
  '5': 'Unidentified driving records data diagnostic',
  '6': 'Other ELD-identified diagnostic',
};

/**
 * A malfunction or data diagnostic of a vehicle's ELD, from its logged event (type 7, code 1 or 3)
 * to its cleared event (code 2 or 4); `clearedAt` null while it is still in force.
 */
export const hosDiagnosticSchema = z.object({
  id: z.string(),
  vehicle: assetRef.nullable(),
  /** The driver whose ELD recorded it: the data transfer codes 4 and S (decision 0185); null for a vehicle's. */
  driver: driverRef.nullable(),
  kind: z.enum(['MALFUNCTION', 'DIAGNOSTIC']),
  /** Table 4: P, E, T, L, R, S, O (malfunctions) or 1-6 (data diagnostics). */
  code: z.string(),
  name: z.string(),
  loggedAt: z.string(),
  clearedAt: z.string().nullable(),
  active: z.boolean(),
  /** Why it was logged, in words (e.g. "74 min of driving without a position in 24 h"). */
  detail: z.string().nullable(),
});
export type HosDiagnostic = z.infer<typeof hosDiagnosticSchema>;

export const hosSegmentSchema = z.object({
  status: z.enum(DUTY_STATUSES),
  special: z.enum(SPECIAL_CATEGORIES).nullable(),
  start: z.string(),
  end: z.string(),
});

export const hosDayTotalsSchema = z.object({
  /** Length of the log day (23 or 25 h on DST changes); OFF + SB + D + ON always add up to it. */
  lengthMs: z.number(),
  OFF: z.number(),
  SB: z.number(),
  D: z.number(),
  ON: z.number(),
  /** Part of the day before the driver's first record: not covered by any record, counted in OFF. */
  uncoveredMs: z.number(),
  /** Part of the running day after now (0 for an ended day): OFF + SB + D + ON + pendingMs = lengthMs. */
  pendingMs: z.number(),
});

export const hosLogDaySchema = z.object({
  id: z.string(),
  header: z.object({
    date: z.string(),
    carrier: z.object({ name: z.string(), mainOffice: z.string().nullable(), dotNumber: z.string().nullable() }),
    homeTerminal: z.string().nullable(),
    driver: driverRef,
    coDriver: driverRef.nullable(),
    vehicles: z.array(assetRef),
    trailers: z.array(assetRef),
    shippingDocuments: z.array(z.string()),
    /** Metres between the day's first and last odometer readings; null without readings. */
    totalDistanceM: z.number().nullable(),
    startOdometerM: z.number().nullable(),
    endOdometerM: z.number().nullable(),
    timeZone: z.string(),
    /** The carrier's 24-hour period starting time, HH:mm. */
    periodStart: z.string(),
    ruleset: z.enum(RULESET_IDS),
  }),
  dayStart: z.string(),
  dayEnd: z.string(),
  segments: z.array(hosSegmentSchema),
  totals: hosDayTotalsSchema,
  /** The day's events in time order, versions included: an inactive-changed version is linked from its successor's `replacesEventId`. */
  events: z.array(hosEventSchema),
  violations: z.array(violationSchema.omit({ driver: true, logId: true, timeZone: true, shortMs: true })),
  /** The day's own findings (Canada, s. 14): a day short of its off-duty time, with or without driving past a limit. */
  dayFindings: z.array(hosDayFindingSchema),
  /**
   * The day's personal conveyance by the odometers (issue 72, decision 0319): km driven, and on
   * Canadian rules the km beyond the 75 a day of SOR/2005-313 s. 2(1)(e)(iii), counted as driving
   * (`limitKm` null on other rules). Null when the day has no PC with odometer readings.
   */
  personalConveyance: z.object({ km: z.number(), overKm: z.number(), limitKm: z.number().nullable() }).nullable().optional(),
  /** `count`: certifications of the day so far; an edit after one clears `certified`, asking for the next (decision 0112). */
  certification: z.object({ certified: z.boolean(), certifiedAt: z.string().nullable(), count: z.number().int() }),
  /** Canada (C6): the driver declared this day "day 1" of an off-duty deferral (the next day is its day 2). */
  deferral: z.object({ declared: z.boolean(), declaredAt: z.string().nullable() }),
  /** Malfunctions and data diagnostics of the day's vehicles in force during the day (decision 0114). */
  diagnostics: z.array(hosDiagnosticSchema),
  /** The driver's day before (null before their first record) and after (null after today), to page through the log. */
  previous: hosLogDayRef.nullable(),
  next: hosLogDayRef.nullable(),
});
export type HosLogDay = z.infer<typeof hosLogDaySchema>;

export const hosLogListQuery = pageQuerySchema.extend({
  date: day('Log day'),
  groupId: z.uuid('groupId must be a group id').optional(),
  /** Only the rows with this form-and-manner problem (UNCERTIFIED, NO_SHIPPING_DOCUMENT, NO_TRAILER). */
  problem: z
    .enum(['UNCERTIFIED', 'NO_SHIPPING_DOCUMENT', 'NO_TRAILER'], { error: () => 'problem must be UNCERTIFIED, NO_SHIPPING_DOCUMENT or NO_TRAILER' })
    .optional(),
});

/** Form-and-manner problems of a log day (§395.8): a past day not certified, a driving day without shipping document or trailer. */
export const HOS_LOG_PROBLEMS = ['UNCERTIFIED', 'NO_SHIPPING_DOCUMENT', 'NO_TRAILER'] as const;

export const hosLogRowSchema = z.object({
  driver: driverRef,
  date: z.string(),
  /** The log row's id (the `{id}` of the log day); null when the driver has no records that day yet. */
  logId: z.string().nullable(),
  vehicles: z.array(assetRef),
  totals: hosDayTotalsSchema,
  distanceM: z.number().nullable(),
  violationCount: z.number().int(),
  certified: z.boolean(),
  lastEvent: z.object({ at: z.string(), status: z.enum(DUTY_STATUSES) }).nullable(),
  problems: z.array(z.enum(HOS_LOG_PROBLEMS)),
  /** The driver's home-terminal zone, the log day's (decision 0140). */
  timeZone: z.string(),
});
export type HosLogRow = z.infer<typeof hosLogRowSchema>;
export const hosLogPageSchema = pageSchema(hosLogRowSchema);

// ---------------------------------------------------------------- events

export const hosEventParams = z.object({
  orgId: z.uuid(),
  driverId: z.uuid('driverId must be a driver id'),
  logId: z.uuid('logId must be a log id'),
  eventId: z.uuid('eventId must be an event id'),
});

export const hosLogParams = z.object({
  orgId: z.uuid(),
  driverId: z.uuid('driverId must be a driver id'),
  logId: z.uuid('logId must be a log id'),
});

const annotation = z
  .string({ error: () => 'Annotation is a required field' })
  .trim()
  .min(4, 'Annotation must be at least 4 characters')
  .max(60, 'Annotation must be at most 60 characters');
const locationDescription = z
  .string()
  .trim()
  .max(60, 'Location must be at most 60 characters')
  .nullish()
  .transform((v) => v || null);

/** An edit of a duty-status event: a new version; the original is kept inactive-changed. */
export const hosEventEditSchema = z.object({
  status: z.enum(DUTY_STATUSES, { error: () => 'Status must be OFF, SB, D or ON' }),
  at: instant('Time'),
  annotation,
  locationDescription,
});
export type HosEventEdit = z.output<typeof hosEventEditSchema>;

/**
 * A duty-status change entered into a driver's records: by the driver (origin driver, at once; now
 * when `at` is left out) or by an office user (origin other user, a proposal the driver accepts or
 * rejects, decision 0112). It lasts until the driver's next recorded status. PC and PASSENGER only
 * with OFF, YM only with ON, PC and YM each only when the driver record allows it. Without a location description one is
 * computed from latitude/longitude.
 */
export const hosEventCreateSchema = z.object({
  status: z.enum(DUTY_STATUSES, { error: () => 'Status must be OFF, SB, D or ON' }),
  special: z
    .enum(SPECIAL_CATEGORIES, { error: () => specialMessage })
    .nullish()
    .transform((v) => v ?? null),
  /** Required from an office user; a driver's change without it happens now (decision 0112). */
  at: instant('Time')
    .nullish()
    .transform((v) => v ?? null),
  /** Required (4-60) for an office user's proposal and a driver's entry in the past; a note on a driver's change now may be left out. */
  annotation: z
    .string({ error: () => 'Annotation must be text' })
    .trim()
    .max(60, 'Annotation must be at most 60 characters')
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || v.length >= 4, 'Annotation must be at least 4 characters'),
  latitude: z
    .number({ error: () => 'Latitude must be a number' })
    .min(-90, 'Latitude must be between -90 and 90')
    .max(90, 'Latitude must be between -90 and 90')
    .nullish()
    .transform((v) => v ?? null),
  longitude: z
    .number({ error: () => 'Longitude must be a number' })
    .min(-180, 'Longitude must be between -180 and 180')
    .max(180, 'Longitude must be between -180 and 180')
    .nullish()
    .transform((v) => v ?? null),
  locationDescription,
  /**
   * A driver's change now, made on a phone without signal and sent later (issue 44, decision 0184):
   * the instant the driver made it, where it is stored. Not in the future (a minute of clock skew is
   * forgiven) and not before the driver's last certified day.
   */
  recordedAt: instant('Recorded at')
    .nullish()
    .transform((v) => v ?? null),
});
export type HosEventCreate = z.output<typeof hosEventCreateSchema>;

export const hosEventDetailSchema = hosEventSchema.extend({
  /** Earlier versions this event replaced, newest first. */
  versions: z.array(hosEventSchema),
});
export type HosEventDetail = z.infer<typeof hosEventDetailSchema>;

// ---------------------------------------------------------------- a driver's days

/** A sign-in account's driver (the spec's `users/{userId}/hos_log/...` paths). */
export const userHosParams = z.object({ orgId: z.uuid(), userId: z.uuid('userId must be a user id') });
export const userHosLogParams = userHosParams.extend({ logId: z.uuid('logId must be a log id') });
export const userHosEventParams = userHosLogParams.extend({ eventId: z.uuid('eventId must be an event id') });

export const HOS_PERIOD_MAX_DAYS = 31;

export const hosPeriodQuery = z.object({ from: day('From'), to: day('To') });

export const hosPeriodDaySchema = z.object({
  id: z.string(),
  date: z.string(),
  totals: hosDayTotalsSchema,
  violationCount: z.number().int(),
  certified: z.boolean(),
});

export const hosPeriodSchema = z.object({
  driver: driverRef,
  from: z.string(),
  to: z.string(),
  /** The driver's log days in the range, oldest first: every begun day from their first record on, and any day with a log row. */
  days: z.array(hosPeriodDaySchema),
});
export type HosPeriod = z.infer<typeof hosPeriodSchema>;

/** Canada (C6): declare or withdraw a log day as "day 1" of an off-duty deferral. */
export const hosDeferralSchema = z.object({ declared: z.boolean({ error: () => 'Deferral declared must be true or false' }) });
export type HosDeferral = z.infer<typeof hosDeferralSchema>;

export const HOS_LOG_MAX_SHIPPING_DOCUMENTS = 10;
export const HOS_LOG_MAX_TRAILERS = 5;

/** The log header facts a person enters (§395.8(d)): shipping documents, trailers, co-driver. */
export const hosLogHeaderSchema = z.object({
  shippingDocuments: z
    .array(
      z
        .string({ error: () => 'Shipping document must be text' })
        .trim()
        .min(1, 'Shipping document must not be empty')
        .max(40, 'Shipping document must be at most 40 characters'),
      {
        error: () => 'Shipping documents must be a list',
      },
    )
    .max(HOS_LOG_MAX_SHIPPING_DOCUMENTS, `Shipping documents may hold at most ${HOS_LOG_MAX_SHIPPING_DOCUMENTS} entries`),
  trailerIds: z
    .array(z.uuid('Trailer must be a trailer id'), { error: () => 'Trailers must be a list' })
    .max(HOS_LOG_MAX_TRAILERS, `Trailers may hold at most ${HOS_LOG_MAX_TRAILERS} entries`),
  coDriverId: z.uuid('Co-driver must be a driver id').nullable(),
});
export type HosLogHeader = z.infer<typeof hosLogHeaderSchema>;
