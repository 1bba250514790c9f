import { z } from 'zod';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { KM_PER_MILE } from './units.ts';

// Driver safety (issue 47, decisions 0194 and 0195): harsh driving, speeding against the posted limit,
// the fleet's maximum speed, idling, crashes, towing and jamming, derived from every source by a follower
// of the position commit; scores per driver and vehicle (`100 - Σ weight × events per 1,000 mi` plus
// speeding by its share of driving time, floored at 0, none under 100 mi) that explain themselves down
// to the events; and a coaching loop (review, coach, acknowledge, dispute). Speeds are km/h and
// distances km in the API, as everywhere; `miles` is the one exception, because the score is defined
// per 1,000 miles whatever the organization's units. Screens convert by the organization's unit system.

defineLabels({ coachId: 'Coach', groupBy: 'Per', disputeNote: 'Dispute note' });
// The settings' fields, so a 400 names what the manager typed (thresholds.LIGHT.gps.braking: "Braking").
defineLabels({
  thresholds: 'Harsh-event thresholds',
  accelerometer: 'Device accelerometer',
  gps: 'Estimated from GPS',
  acceleration: 'Acceleration',
  braking: 'Braking',
  cornering: 'Cornering',
  LIGHT: 'Light vehicles',
  MEDIUM: 'Medium vehicles',
  HEAVY: 'Heavy vehicles',
  speeding: 'Speeding',
  toleranceKph: 'Speeding tolerance',
  minSeconds: 'Minimum speeding time',
  bands: 'Speeding bands',
  fleetMaxSpeedKph: 'Fleet maximum speed',
  idlingMinutes: 'Idling after',
  excludeYards: 'Not at yards',
  weights: 'Score weights',
  windowWeeks: 'Score period',
  vehicleClass: 'Vehicle class',
  vehicleClasses: 'Vehicle classes',
  defaultVehicleClass: 'Default vehicle class',
  MODERATE: 'Moderate',
  SEVERE: 'Severe',
});

export const SAFETY_EVENT_TYPES = [
  'HARSH_ACCELERATION',
  'HARSH_BRAKING',
  'HARSH_CORNERING',
  'SPEEDING',
  'MAX_SPEED',
  'IDLING',
  'CRASH',
  'TOWING',
  'JAMMING',
] as const;
export type SafetyEventType = (typeof SAFETY_EVENT_TYPES)[number];
export const SAFETY_EVENT_TYPE_LABELS: Record<SafetyEventType, string> = {
  HARSH_ACCELERATION: 'Harsh acceleration',
  HARSH_BRAKING: 'Harsh braking',
  HARSH_CORNERING: 'Harsh cornering',
  SPEEDING: 'Speeding',
  MAX_SPEED: 'Over the fleet maximum speed',
  IDLING: 'Idling',
  CRASH: 'Crash',
  TOWING: 'Towing',
  JAMMING: 'GPS/GSM jamming',
};

/** NEW: needs review (the safety inbox). The others are what a reviewer sets (PATCH). */
export const SAFETY_STATUSES = ['NEW', 'DISMISSED', 'NEEDS_COACHING', 'COACHED', 'RECOGNISED', 'DEFENSIVE'] as const;
export type SafetyStatus = (typeof SAFETY_STATUSES)[number];
export const SAFETY_REVIEW_STATUSES = ['DISMISSED', 'NEEDS_COACHING', 'COACHED', 'RECOGNISED', 'DEFENSIVE'] as const;
export type SafetyReviewStatus = (typeof SAFETY_REVIEW_STATUSES)[number];
export const SAFETY_STATUS_LABELS: Record<SafetyStatus, string> = {
  NEW: 'Needs review',
  DISMISSED: 'Dismissed',
  NEEDS_COACHING: 'Needs coaching',
  COACHED: 'Coached',
  RECOGNISED: 'Recognised',
  DEFENSIVE: 'Defensive driving',
};
/** Statuses whose events leave the score (decision 0195): dismissed, and defensive driving. */
export const SAFETY_STATUSES_OUT_OF_SCORE: readonly SafetyStatus[] = ['DISMISSED', 'DEFENSIVE'];

export const SAFETY_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type SafetySeverity = (typeof SAFETY_SEVERITIES)[number];
export const SAFETY_SEVERITY_LABELS: Record<SafetySeverity, string> = { LOW: 'Low', MEDIUM: 'Medium', HIGH: 'High', CRITICAL: 'Critical' };

/** Where an event came from; every event says it. */
export const SAFETY_SOURCES = ['DEVICE', 'TRACCAR', 'GPS_ESTIMATED', 'POSTED_LIMIT', 'FLEET_MAXIMUM', 'ENGINE'] as const;
export type SafetySource = (typeof SAFETY_SOURCES)[number];
export const SAFETY_SOURCE_LABELS: Record<SafetySource, string> = {
  DEVICE: 'Device accelerometer',
  TRACCAR: 'Traccar alarm',
  GPS_ESTIMATED: 'Estimated from GPS',
  POSTED_LIMIT: 'Posted speed limit',
  FLEET_MAXIMUM: 'Fleet maximum speed',
  ENGINE: 'Engine (ignition and speed)',
};

/** Speeding bands by how far over the limit (thresholds in the settings). */
export const SPEEDING_BANDS = ['LIGHT', 'MODERATE', 'HEAVY', 'SEVERE'] as const;
export type SpeedingBand = (typeof SPEEDING_BANDS)[number];
export const SPEEDING_BAND_LABELS: Record<SpeedingBand, string> = { LIGHT: 'Light', MODERATE: 'Moderate', HEAVY: 'Heavy', SEVERE: 'Severe' };

/**
 * What a score weighs: each event type counted per 1,000 miles, except speeding, which counts by band as
 * a share of driving time (percent).
 */
export const SAFETY_BEHAVIOURS = [
  'HARSH_ACCELERATION',
  'HARSH_BRAKING',
  'HARSH_CORNERING',
  'SPEEDING_LIGHT',
  'SPEEDING_MODERATE',
  'SPEEDING_HEAVY',
  'SPEEDING_SEVERE',
  'MAX_SPEED',
  'IDLING',
  'CRASH',
  'TOWING',
  'JAMMING',
] as const;
export type SafetyBehaviour = (typeof SAFETY_BEHAVIOURS)[number];
export const SAFETY_BEHAVIOUR_LABELS: Record<SafetyBehaviour, string> = {
  HARSH_ACCELERATION: 'Harsh acceleration',
  HARSH_BRAKING: 'Harsh braking',
  HARSH_CORNERING: 'Harsh cornering',
  SPEEDING_LIGHT: 'Light speeding',
  SPEEDING_MODERATE: 'Moderate speeding',
  SPEEDING_HEAVY: 'Heavy speeding',
  SPEEDING_SEVERE: 'Severe speeding',
  MAX_SPEED: 'Over the fleet maximum speed',
  IDLING: 'Idling',
  CRASH: 'Crash',
  TOWING: 'Towing',
  JAMMING: 'GPS/GSM jamming',
};
// A weight's field is its behaviour: a 400 names it as the screens do.
defineLabels(SAFETY_BEHAVIOUR_LABELS);
/** How a behaviour is rated: events per 1,000 miles, or percent of driving time (speeding bands). */
export type SafetyBehaviourBasis = 'PER_1000_MI' | 'PERCENT_OF_DRIVING_TIME';
export const safetyBehaviourBasis = (b: SafetyBehaviour): SafetyBehaviourBasis => (b.startsWith('SPEEDING_') ? 'PERCENT_OF_DRIVING_TIME' : 'PER_1000_MI');
export const speedingBehaviour = (band: SpeedingBand): SafetyBehaviour => `SPEEDING_${band}` as SafetyBehaviour;

/** Vehicle classes thresholds are set for (GVWR classes 1-2, 3-6, 7-8). */
export const SAFETY_VEHICLE_CLASSES = ['LIGHT', 'MEDIUM', 'HEAVY'] as const;
export type SafetyVehicleClass = (typeof SAFETY_VEHICLE_CLASSES)[number];
export const SAFETY_VEHICLE_CLASS_LABELS: Record<SafetyVehicleClass, string> = {
  LIGHT: 'Light duty (classes 1-2: pickups, vans)',
  MEDIUM: 'Medium duty (classes 3-6: box trucks)',
  HEAVY: 'Heavy duty (classes 7-8: tractors)',
};

/** A score is not shown for less than this many miles driven in the period. */
export const SAFETY_MIN_SCORE_MILES = 100;
export const SAFETY_COACHING_DUE_DAYS = 14;
/** The trace of an event: the positions this many seconds before its start and after its end. */
export const SAFETY_TRACE_SECONDS = 60;
export const SAFETY_TREND_WEEKS = 12;

const mph = (v: number) => Math.round(v * KM_PER_MILE * 1000) / 1000;

// ---------------------------------------------------------------------------------------------------
// Events

/** One change of an event's review status (or the driver's acknowledgement or dispute). */
export const safetyEventHistorySchema = z.object({
  at: z.string(),
  /** REVIEW (a status set), ACKNOWLEDGED (by the driver), DISPUTED (by the driver). */
  action: z.enum(['REVIEW', 'ACKNOWLEDGED', 'DISPUTED']),
  status: z.enum(SAFETY_STATUSES),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  note: z.string().nullable(),
});
export type SafetyEventHistory = z.infer<typeof safetyEventHistorySchema>;

export const safetyEventSchema = z.object({
  id: z.string(),
  type: z.enum(SAFETY_EVENT_TYPES),
  severity: z.enum(SAFETY_SEVERITIES),
  status: z.enum(SAFETY_STATUSES),
  source: z.enum(SAFETY_SOURCES),
  /** The source in words (SAFETY_SOURCE_LABELS). */
  sourceLabel: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  durationS: z.number().int(),
  /** The driver at the time (their duty or vehicle assignment), null when nobody was assigned. */
  driverId: z.string().nullable(),
  driverName: z.string().nullable(),
  assetId: z.string(),
  /** The vehicle's unit number. */
  assetName: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** Where, in words: the place the vehicle was at, else the nearest locality ("near Joliet, IL"). */
  place: z.string().nullable(),
  /** km/h at the start (harsh events: just before) and at the end (just after); max over the episode. */
  speedBeforeKph: z.number().nullable(),
  speedAfterKph: z.number().nullable(),
  maxSpeedKph: z.number().nullable(),
  /**
   * The limit the speed was judged against (SPEEDING: posted or default, on the stretch that set the
   * band; MAX_SPEED: the fleet's).
   */
  limitKph: z.number().nullable(),
  /** Where the limit comes from ("OSM maxspeed", "Illinois default, rural interstate, trucks"). */
  limitSource: z.string().nullable(),
  /**
   * SPEEDING: the speed held on the stretch that set the band, over `limitKph` ("72 mph in a 60 mph
   * zone" while the top speed was elsewhere); null on other events and on events recorded before it.
   */
  heldSpeedKph: z.number().nullable(),
  band: z.enum(SPEEDING_BANDS).nullable(),
  /** Harsh events: the acceleration in m/s² (positive), where the device or the fixes give it. */
  strengthMps2: z.number().nullable(),
  /** Idling: litres burned, where the engine reports fuel used. */
  fuelBurnedL: z.number().nullable(),
  coachId: z.string().nullable(),
  coachName: z.string().nullable(),
  /** NEEDS_COACHING: when the coaching is due (14 days after it was asked for). */
  dueAt: z.string().nullable(),
  /** The reviewer's latest note. */
  note: z.string().nullable(),
  /** When the driver acknowledged the coaching session. */
  acknowledgedAt: z.string().nullable(),
  disputeNote: z.string().nullable(),
  disputedAt: z.string().nullable(),
  /** Whether it counts in the score (not dismissed, not defensive, and of a weighed behaviour). */
  countsInScore: z.boolean(),
  history: z.array(safetyEventHistorySchema),
  createdAt: z.string(),
});
export type SafetyEvent = z.infer<typeof safetyEventSchema>;
export const safetyEventPageSchema = pageSchema(safetyEventSchema);

/** One position around an event (its speed trace). */
export const safetyTracePointSchema = z.object({
  at: z.string(),
  lat: z.number(),
  lon: z.number(),
  speedKph: z.number().nullable(),
  /** The posted or default limit there, where the dataset has one. */
  limitKph: z.number().nullable(),
});
export type SafetyTracePoint = z.infer<typeof safetyTracePointSchema>;
export const safetyEventDetailSchema = safetyEventSchema.extend({ trace: z.array(safetyTracePointSchema) });
export type SafetyEventDetail = z.infer<typeof safetyEventDetailSchema>;

/** Parses `a,b` (or one value) into a list of enum values, 400 naming the field otherwise. */
function enumList<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z
    .string()
    .transform((v, ctx) => {
      const parts = v
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      const bad = parts.filter((p) => !(values as readonly string[]).includes(p));
      if (bad.length > 0 || parts.length === 0) {
        ctx.addIssue({ code: 'custom', message: `${label} must be one or more of ${values.join(', ')} (comma-separated)` });
        return z.NEVER;
      }
      return parts as T[number][];
    })
    .optional();
}

export const SAFETY_EVENT_SORT_FIELDS = ['severity', 'startedAt', 'type', 'status', 'durationS'] as const;

/** `GET .../safety/events`: a page, severity first then newest unless `sort` says otherwise. `from`/`to` bound the start time. */
export const safetyEventListQuery = pageQuerySchema.extend({
  from: instantField('from').optional(),
  to: instantField('to').optional(),
  driverId: z.uuid('driverId must be a driver id').optional(),
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  groupId: z.uuid('groupId must be a group id').optional(),
  type: enumList('type', SAFETY_EVENT_TYPES),
  status: enumList('status', SAFETY_STATUSES),
  severity: enumList('severity', SAFETY_SEVERITIES),
});
export type SafetyEventListQuery = z.input<typeof safetyEventListQuery>;
export const safetyEventIdParams = z.object({ orgId: z.uuid(), eventId: z.uuid('eventId must be a safety event id') });

const noteText = (label: string) =>
  z
    .string({ error: () => `${label} must be text` })
    .trim()
    .max(2000, `${label} must be at most 2000 characters`);

/** `PATCH .../safety/events/{id}`: a review. NEEDS_COACHING needs a coach (a user of the organization); due in 14 days. */
export const safetyEventReviewSchema = z
  .object({
    status: z.enum(SAFETY_REVIEW_STATUSES, { error: () => `status must be one of ${SAFETY_REVIEW_STATUSES.join(', ')}` }),
    note: noteText('Note').nullish(),
    coachId: z.uuid('Coach must be a user id').nullish(),
  })
  .refine((v) => v.status !== 'NEEDS_COACHING' || !!v.coachId, { path: ['coachId'], message: 'Coach is required when the event needs coaching' });
export type SafetyEventReview = z.input<typeof safetyEventReviewSchema>;

/**
 * `GET .../safety/coaches`: who may be asked to coach (issue 66): the active users of the organization
 * holding SAFETY_UPDATE ("Review and coach"), by name; never a driver.
 */
export const safetyCoachSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type SafetyCoach = z.infer<typeof safetyCoachSchema>;
export const safetyCoachListSchema = z.array(safetyCoachSchema);

/** `POST .../safety/events/{id}/acknowledge` (the driver, after the coaching session). */
export const safetyAcknowledgeSchema = z.object({ note: noteText('Note').nullish() }).default({});
export type SafetyAcknowledge = z.input<typeof safetyAcknowledgeSchema>;
/** `POST .../safety/events/{id}/dispute` (the driver). */
export const safetyDisputeSchema = z.object({ note: noteText('Note').min(1, 'Note is a required field') });
export type SafetyDispute = z.input<typeof safetyDisputeSchema>;

// ---------------------------------------------------------------------------------------------------
// Scores

export const SAFETY_GROUP_BY = ['driver', 'vehicle'] as const;
export type SafetyGroupBy = (typeof SAFETY_GROUP_BY)[number];

/** `from`/`to` default to the rolling window (the settings' weeks, 4) ending now. */
export const safetyPeriodQuery = z.object({
  from: instantField('from').optional(),
  to: instantField('to').optional(),
});
export const safetyScoresQuery = safetyPeriodQuery.extend({
  groupBy: z.enum(SAFETY_GROUP_BY, { error: () => 'groupBy must be driver or vehicle' }).default('driver'),
  groupId: z.uuid('groupId must be a group id').optional(),
});
export type SafetyScoresQuery = z.input<typeof safetyScoresQuery>;
export const safetyDriverScoreParams = z.object({ orgId: z.uuid(), driverId: z.uuid('driverId must be a driver id') });
export const safetyVehicleScoreParams = z.object({ orgId: z.uuid(), assetId: z.uuid('assetId must be a vehicle id') });

/** One behaviour's share of a score. */
export const safetyBehaviourScoreSchema = z.object({
  behaviour: z.enum(SAFETY_BEHAVIOURS),
  label: z.string(),
  basis: z.enum(['PER_1000_MI', 'PERCENT_OF_DRIVING_TIME']),
  /** Events counted (speeding bands: episodes in that band). */
  events: z.number().int(),
  /** Speeding bands: seconds spent in the band. */
  seconds: z.number().int(),
  /** Events per 1,000 mi, or percent of driving time. */
  rate: z.number(),
  weight: z.number(),
  /** weight × rate. */
  points: z.number(),
});
export type SafetyBehaviourScore = z.infer<typeof safetyBehaviourScoreSchema>;

export const safetyScoreRowSchema = z.object({
  /** The driver's or the vehicle's id. */
  id: z.string(),
  /** The driver's name or the vehicle's unit number. */
  name: z.string(),
  /** 0-100; null under 100 miles. */
  score: z.number().nullable(),
  miles: z.number(),
  distanceKm: z.number(),
  drivingSeconds: z.number().int(),
  /** Events counting in the score. */
  events: z.number().int(),
  /** Seconds over the limit + tolerance, and their share of driving time (0-1). */
  speedingSeconds: z.number().int(),
  speedingShare: z.number(),
  /** Total points lost (before flooring at 0). */
  pointsLost: z.number(),
  /** Every behaviour with a weight or an event. */
  behaviours: z.array(safetyBehaviourScoreSchema),
  /** Events waiting for review, and coaching asked for and not yet coached. */
  newEvents: z.number().int(),
  openCoaching: z.number().int(),
});
export type SafetyScoreRow = z.infer<typeof safetyScoreRowSchema>;

export const SAFETY_SCORE_BUCKETS = [
  { from: 90, to: 100, label: '90-100' },
  { from: 80, to: 90, label: '80-89' },
  { from: 70, to: 80, label: '70-79' },
  { from: 60, to: 70, label: '60-69' },
  { from: 0, to: 60, label: 'Under 60' },
] as const;

export const safetyFleetScoreSchema = z.object({
  /** The fleet's score: the formula on the whole fleet's events and miles (null under 100 mi). */
  score: z.number().nullable(),
  miles: z.number(),
  drivingSeconds: z.number().int(),
  /** Rows with a score, and rows under 100 miles. */
  scored: z.number().int(),
  unscored: z.number().int(),
  /** How many scored rows fall in each bucket (`from` ≤ score < `to`, 100 in the top bucket). */
  distribution: z.array(z.object({ label: z.string(), from: z.number(), to: z.number(), count: z.number().int() })),
});
export type SafetyFleetScore = z.infer<typeof safetyFleetScoreSchema>;

export const safetyScoresSchema = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(SAFETY_GROUP_BY),
  fleet: safetyFleetScoreSchema,
  /** Lowest score first (unscored rows last). */
  rows: z.array(safetyScoreRowSchema),
});
export type SafetyScores = z.infer<typeof safetyScoresSchema>;

/** An event as listed under the points it cost. */
export const safetyEventBriefSchema = safetyEventSchema.pick({
  id: true,
  type: true,
  severity: true,
  status: true,
  startedAt: true,
  durationS: true,
  band: true,
  assetName: true,
  driverName: true,
  place: true,
  maxSpeedKph: true,
  limitKph: true,
  heldSpeedKph: true,
  strengthMps2: true,
});
export type SafetyEventBrief = z.infer<typeof safetyEventBriefSchema>;

export const safetyScoreDetailSchema = safetyScoreRowSchema.extend({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(SAFETY_GROUP_BY),
  formula: z.object({
    /** "100 - (4 × 2.50 + 1 × 1.25 + 2 × 3.10 %) = 84.8" with this row's numbers. */
    text: z.string(),
    /** One part per behaviour that cost points: "4 × 2.50 per 1,000 mi". */
    parts: z.array(z.object({ behaviour: z.enum(SAFETY_BEHAVIOURS), label: z.string(), text: z.string(), points: z.number() })),
    /** Whether the score was floored at 0. */
    floored: z.boolean(),
  }),
  /** The last 12 weeks (Monday to Monday in the organization's zone) ending with the period's week. */
  trend: z.array(z.object({ weekStart: z.string(), score: z.number().nullable(), miles: z.number(), events: z.number().int() })),
  /** The events behind each behaviour's points. */
  eventsByBehaviour: z.array(z.object({ behaviour: z.enum(SAFETY_BEHAVIOURS), events: z.array(safetyEventBriefSchema) })),
});
export type SafetyScoreDetail = z.infer<typeof safetyScoreDetailSchema>;

// ---------------------------------------------------------------------------------------------------
// Settings

const mps2 = (label: string) =>
  z
    .number({ error: () => `${label} must be a number of m/s²` })
    .min(0.5, `${label} must be at least 0.5 m/s²`)
    .max(20, `${label} must be at most 20 m/s²`);

/** Harsh-event thresholds of one vehicle class, in m/s²: the device's accelerometer, and estimated from GPS. */
export const safetyClassThresholdsSchema = z.object({
  accelerometer: z.object({ acceleration: mps2('Acceleration'), braking: mps2('Braking'), cornering: mps2('Cornering') }),
  gps: z.object({ acceleration: mps2('Acceleration'), braking: mps2('Braking') }),
});
export type SafetyClassThresholds = z.infer<typeof safetyClassThresholdsSchema>;

const kph = (label: string, max: number) =>
  z
    .number({ error: () => `${label} must be a number` })
    .min(0, `${label} must be 0 or more`)
    .max(max, `${label} is too high`);

export const safetySettingsSchema = z.object({
  thresholds: z.object({ LIGHT: safetyClassThresholdsSchema, MEDIUM: safetyClassThresholdsSchema, HEAVY: safetyClassThresholdsSchema }),
  /** The class of a vehicle not listed in `vehicleClasses`. */
  defaultVehicleClass: z.enum(SAFETY_VEHICLE_CLASSES, { error: () => 'defaultVehicleClass must be LIGHT, MEDIUM or HEAVY' }),
  vehicleClasses: z
    .array(
      z.object({
        assetId: z.uuid('assetId must be a vehicle id'),
        vehicleClass: z.enum(SAFETY_VEHICLE_CLASSES, { error: () => 'vehicleClass must be LIGHT, MEDIUM or HEAVY' }),
      }),
    )
    .max(10_000),
  speeding: z.object({
    /** Over the limit by more than this (km/h; 6 mph by default) ... */
    toleranceKph: kph('Speeding tolerance', 80),
    /** ... for more than this many seconds is a speeding event. */
    minSeconds: z
      .number()
      .int('Minimum seconds must be a whole number')
      .min(0, 'Minimum seconds must be 0 or more')
      .max(3600, 'Minimum seconds must be at most 3600'),
    /** Each band starts this far over the limit (km/h); LIGHT starts at the tolerance. Increasing. */
    bands: z.object({ MODERATE: kph('Moderate band', 200), HEAVY: kph('Heavy band', 200), SEVERE: kph('Severe band', 200) }),
  }),
  /** The fleet's own maximum speed (km/h; 75 mph by default): above it for `speeding.minSeconds`, a MAX_SPEED event. */
  fleetMaxSpeedKph: kph('Fleet maximum speed', 250).min(20, 'Fleet maximum speed must be at least 20 km/h'),
  /** Engine on and not moving longer than this is idling. */
  idlingMinutes: z
    .number()
    .int('Idling minutes must be a whole number')
    .min(1, 'Idling minutes must be at least 1')
    .max(240, 'Idling minutes must be at most 240'),
  /** No idling events at places marked as yards. */
  excludeYards: z.boolean({ error: () => 'excludeYards must be true or false' }),
  weights: z.object(
    Object.fromEntries(
      SAFETY_BEHAVIOURS.map((b) => [
        b,
        z
          .number({ error: () => `${SAFETY_BEHAVIOUR_LABELS[b]} weight must be a number` })
          .min(0, `${SAFETY_BEHAVIOUR_LABELS[b]} weight must be 0 or more`)
          .max(100, `${SAFETY_BEHAVIOUR_LABELS[b]} weight must be at most 100`),
      ]),
    ) as Record<SafetyBehaviour, z.ZodNumber>,
  ),
  /** The rolling window of the scores, in weeks. */
  windowWeeks: z.number().int('Window must be a whole number of weeks').min(1, 'Window must be at least 1 week').max(52, 'Window must be at most 52 weeks'),
});
export type SafetySettings = z.infer<typeof safetySettingsSchema>;
/** PUT body: the whole settings, bands increasing. */
export const safetySettingsInputSchema = safetySettingsSchema.refine(
  (s) =>
    s.speeding.toleranceKph < s.speeding.bands.MODERATE &&
    s.speeding.bands.MODERATE < s.speeding.bands.HEAVY &&
    s.speeding.bands.HEAVY < s.speeding.bands.SEVERE,
  { path: ['speeding', 'bands'], message: 'Speeding bands must increase: tolerance < moderate < heavy < severe' },
);
export type SafetySettingsInput = z.input<typeof safetySettingsInputSchema>;

/** Defaults (decisions 0194, 0195; the anchors' figures in shared/reference/safety-and-integrations.md). */
export const DEFAULT_SAFETY_SETTINGS: SafetySettings = {
  thresholds: {
    // GPS Insight's class 1 figures (0.37 g / 0.38 g).
    LIGHT: { accelerometer: { acceleration: 3.6, braking: 3.7, cornering: 3.7 }, gps: { acceleration: 4.0, braking: 4.2 } },
    // GPS Insight's class 2 figures (0.35 g / 0.36 g).
    MEDIUM: { accelerometer: { acceleration: 3.4, braking: 3.5, cornering: 3.4 }, gps: { acceleration: 3.8, braking: 4.0 } },
    // A loaded tractor cannot pull 0.3 g; braking at Motive's coachable 8.66 mph/s (0.39 g ≈ 3.87 m/s²).
    HEAVY: { accelerometer: { acceleration: 2.5, braking: 3.9, cornering: 3.0 }, gps: { acceleration: 2.9, braking: 4.3 } },
  },
  defaultVehicleClass: 'HEAVY',
  vehicleClasses: [],
  speeding: { toleranceKph: mph(6), minSeconds: 60, bands: { MODERATE: mph(11), HEAVY: mph(16), SEVERE: mph(21) } },
  fleetMaxSpeedKph: mph(75),
  idlingMinutes: 5,
  excludeYards: true,
  weights: {
    HARSH_ACCELERATION: 1,
    HARSH_BRAKING: 4,
    HARSH_CORNERING: 2,
    SPEEDING_LIGHT: 0.5,
    SPEEDING_MODERATE: 1,
    SPEEDING_HEAVY: 2,
    SPEEDING_SEVERE: 4,
    MAX_SPEED: 3,
    IDLING: 0,
    CRASH: 10,
    TOWING: 0,
    JAMMING: 0,
  },
  windowWeeks: 4,
};

// ---------------------------------------------------------------------------------------------------
// The driver's own, and the dashboard

/** `GET .../drivers/me/safety?from&to`: the signed-in driver's score (rolling window by default) and events. */
export const driverSafetySchema = z.object({
  driverId: z.string(),
  driverName: z.string(),
  score: safetyScoreDetailSchema,
  /** Their events in the period, newest first (dismissed ones left out), with coaching asked for first. */
  events: z.array(safetyEventSchema),
  /** Coaching sessions waiting for their acknowledgement. */
  toAcknowledge: z.number().int(),
});
export type DriverSafety = z.infer<typeof driverSafetySchema>;

/** `GET .../safety/summary?from&to&groupId`: the dashboard's card (SAFETY_LIST). */
export const safetySummaryQuery = safetyPeriodQuery.extend({ groupId: z.uuid('groupId must be a group id').optional() });
export const safetySummarySchema = z.object({
  from: z.string(),
  to: z.string(),
  fleet: safetyFleetScoreSchema,
  /** Events waiting for review that the score weighs (idling, weighted 0 by default, is reported but not counted here). */
  newEvents: z.number().int(),
  needsCoaching: z.number().int(),
  /** Coaching past its due date. */
  overdueCoaching: z.number().int(),
  /** The drivers most in need of coaching: lowest scores (scored ones), at most 5. */
  drivers: z.array(
    z.object({
      driverId: z.string(),
      driverName: z.string(),
      score: z.number().nullable(),
      events: z.number().int(),
      newEvents: z.number().int(),
      openCoaching: z.number().int(),
    }),
  ),
});
export type SafetySummary = z.infer<typeof safetySummarySchema>;

/** Reports: events and scores as CSV or PDF (`.../safety/events/export`, `.../safety/scores/export`). */
export const safetyEventExportQuery = safetyEventListQuery.omit({ page: true, size: true, sort: true, search: true }).extend({
  format: z.enum(['csv', 'pdf'], { error: () => 'format must be csv or pdf' }),
});
export const safetyScoresExportQuery = safetyScoresQuery.extend({ format: z.enum(['csv', 'pdf'], { error: () => 'format must be csv or pdf' }) });
