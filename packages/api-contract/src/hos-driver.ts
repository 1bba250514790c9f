import { z } from 'zod';
import { dayField, ELD_YEARS, instantField } from './dates.ts';
import { RULESET_IDS } from '@fleet/hos/ruleset-facts';
import { availabilitySchema, hosDiagnosticSchema, hosEventSchema, hosLogDayRef } from './hos.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { assetRef, driverRef } from './registry-fields.ts';
import { defineLabels } from './field-words.ts';
import { emailField } from './validation.ts';

// The driver's side of the ELD (issue 16, decisions 0111-0116): the signed-in driver's status,
// certification, the office's edit proposals, unidentified driving, diagnostics and the ELD output file.

defineLabels({ agree: 'Agree', note: 'Note', reason: 'Reason', comment: 'Output file comment' });

/** Appendix A 4.3.2.3: the statement a driver agrees to when certifying a 24-hour period. */
export const HOS_CERTIFICATION_STATEMENT = 'I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct';

// Records of duty status are in the years an ELD output file can carry.
const instant = (label: string) => instantField(label, { years: ELD_YEARS });
const day = (label: string) => dayField(label, { years: ELD_YEARS });
const reasonText = (label: string) =>
  z
    .string({ error: () => `${label} is a required field` })
    .trim()
    .min(4, `${label} must be at least 4 characters`)
    .max(60, `${label} must be at most 60 characters`);

// ---------------------------------------------------------------- paths

export const userLogParams = z.object({ orgId: z.uuid(), userId: z.uuid('userId must be a user id'), logId: z.uuid('logId must be a log id') });
export const userProposalParams = z.object({
  orgId: z.uuid(),
  userId: z.uuid('userId must be a user id'),
  proposalId: z.uuid('proposalId must be a proposal id'),
});
export const userSegmentParams = z.object({ orgId: z.uuid(), userId: z.uuid('userId must be a user id'), segmentId: z.uuid('segmentId must be a segment id') });
export const orgSegmentParams = z.object({ orgId: z.uuid(), segmentId: z.uuid('segmentId must be a segment id') });

// ---------------------------------------------------------------- the driver's screen

/** Everything the driver's home screen shows besides the log day: who, which truck, the clocks, what waits for them. */
/**
 * How old the vehicle's latest fix may be and still locate a duty-status change (and tell whether
 * the vehicle moves): 5 minutes, in which a truck at highway speed covers the 5 miles within which
 * Appendix A 4.6.1.4 counts a position as valid.
 */
export const VEHICLE_FIX_FRESH_MS = 5 * 60_000;

export const hosDriverStatusSchema = z.object({
  driver: driverRef.extend({
    homeTimeZone: z.string(),
    ruleset: z.enum(RULESET_IDS),
    personalConveyanceAllowed: z.boolean(),
    yardMovesAllowed: z.boolean(),
    licenseNumber: z.string().nullable(),
    licenseState: z.string().nullable(),
  }),
  vehicle: assetRef.nullable(),
  /** The vehicle moved at 5 mph or more in its latest position of the last 5 minutes: the status is Driving and cannot be changed. */
  moving: z.boolean(),
  /**
   * When the vehicle's device last reported its position, if within VEHICLE_FIX_FRESH_MS (issue 46):
   * a status change made now is located there (the ELD's own position, Appendix A 4.5.1.1), so the
   * driver is not asked to type a location. Null: no vehicle, or no recent fix.
   */
  vehiclePositionAt: z.string().nullable(),
  /** The four clocks now (the office's availability row for this driver). */
  clocks: availabilitySchema,
  today: hosLogDayRef,
  /** Past days with records and no (or no longer a) certification, oldest first (the last 14 days). */
  uncertifiedDays: z.array(hosLogDayRef),
  pendingProposals: z.number().int(),
  /** Unassigned unidentified driving on the driver's vehicle in the last 8 days. */
  unidentifiedSegments: z.number().int(),
  /** Malfunctions and data diagnostics in force on the driver's vehicle. */
  diagnostics: z.array(hosDiagnosticSchema),
  /**
   * What `clocks` was computed from (issue 44): the engine's periods (epoch ms, the last ending at
   * `at`) and options. The phone runs the same engine on them, with the changes it has not yet sent,
   * while it has no signal.
   */
  engine: z.object({
    at: z.number(),
    periods: z.array(
      z.object({
        status: z.enum(['OFF', 'SB', 'D', 'ON']),
        start: z.number(),
        end: z.number(),
        special: z.enum(['PC', 'YM', 'PASSENGER', 'WAITING']).optional(),
      }),
    ),
    options: z.object({
      ruleset: z.enum(RULESET_IDS),
      timeZone: z.string(),
      cycleDayStart: z.string().optional(),
      exemptions: z
        .object({
          shortHaul150: z.boolean().optional(),
          sixteenHour: z.boolean().optional(),
          nonCdlShortHaul: z.boolean().optional(),
          oilfield: z.boolean().optional(),
          /** Adverse driving conditions the driver declared (issue 72, decision 0315). */
          adverseDriving: z.array(z.object({ start: z.string(), end: z.string() })).optional(),
        })
        .optional(),
      deferrals: z.array(z.object({ day: z.string() })).optional(),
      team: z.boolean().optional(),
      /** Canada's cycle switches declared on the log (issue 72, decision 0314). */
      cycleSwitches: z.array(z.object({ at: z.union([z.number(), z.string()]), to: z.union([z.literal(1), z.literal(2)]) })).optional(),
      /** Canada's emergencies declared on the log (s. 76, decision 0315). */
      emergencies: z.array(z.object({ start: z.union([z.number(), z.string()]), end: z.union([z.number(), z.string()]) })).optional(),
    }),
  }),
});
export type HosDriverStatus = z.infer<typeof hosDriverStatusSchema>;

/** What a driver may pick on their log day: the organization's active trailers and the other active drivers. */
export const hosDriverChoicesSchema = z.object({ trailers: z.array(assetRef), coDrivers: z.array(driverRef) });
export type HosDriverChoices = z.infer<typeof hosDriverChoicesSchema>;

/** Agreeing to HOS_CERTIFICATION_STATEMENT for one log day. */
export const hosCertifySchema = z.object({
  agree: z.literal(true, { error: () => 'Agree must be true: certifying means agreeing to the statement' }),
  /** When the driver certified on a phone without signal, sent later (issue 44): the certification's time. */
  recordedAt: instant('Recorded at')
    .nullish()
    .transform((v) => v ?? null),
});
export type HosCertify = z.infer<typeof hosCertifySchema>;

// ---------------------------------------------------------------- edit proposals

export const HOS_EDIT_REQUEST_KINDS = ['EDIT', 'INSERT', 'ASSIGN_UNIDENTIFIED'] as const;
export const HOS_EDIT_REQUEST_STATES = ['PENDING', 'ACCEPTED', 'REJECTED'] as const;
export type HosEditRequestState = (typeof HOS_EDIT_REQUEST_STATES)[number];

/** An edit the office proposed (Appendix A 4.4.4.2.5-6): the records it would replace and the proposed ones, side by side. */
export const hosProposalSchema = z.object({
  id: z.string(),
  kind: z.enum(HOS_EDIT_REQUEST_KINDS),
  state: z.enum(HOS_EDIT_REQUEST_STATES),
  driver: driverRef,
  requestedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  annotation: z.string().nullable(),
  /** The log day the proposal starts in. */
  log: hosLogDayRef,
  /** The records as they stand (empty when the proposal adds a missing record). */
  original: z.array(hosEventSchema),
  proposed: z.array(hosEventSchema),
  /** False when the records changed since it was proposed: it can then only be rejected. */
  applicable: z.boolean(),
});
export type HosProposal = z.infer<typeof hosProposalSchema>;
export const hosProposalPageSchema = pageSchema(hosProposalSchema);
export const hosProposalQuery = pageQuerySchema.omit({ search: true, sort: true }).extend({
  state: z.enum(HOS_EDIT_REQUEST_STATES, { error: () => 'State must be PENDING, ACCEPTED or REJECTED' }).optional(),
});

/** Rejecting a proposal may say why (kept in the activity log). */
export const hosProposalDecisionSchema = z.object({
  note: z
    .string({ error: () => 'Note must be text' })
    .trim()
    .max(60, 'Note must be at most 60 characters')
    .nullish()
    .transform((v) => v || null),
  /** When the driver decided on a phone without signal, sent later (issue 44): the decision's time. */
  recordedAt: instant('Recorded at')
    .nullish()
    .transform((v) => v ?? null),
});
/** Accepting a proposal: only the time a phone decided offline, if any. */
export const hosProposalAcceptSchema = hosProposalDecisionSchema.pick({ recordedAt: true });

// ---------------------------------------------------------------- unidentified driving

export const HOS_SEGMENT_STATES = ['UNASSIGNED', 'PROPOSED', 'ASSIGNED', 'ANNOTATED'] as const;

const place = z.object({ latitude: z.number().nullable(), longitude: z.number().nullable(), description: z.string().nullable() });

/** Driving recorded on a vehicle while no driver was assigned (the unidentified driver profile, 4.6.1.6). */
export const hosUnidentifiedSegmentSchema = z.object({
  /** The segment's first record (its Driving event). */
  id: z.string(),
  vehicle: assetRef.nullable(),
  start: z.string(),
  /** Null while the vehicle is still driving unidentified. */
  end: z.string().nullable(),
  durationMs: z.number(),
  distanceM: z.number().nullable(),
  startLocation: place,
  endLocation: place.nullable(),
  state: z.enum(HOS_SEGMENT_STATES),
  /** "Not a driver's" (a mechanic's test drive…), from the office. */
  annotation: z.object({ reason: z.string(), at: z.string(), by: z.string().nullable() }).nullable(),
  /** The driver it was proposed to or assigned to. */
  driver: driverRef.nullable(),
  proposalId: z.string().nullable(),
});
export type HosUnidentifiedSegment = z.infer<typeof hosUnidentifiedSegmentSchema>;
export const hosUnidentifiedPageSchema = pageSchema(hosUnidentifiedSegmentSchema);

export const hosUnidentifiedQuery = pageQuerySchema.omit({ search: true, sort: true }).extend({
  from: instant('From').optional(),
  to: instant('To').optional(),
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  state: z.enum(HOS_SEGMENT_STATES, { error: () => 'State must be UNASSIGNED, PROPOSED, ASSIGNED or ANNOTATED' }).optional(),
});

/** Propose an unidentified segment to a driver, who accepts it as their own driving. */
export const hosSegmentProposeSchema = z.object({
  driverId: z.uuid('Driver must be a driver id'),
  annotation: reasonText('Annotation')
    .nullish()
    .transform((v) => v ?? null),
});
/** Mark an unidentified segment as nobody's driving time, with the reason (4-60 characters). */
export const hosSegmentAnnotateSchema = z.object({ reason: reasonText('Reason') });
/** A driver claims a segment; the note goes on their new records. */
export const hosSegmentClaimSchema = z.object({
  annotation: reasonText('Annotation')
    .nullish()
    .transform((v) => v ?? null),
});

// ---------------------------------------------------------------- diagnostics

export const hosDiagnosticPageSchema = pageSchema(hosDiagnosticSchema);
export const hosDiagnosticQuery = pageQuerySchema.omit({ search: true, sort: true }).extend({
  assetId: z.uuid('assetId must be a vehicle id').optional(),
  from: instant('From').optional(),
  to: instant('To').optional(),
  active: z.enum(['true', 'false'], { error: () => 'Active must be true or false' }).optional(),
});

// ---------------------------------------------------------------- ELD output file

export const ELD_OUTPUT_MAX_DAYS = 31;

export const eldOutputQuery = z.object({
  /** First log day (default: 7 days before today, the roadside period of 4.8.2.1). */
  from: day('From').optional(),
  /** Last log day (default: today in the driver's home terminal zone). */
  to: day('To').optional(),
  /** The officer's output file comment (7.38), at most 60 characters. */
  comment: z
    .string({ error: () => 'Comment must be text' })
    .trim()
    .max(60, 'Comment must be at most 60 characters')
    .optional(),
});
export type EldOutputQuery = z.infer<typeof eldOutputQuery>;

export const eldOutputEmailSchema = eldOutputQuery.extend({ email: emailField('Email') });
export type EldOutputEmail = z.infer<typeof eldOutputEmailSchema>;

export const eldOutputSentSchema = z.object({ sentTo: z.string(), fileName: z.string(), from: z.string(), to: z.string() });
export type EldOutputSent = z.infer<typeof eldOutputSentSchema>;
