import { z } from 'zod';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import type { Permission } from './permissions.ts';

defineLabels({ ids: 'Notifications', all: 'All notifications', kinds: 'Notification kinds' });

// Server-generated notifications (issue 18): what can happen, who may hear of it, and how one reads
// in the bell's panel with the spec's notification fields (sections 3 and 4).

/**
 * Every kind of notification. The service (apps/api/src/modules/notifications) takes any of them;
 * which module sends which is in NOTIFICATION_KIND_INFO[kind].source.
 */
export const NOTIFICATION_KINDS = [
  'VIOLATION',
  'DRIVE_TIME_LOW',
  'UNIDENTIFIED_DRIVING',
  'DEVICE_OFFLINE',
  'EDIT_PROPOSAL_DECIDED',
  'LOG_UNCERTIFIED',
  'RETENTION_PURGE',
  'IMPORT_FINISHED',
  'NEW_SAFETY_DEFECT',
  'DRIVEN_WITH_SAFETY_DEFECT',
  'SERVICE_DUE',
  'PLACE_ARRIVAL',
  'PLACE_DEPARTURE',
  'RESTRICTED_PLACE_ENTERED',
  'DETENTION_EXCEEDED',
  'LOAD_AT_RISK',
  'DEVICE_CLOCK',
  'POSITIONS_FAILING',
  'MESSAGE_FROM_DRIVER',
  'MESSAGE_FROM_DISPATCH',
  'ENGINE_FAULT',
  'SAFETY_CRASH',
  'SAFETY_SEVERE',
  'WEBHOOK_DISABLED',
  'FUEL_DROP',
  'COMPLIANCE_EXPIRING',
  'COMPLIANCE_EXPIRED',
  'TEMPERATURE_OUT_OF_RANGE',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Spec section 4: the four notification types; viewed is the default. */
export const NOTIFICATION_TYPES = ['viewed', 'alert', 'not-viewed', 'success'] as const;
export type NotificationTypeName = (typeof NOTIFICATION_TYPES)[number];

export interface NotificationKindInfo {
  label: string;
  /** What it says to the person choosing whether to receive it. */
  description: string;
  /** Only users holding this code receive it (null: every user of the organization may). */
  permission: Permission | null;
  /** A driver hears of their own facts of this kind whatever their role (issue 71: their own papers). */
  toDriverToo?: true;
  /** How an unread one shows in the panel. */
  type: 'alert' | 'success' | 'not-viewed';
  /** Tabler icon name the web app draws. */
  iconName: string;
  /** Default choice of a user who never chose. */
  defaults: { inApp: boolean; email: boolean };
  /** Which part of the product sends it: this issue, or the ELD (16) and IFTA (17) work once merged. */
  source:
    | 'fleet-watch'
    | 'retention-purge'
    | 'registry-import'
    | 'eld'
    | 'ifta'
    | 'maintenance'
    | 'places'
    | 'dispatch'
    | 'ingest'
    | 'messages'
    | 'engine-faults'
    | 'safety'
    | 'webhooks'
    | 'compliance'
    | 'temperatures';
}

export const NOTIFICATION_KIND_INFO: Record<NotificationKind, NotificationKindInfo> = {
  VIOLATION: {
    label: 'HoS violation',
    description: 'A driver broke an hours-of-service limit.',
    permission: 'VIO_LIST',
    type: 'alert',
    iconName: 'alert-triangle',
    defaults: { inApp: true, email: false },
    source: 'fleet-watch',
  },
  DRIVE_TIME_LOW: {
    label: 'Under 30 minutes of driving left',
    description: 'A driver on duty has less than 30 minutes of driving time left.',
    permission: 'AVAILABILITY_LIST',
    type: 'alert',
    iconName: 'hourglass-low',
    defaults: { inApp: true, email: false },
    source: 'fleet-watch',
  },
  UNIDENTIFIED_DRIVING: {
    label: 'Unidentified driving',
    description: 'A vehicle was driven for more than 30 minutes with nobody logged in.',
    permission: 'HOS_LIST',
    type: 'alert',
    iconName: 'user-question',
    defaults: { inApp: true, email: false },
    source: 'eld',
  },
  DEVICE_OFFLINE: {
    label: 'Device offline',
    description: 'A device has sent nothing for more than 24 hours.',
    permission: 'GAT_LIST',
    type: 'not-viewed',
    iconName: 'plug-connected-x',
    defaults: { inApp: true, email: false },
    source: 'fleet-watch',
  },
  EDIT_PROPOSAL_DECIDED: {
    label: 'Log edit accepted or rejected',
    description: 'A driver accepted or rejected an edit you proposed to their log.',
    permission: 'HOS_LIST',
    type: 'not-viewed',
    iconName: 'pencil-check',
    defaults: { inApp: true, email: false },
    source: 'eld',
  },
  LOG_UNCERTIFIED: {
    label: 'Log day left uncertified',
    description: 'A driver’s log day ended without being certified.',
    permission: 'HOS_LIST',
    type: 'not-viewed',
    iconName: 'file-alert',
    defaults: { inApp: true, email: false },
    source: 'fleet-watch',
  },
  RETENTION_PURGE: {
    label: 'Old data removed',
    description: 'The data-retention purge removed records past their retention period.',
    permission: 'RET_READ',
    type: 'success',
    iconName: 'trash',
    defaults: { inApp: true, email: false },
    source: 'retention-purge',
  },
  IMPORT_FINISHED: {
    label: 'Import finished',
    description: 'A CSV import (vehicles, trailers, drivers, devices, fuel purchases) finished.',
    permission: null,
    type: 'success',
    iconName: 'file-import',
    defaults: { inApp: true, email: false },
    source: 'registry-import',
  },
  // Issue 31 (decision 0159): the two safety ones go by e-mail too unless the user turns it off.
  NEW_SAFETY_DEFECT: {
    label: 'Safety defect reported',
    description: 'A driver’s inspection found a defect that affects safe operation.',
    permission: 'DVIR_LIST',
    type: 'alert',
    iconName: 'alert-octagon',
    defaults: { inApp: true, email: true },
    source: 'maintenance',
  },
  DRIVEN_WITH_SAFETY_DEFECT: {
    label: 'Driven with a safety defect',
    description: 'A vehicle was driven while a safety defect on it was still open (once per vehicle and day).',
    permission: 'DVIR_LIST',
    type: 'alert',
    iconName: 'steering-wheel',
    defaults: { inApp: true, email: true },
    source: 'maintenance',
  },
  SERVICE_DUE: {
    label: 'Service due',
    description: 'A vehicle’s preventive maintenance is coming due or overdue.',
    permission: 'MAINTENANCE_LIST',
    type: 'not-viewed',
    iconName: 'tool',
    defaults: { inApp: true, email: false },
    source: 'maintenance',
  },
  // Issue 32 (decision 0162): arrivals and departures are many a day per vehicle, so nobody hears
  // of them until they choose to (the visits report lists them all); a restricted place and time
  // beyond the free time at a customer are exceptions someone acts on, so they are on by default.
  PLACE_ARRIVAL: {
    label: 'Arrival at a place',
    description: 'A vehicle arrived at a place (after the place’s arrival dwell).',
    permission: 'PLACE_LIST',
    type: 'not-viewed',
    iconName: 'map-pin',
    defaults: { inApp: false, email: false },
    source: 'places',
  },
  PLACE_DEPARTURE: {
    label: 'Departure from a place',
    description: 'A vehicle left a place (after the place’s departure dwell).',
    permission: 'PLACE_LIST',
    type: 'not-viewed',
    iconName: 'map-pin-off',
    defaults: { inApp: false, email: false },
    source: 'places',
  },
  RESTRICTED_PLACE_ENTERED: {
    label: 'Restricted area entered',
    description: 'A vehicle entered a place marked as a restricted area.',
    permission: 'PLACE_LIST',
    type: 'alert',
    iconName: 'forbid',
    defaults: { inApp: true, email: true },
    source: 'places',
  },
  DETENTION_EXCEEDED: {
    label: 'Detention beyond free time',
    description: 'A vehicle has waited at a customer longer than the organization’s free time.',
    permission: 'PLACE_LIST',
    type: 'alert',
    iconName: 'clock-exclamation',
    defaults: { inApp: true, email: false },
    source: 'places',
  },
  // Issue 33 (decision 0167): a running load whose live ETA passes an appointment window, told once
  // per load to those who dispatch, with the reason (a required rest, drive time).
  LOAD_AT_RISK: {
    label: 'Load at risk of missing its appointment',
    description: 'A running load’s live ETA, legal by the driver’s hours, passes a stop’s appointment window.',
    permission: 'LOAD_LIST',
    type: 'alert',
    iconName: 'clock-exclamation',
    defaults: { inApp: true, email: true },
    source: 'dispatch',
  },
  DEVICE_CLOCK: {
    label: 'Device clock wrong',
    description:
      'A device sends fix times far from when they arrive (a clock, GPS week or time-zone setting gone wrong), so its fixes are refused or stored at the wrong time.',
    permission: 'GAT_LIST',
    type: 'alert',
    iconName: 'clock-exclamation',
    defaults: { inApp: true, email: false },
    source: 'ingest',
  },
  // Issue 43: a fleet froze once with nothing on any screen.
  POSITIONS_FAILING: {
    label: 'Positions not stored',
    description: 'The server could not store your devices’ positions for more than a minute (the devices keep them and send them again).',
    permission: 'GAT_LIST',
    type: 'alert',
    iconName: 'database-exclamation',
    defaults: { inApp: true, email: true },
    source: 'ingest',
  },
  MESSAGE_FROM_DRIVER: {
    label: 'Message from a driver',
    description: 'A driver wrote to dispatch.',
    permission: 'MESSAGE_LIST',
    type: 'not-viewed',
    iconName: 'message',
    defaults: { inApp: true, email: false },
    source: 'messages',
  },
  MESSAGE_FROM_DISPATCH: {
    label: 'Message from dispatch',
    description: 'Dispatch wrote to you.',
    permission: null,
    type: 'not-viewed',
    iconName: 'message',
    defaults: { inApp: true, email: false },
    source: 'messages',
  },
  // Issue 46 (decision 0191): an engine fault that appears on a vehicle, once per fault episode.
  ENGINE_FAULT: {
    label: 'Engine fault',
    description: 'A vehicle’s engine reported a new fault code (J1939 or OBD-II).',
    permission: 'MAINTENANCE_LIST',
    type: 'alert',
    iconName: 'engine',
    defaults: { inApp: true, email: false },
    source: 'engine-faults',
  },
  // Issue 47 (decision 0194): at once, once per event.
  SAFETY_CRASH: {
    label: 'Crash',
    description: 'A vehicle’s device reported a crash (or an accident alarm).',
    permission: 'SAFETY_LIST',
    type: 'alert',
    iconName: 'alert-octagon',
    defaults: { inApp: true, email: true },
    source: 'safety',
  },
  SAFETY_SEVERE: {
    label: 'Severe driving event',
    description: 'A high-severity harsh braking, acceleration or cornering, severe speeding, or towing.',
    permission: 'SAFETY_LIST',
    type: 'alert',
    iconName: 'steering-wheel',
    defaults: { inApp: true, email: false },
    source: 'safety',
  },
  // Issue 48 (decision 0198): a subscription the server turned off (the receiver answered 410 Gone, or
  // every delivery failed for 5 days): those who manage webhooks are told, by e-mail by default.
  WEBHOOK_DISABLED: {
    label: 'Webhook turned off',
    description: 'A webhook subscription was turned off because its receiver answered 410 Gone or every delivery failed for 5 days.',
    permission: 'WEBHOOK_MANAGE',
    type: 'alert',
    iconName: 'webhook-off',
    defaults: { inApp: true, email: true },
    source: 'webhooks',
  },
  // Issue 68 (decision 0276): a truck's fuel level fell while it stood (a possible theft), once per drop.
  FUEL_DROP: {
    label: 'Fuel level drop',
    description: 'A truck’s fuel level fell by 5 % of its tank or more within 30 minutes while it stood or its ignition was off: a possible theft.',
    permission: 'IFTA_LIST',
    type: 'alert',
    iconName: 'gas-station-off',
    defaults: { inApp: true, email: true },
    source: 'ifta',
  },
  // Issue 71 (decision 0302): a driver's or unit's paper (licence, medical certificate, annual
  // inspection, registration…) coming due 60, 30 and 7 days ahead, and the day it has expired; once
  // each. The driver hears of their own papers too, whatever their role.
  COMPLIANCE_EXPIRING: {
    label: 'Paper expiring',
    description: 'A driver’s or unit’s paper expires in 60, 30 or 7 days.',
    permission: 'COMPLIANCE_LIST',
    type: 'not-viewed',
    iconName: 'calendar-exclamation',
    toDriverToo: true,
    defaults: { inApp: true, email: true },
    source: 'compliance',
  },
  COMPLIANCE_EXPIRED: {
    label: 'Paper expired',
    description: 'A driver’s or unit’s paper has expired: dispatch refuses them until it is renewed.',
    permission: 'COMPLIANCE_LIST',
    type: 'alert',
    iconName: 'certificate-off',
    toDriverToo: true,
    defaults: { inApp: true, email: true },
    source: 'compliance',
  },
  // Issue 73 (decision 0321): a reefer load out of its band for longer than its delay, once per excursion.
  TEMPERATURE_OUT_OF_RANGE: {
    label: 'Reefer temperature out of range',
    description: 'A reefer load’s temperature stayed outside its set point’s tolerance for longer than the load’s delay (a defrost does not count).',
    permission: 'LOAD_LIST',
    type: 'alert',
    iconName: 'temperature',
    defaults: { inApp: true, email: true },
    source: 'temperatures',
  },
};

/** One notification as the panel and /notifications show it (spec section 3's fields). */
export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  /** The kind in words. */
  category: z.string(),
  /** ISO instant the server recorded it. */
  receivedDate: z.string(),
  /** ISO instant of the fact it reports (a violation's start, a device's last report, an arrival); the received date when the fact has no time of its own. */
  occurredAt: z.string(),
  /** Null while unread. */
  readAt: z.string().nullable(),
  type: z.enum(NOTIFICATION_TYPES),
  isExpanded: z.boolean(),
  isClosable: z.boolean(),
  expandedContent: z.string().nullable(),
  expandedButton: z.object({ label: z.string(), href: z.string() }).nullable(),
  iconName: z.string(),
  avatarUrl: z.string().nullable(),
  /** The person it is about (a driver), for the avatar's initial. */
  user: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  /** Milliseconds a toast of it stays; 0: until closed. */
  timeout: z.number().int(),
  showOnce: z.boolean(),
});
export type ServerNotification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = pageSchema(notificationSchema).extend({ unread: z.number().int() });
export type NotificationPage = z.infer<typeof notificationPageSchema>;

const instant = (label: string) => instantField(label);

export const notificationListQuery = pageQuerySchema.extend({
  status: z.enum(['all', 'unread', 'read'], { error: () => 'status must be all, unread or read' }).default('all'),
  kind: z.enum(NOTIFICATION_KINDS, { error: () => `kind must be one of ${NOTIFICATION_KINDS.join(', ')}` }).optional(),
  from: instant('From').optional(),
  to: instant('To').optional(),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

/** Mark read or clear: some notifications by id, or all of the caller's. */
export const notificationSelectionSchema = z
  .object({
    ids: z.array(z.uuid('ids must hold notification ids')).max(500, 'At most 500 ids at once').optional(),
    all: z.boolean().optional(),
  })
  .refine((v) => v.all === true || (v.ids && v.ids.length > 0), { path: ['ids'], message: 'Give the ids, or all: true' });
export type NotificationSelection = z.infer<typeof notificationSelectionSchema>;

export const notificationChangeResultSchema = z.object({ changed: z.number().int(), unread: z.number().int() });

export const unreadCountSchema = z.object({ unread: z.number().int() });

const channelChoice = z.object({ inApp: z.boolean(), email: z.boolean() });

/** A user's choice per kind. Kinds the user may not receive (permission) are listed with `allowed: false`. */
export const notificationPreferencesSchema = z.object({
  kinds: z.array(
    z.object({
      kind: z.enum(NOTIFICATION_KINDS),
      label: z.string(),
      description: z.string(),
      allowed: z.boolean(),
      inApp: z.boolean(),
      email: z.boolean(),
    }),
  ),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const notificationPreferencesInput = z.object({
  kinds: z.partialRecord(z.enum(NOTIFICATION_KINDS, { error: () => `kind must be one of ${NOTIFICATION_KINDS.join(', ')}` }), channelChoice),
});
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInput>;

/** What the notifications stream sends as `event: notification`. */
export const notificationEventSchema = z.object({ notification: notificationSchema, unread: z.number().int() });
export type NotificationEvent = z.infer<typeof notificationEventSchema>;
