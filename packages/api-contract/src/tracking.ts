import { z } from 'zod';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { LOAD_STATUSES, STOP_KINDS } from './loads.ts';
import { optionalText } from './registry-fields.ts';

// Customer tracking (issue 69): links that show one load (or one vehicle for a time box) to a
// customer without a sign-in, the public tracking answer, and the load's contacts who get notices.
// The issue fixes the paths and the names `id, url, expiresAt, createdAt`; a link's token is at
// least 128 random bits, shown once in its url and stored only as a hash.

defineLabels({
  expiresAt: 'Expires',
  label: 'Label',
  role: 'Role',
  name: 'Name',
  email: 'Email',
  notices: 'Notices',
  contacts: 'Contacts',
  showTemperature: 'Show temperature',
});

/** How long a load link lives by default after the load's last stop's appointment end. */
export const SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP = 24;
/** A vehicle link must end within this many days. */
export const VEHICLE_SHARE_LINK_MAX_DAYS = 7;
/** The truck's position is shown on a load link until this long after the last stop is done. */
export const TRACKING_POSITION_AFTER_LAST_STOP_MINUTES = 60;
/** Anonymous reads of the public tracking answer, per address, per minute. */
export const PUBLIC_TRACKING_RATE_PER_MINUTE = 60;
/** A stop's ETA moving by more than this sends `load.eta_changed`. */
export const ETA_CHANGE_WEBHOOK_MINUTES = 15;

export const SHARE_LINK_KINDS = ['LOAD', 'VEHICLE'] as const;
export type ShareLinkKind = (typeof SHARE_LINK_KINDS)[number];
export const SHARE_LINK_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type ShareLinkStatus = (typeof SHARE_LINK_STATUSES)[number];

export const loadShareLinkCreateSchema = z.object({
  /** Default: 24 hours after the load's last stop's appointment end. */
  expiresAt: instantField('expiresAt').optional(),
  label: optionalText(80),
  /** The carrier lets the link show the load's reefer temperature and set point band (issue 73, decision 0325); default off. */
  showTemperature: z.boolean({ error: () => 'Show temperature must be true or false' }).default(false),
});
export type LoadShareLinkCreate = z.infer<typeof loadShareLinkCreateSchema>;

export const vehicleShareLinkCreateSchema = z.object({
  /** Required, in the future and at most 7 days ahead. */
  expiresAt: instantField('expiresAt'),
  label: optionalText(80),
});
export type VehicleShareLinkCreate = z.infer<typeof vehicleShareLinkCreateSchema>;

/** The answer to a create: the only time the url (and its token) is shown. */
export const shareLinkCreatedSchema = z.object({ id: z.string(), url: z.string(), expiresAt: z.string(), createdAt: z.string() });
export type ShareLinkCreated = z.infer<typeof shareLinkCreatedSchema>;

export const shareLinkSchema = z.object({
  id: z.string(),
  kind: z.enum(SHARE_LINK_KINDS),
  label: z.string().nullable(),
  status: z.enum(SHARE_LINK_STATUSES),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** The person who made it (a name), or null for an API token. */
  createdBy: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastViewedAt: z.string().nullable(),
  viewCount: z.number().int(),
  /** The link shows the load's reefer temperature (decision 0325). */
  showTemperature: z.boolean(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinkListSchema = z.object({ items: z.array(shareLinkSchema) });

export const shareLinkIdParams = z.object({ orgId: z.uuid(), linkId: z.uuid('linkId must be a link id') });

// ------------------------------------------------------------------------------ the public answer

export const TRACKING_STOP_STATUSES = ['PENDING', 'ARRIVED', 'DEPARTED'] as const;
export type TrackingStopStatus = (typeof TRACKING_STOP_STATUSES)[number];
/**
 * How far to trust an ETA: HIGH when the truck reported in the last 15 minutes and the ETA was
 * computed since; MEDIUM when within the hour; LOW when older or the truck has not reported.
 */
export const ETA_CONFIDENCES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type EtaConfidence = (typeof ETA_CONFIDENCES)[number];

export const trackingStopSchema = z.object({
  seq: z.number().int(),
  kind: z.enum(STOP_KINDS),
  name: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  windowStart: z.string(),
  windowEnd: z.string(),
  status: z.enum(TRACKING_STOP_STATUSES),
  arrivedAt: z.string().nullable(),
  departedAt: z.string().nullable(),
  /** Live ETA to this stop while it is ahead; null once arrived or when unknown. */
  eta: z.string().nullable(),
  etaConfidence: z.enum(ETA_CONFIDENCES).nullable(),
  /** The ETA falls after the appointment window's end. */
  late: z.boolean(),
});
export type TrackingStop = z.infer<typeof trackingStopSchema>;

export const publicTrackingSchema = z.object({
  kind: z.enum(SHARE_LINK_KINDS),
  carrier: z.object({ name: z.string() }),
  /** Present for a load link. `customerReference` is the PO number, or else the BOL number. */
  load: z.object({ number: z.string(), customerReference: z.string().nullable(), status: z.enum(LOAD_STATUSES) }).nullable(),
  /** The truck's unit number (both kinds). */
  vehicle: z.object({ unitNumber: z.string() }).nullable(),
  stops: z.array(trackingStopSchema),
  /** Only from the load's start until an hour after its last stop (a vehicle link: until it expires). */
  position: z
    .object({ latitude: z.number(), longitude: z.number(), at: z.string(), speedKmh: z.number().nullable(), heading: z.number().nullable() })
    .nullable(),
  statusHistory: z.array(z.object({ status: z.enum(LOAD_STATUSES), at: z.string() })),
  /**
   * Once the load is delivered, its proofs of delivery (issue 70): each one's PDF is read through the
   * same link (`url`, no sign-in). Empty before delivery, for a vehicle link, and without one.
   */
  proofOfDelivery: z.array(
    z.object({ id: z.string(), stopSeq: z.number().int().nullable(), pageCount: z.number().int(), createdAt: z.string(), url: z.string() }),
  ),
  /**
   * The load's reefer temperature (issue 73, decision 0325), only where the carrier lets the link
   * show it, while the truck's position is shown: the sensor that judges the load (return air first),
   * its latest reading, the set point band and its readings of the last hours. Null otherwise.
   */
  temperature: z
    .object({
      celsius: z.number(),
      at: z.string(),
      setPointC: z.number().nullable(),
      toleranceC: z.number().nullable(),
      readings: z.array(z.object({ at: z.string(), celsius: z.number() })),
    })
    .nullable(),
  expiresAt: z.string(),
  /** The carrier's unit system, for speeds and distances on the page. */
  unitSystem: z.enum(['METRIC', 'IMPERIAL']),
});
export type PublicTracking = z.infer<typeof publicTrackingSchema>;

// ------------------------------------------------------------------------------------- contacts

export const LOAD_CONTACT_ROLES = ['SHIPPER', 'CONSIGNEE', 'BROKER'] as const;
export type LoadContactRole = (typeof LOAD_CONTACT_ROLES)[number];
export const LOAD_CONTACT_ROLE_LABELS: Record<LoadContactRole, string> = { SHIPPER: 'Shipper', CONSIGNEE: 'Consignee', BROKER: 'Broker' };

/** LINK: the tracking link when the load starts; ARRIVING: about an hour out; LATE: the ETA passes the window (again per further hour). */
export const LOAD_NOTICE_KINDS = ['LINK', 'ARRIVING', 'ARRIVED', 'DELIVERED', 'LATE'] as const;
export type LoadNoticeKind = (typeof LOAD_NOTICE_KINDS)[number];
export const LOAD_NOTICE_LABELS: Record<LoadNoticeKind, string> = {
  LINK: 'Tracking link when the load starts',
  ARRIVING: 'Arriving in about 1 hour',
  ARRIVED: 'Arrived',
  DELIVERED: 'Delivered',
  LATE: 'Running late',
};
export const LOAD_CONTACTS_MAX = 10;

export const loadContactInputSchema = z.object({
  role: z.enum(LOAD_CONTACT_ROLES, { error: () => 'role must be SHIPPER, CONSIGNEE or BROKER' }),
  name: z.string().trim().min(1, 'Name is required').max(120, 'Name is at most 120 characters'),
  email: z.email('E-mail must be an e-mail address').max(254),
  notices: z.array(z.enum(LOAD_NOTICE_KINDS, { error: () => `notices must be of ${LOAD_NOTICE_KINDS.join(', ')}` })).max(LOAD_NOTICE_KINDS.length),
});
export type LoadContactInput = z.infer<typeof loadContactInputSchema>;
/** PUT replaces the load's contacts as a whole. */
export const loadContactsInputSchema = z.object({
  contacts: z.array(loadContactInputSchema).max(LOAD_CONTACTS_MAX, `A load has at most ${LOAD_CONTACTS_MAX} contacts`),
});

export const loadContactSchema = z.object({
  id: z.string(),
  role: z.enum(LOAD_CONTACT_ROLES),
  name: z.string(),
  email: z.string(),
  notices: z.array(z.enum(LOAD_NOTICE_KINDS)),
  /** Set when the contact unsubscribed with the e-mail's one-click link. */
  unsubscribedAt: z.string().nullable(),
  /** The notices sent so far, newest first. */
  sent: z.array(z.object({ kind: z.enum(LOAD_NOTICE_KINDS), stopSeq: z.number().int().nullable(), sentAt: z.string() })),
});
export type LoadContact = z.infer<typeof loadContactSchema>;
export const loadContactListSchema = z.object({ items: z.array(loadContactSchema) });
