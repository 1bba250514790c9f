import { z } from 'zod';
import { defineLabels } from './field-words.ts';
import { jsonObjectSchema, type JsonValue } from './json.ts';
import { DUTY_STATUSES } from './hos.ts';
import { LOAD_STATUSES, STOP_KINDS } from './loads.ts';
import { SAFETY_EVENT_TYPES, SAFETY_SEVERITIES, SAFETY_SOURCES, SPEEDING_BANDS } from './safety.ts';
import { FUEL_TRANSACTION_CHECKS } from './fuel-transactions.ts';
import { VOLUME_UNITS } from './ifta.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';

defineLabels({ url: 'URL', events: 'Event types', enabled: 'Enabled', deliveryId: 'Delivery' });

// Webhooks (issue 48, decision 0198): an organization subscribes other systems to the facts below.
// Each is written to an outbox in the transaction of the fact and delivered as the Standard Webhooks
// specification says (webhook-id, webhook-timestamp, webhook-signature), at least once, in order per
// subscription. The body is `{ type, timestamp, organizationId, data }`, `data` with the API's names.

/** The event types of the fleet, dispatch, HoS and maintenance facts. */
export const CORE_WEBHOOK_EVENT_TYPES = [
  'vehicle.place_entered',
  'vehicle.place_exited',
  'hos.duty_status_changed',
  'hos.violation_started',
  'hos.log_certified',
  'dvir.submitted',
  'dvir.defect_opened',
  'defect.repaired',
  'load.status_changed',
  'load.stop_arrived',
  'load.stop_departed',
  'load.at_risk',
  'eld.malfunction_recorded',
  'device.offline',
] as const;

/** The safety events (issue 47): written by the safety follower with the event it records. */
export const SAFETY_WEBHOOK_EVENT_TYPES = ['safety.event_created'] as const;

/** The fuel facts (issue 68, decision 0276): a fall of a truck's fuel level (a possible theft), a card purchase its check flagged. */
export const FUEL_WEBHOOK_EVENT_TYPES = ['fuel.drop_detected', 'fuel.purchase_flagged'] as const;

/** Customer tracking (issue 69, decision 0283): a stop's live ETA moved by more than ETA_CHANGE_WEBHOOK_MINUTES. */
export const TRACKING_WEBHOOK_EVENT_TYPES = ['load.eta_changed'] as const;

/** Reefer temperatures (issue 73, decision 0321): a load's temperature out of its band for longer than its delay. */
export const TEMPERATURE_WEBHOOK_EVENT_TYPES = ['temperature.out_of_range'] as const;

/** Every event type a subscription may ask for. */
export const WEBHOOK_EVENT_TYPES = [
  ...CORE_WEBHOOK_EVENT_TYPES,
  ...SAFETY_WEBHOOK_EVENT_TYPES,
  ...FUEL_WEBHOOK_EVENT_TYPES,
  ...TRACKING_WEBHOOK_EVENT_TYPES,
  ...TEMPERATURE_WEBHOOK_EVENT_TYPES,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The sample "Send test event" sends; never subscribed to, always sent to the subscription tested. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

const ts = z.string().describe('An instant in ISO 8601, UTC');
const unit = { assetId: z.string(), unitNumber: z.string() };
const driver = { driverId: z.string(), driverName: z.string() };

const visit = z.object({ visitId: z.string(), placeId: z.string(), placeName: z.string(), category: z.string(), ...unit, arrivedAt: ts });
const loadStop = z.object({
  loadId: z.string(),
  loadNumber: z.string(),
  stopId: z.string(),
  /** 0 for the first stop in driving order. */
  seq: z.number().int(),
  kind: z.enum(STOP_KINDS),
  placeId: z.string().nullable(),
  placeName: z.string().nullable(),
  arrivedAt: ts.nullable(),
  departedAt: ts.nullable(),
  /** Who said so: the driver, a dispatcher, or the truck's visit to the place. */
  source: z.string().nullable(),
});

/** The `data` of each event type: what a receiver can count on. */
export const WEBHOOK_DATA_SCHEMAS = {
  'vehicle.place_entered': visit,
  'vehicle.place_exited': visit.extend({ departedAt: ts, dwellSeconds: z.number().int() }),
  'hos.duty_status_changed': z.object({
    eventId: z.string(),
    ...driver,
    status: z.enum(DUTY_STATUSES),
    /** When the status began (the event's own time, not when it was recorded). */
    startedAt: ts,
    /** DRIVER, AUTOMATIC (the vehicle moved), EDIT or another origin of the record. */
    origin: z.string(),
    assetId: z.string().nullable(),
  }),
  'hos.violation_started': z.object({ ...driver, rule: z.string(), label: z.string(), startedAt: ts }),
  'hos.log_certified': z.object({ ...driver, date: z.string().describe('The log day, YYYY-MM-DD'), certifiedAt: ts }),
  'dvir.submitted': z.object({
    id: z.string(),
    ...unit,
    driverId: z.string().nullable(),
    kind: z.string(),
    inspectedAt: ts,
    hasDefects: z.boolean(),
    unsafe: z.boolean(),
  }),
  'dvir.defect_opened': z.object({
    id: z.string(),
    dvirId: z.string().nullable(),
    engineFaultId: z.string().nullable(),
    complianceItemId: z.string().nullable(),
    ...unit,
    item: z.string(),
    label: z.string(),
    note: z.string().nullable(),
    safety: z.boolean(),
    reportedAt: ts,
  }),
  'defect.repaired': z.object({ id: z.string(), dvirId: z.string().nullable(), ...unit, label: z.string(), status: z.string(), certifiedAt: ts }),
  'load.status_changed': z.object({
    id: z.string(),
    number: z.string(),
    status: z.enum(LOAD_STATUSES),
    previousStatus: z.enum(LOAD_STATUSES).nullable(),
    changedAt: ts,
    note: z.string().nullable(),
  }),
  'load.stop_arrived': loadStop,
  'load.stop_departed': loadStop,
  'load.at_risk': z.object({ id: z.string(), number: z.string(), riskReason: z.string().nullable(), etaUpdatedAt: ts.nullable() }),
  'load.eta_changed': z.object({
    loadId: z.string(),
    loadNumber: z.string(),
    stopId: z.string(),
    /** 0 for the first stop in driving order. */
    seq: z.number().int(),
    kind: z.enum(STOP_KINDS),
    placeName: z.string().nullable(),
    /** The ETA last announced (the first one computed, for the first event of a stop). */
    previousEta: ts,
    eta: ts,
    /** eta minus previousEta, in whole minutes (positive: later). */
    changeMinutes: z.number().int(),
    windowStart: ts,
    windowEnd: ts,
    /** The new ETA falls after the appointment window's end. */
    late: z.boolean(),
  }),
  'eld.malfunction_recorded': z.object({ ...unit, code: z.string(), label: z.string(), recordedAt: ts }),
  'device.offline': z.object({ deviceId: z.string(), uniqueId: z.string(), assetId: z.string().nullable(), unitNumber: z.string().nullable(), lastSeenAt: ts }),
  // The safety event's fields as the safety API names them (GET …/safety/events/{id} has the rest).
  'safety.event_created': z.object({
    id: z.string(),
    type: z.enum(SAFETY_EVENT_TYPES),
    severity: z.enum(SAFETY_SEVERITIES),
    source: z.enum(SAFETY_SOURCES),
    startedAt: ts,
    /** The episode may still be under way when the event is created (speeding, idling): its end so far. */
    endedAt: ts,
    driverId: z.string().nullable(),
    assetId: z.string(),
    /** The vehicle's unit number. */
    assetName: z.string(),
    lat: z.number(),
    lon: z.number(),
    speedBeforeKph: z.number().nullable(),
    maxSpeedKph: z.number().nullable(),
    limitKph: z.number().nullable(),
    band: z.enum(SPEEDING_BANDS).nullable(),
    strengthMps2: z.number().nullable(),
  }),
  // The excursion's fields as GET …/loads/{loadId}/temperatures names them, with the load and trailer.
  'temperature.out_of_range': z.object({
    id: z.string(),
    loadId: z.string(),
    loadNumber: z.string(),
    trailerId: z.string(),
    trailerUnit: z.string(),
    sensor: z.string(),
    /** The first reading out of the band; the event is sent once it has lasted the load's delay. */
    startedAt: ts,
    direction: z.enum(['HIGH', 'LOW']),
    /** °C, the reading farthest from the set point so far. */
    peakC: z.number(),
    setPointC: z.number(),
    toleranceC: z.number(),
    delayMinutes: z.number().int(),
  }),
  // The fuel event's fields as GET …/fuel-events names them.
  'fuel.drop_detected': z.object({
    id: z.string(),
    ...unit,
    driverId: z.string().nullable(),
    startedAt: ts,
    endedAt: ts,
    lat: z.number(),
    lon: z.number(),
    /** The nearest town, in words. */
    place: z.string().nullable(),
    /** Litres gone. */
    quantityL: z.number(),
    levelBeforePct: z.number(),
    levelAfterPct: z.number(),
    levelBeforeL: z.number(),
    levelAfterL: z.number(),
    ignitionOff: z.boolean(),
  }),
  // The transaction's fields as GET …/fuel-transactions/{id} names them.
  'fuel.purchase_flagged': z.object({
    id: z.string(),
    transactionId: z.string(),
    assetId: z.string().nullable(),
    unitNumber: z.string().nullable(),
    driverId: z.string().nullable(),
    time: ts,
    merchant: z.string().nullable(),
    state: z.string().nullable(),
    quantity: z.number(),
    unit: z.enum(VOLUME_UNITS),
    /** What the check found: any result but VERIFIED. */
    verification: z.enum(FUEL_TRANSACTION_CHECKS),
    /** The result before this check (null: the transaction was just recorded). */
    previousVerification: z.enum(FUEL_TRANSACTION_CHECKS).nullable(),
    /** The result in words, in the organization's units. */
    reason: z.string(),
  }),
} satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookData<T extends WebhookEventType> = z.infer<(typeof WEBHOOK_DATA_SCHEMAS)[T]>;

const ASSET = '6f1c2b1e-8a4e-4c55-9a43-0d7f2b7c1a01';
const DRIVER = '2b7d9c10-3f0e-4a1d-b6f5-8e4c0a9d5e02';
const LOAD = '9a3e5f21-7c4b-4d8e-a1f2-3b5c7d9e0f03';
const PLACE = 'c4d6e8f0-1a2b-4c3d-8e5f-6a7b8c9d0e04';
const at = '2026-06-01T14:30:00.000Z';

/** What each type is, in a sentence, and an example of its `data` (the subscription screen and the API document show both). */
export const WEBHOOK_EVENT_INFO: Record<WebhookEventType, { description: string; example: Record<string, JsonValue> }> = {
  'vehicle.place_entered': {
    description: 'A vehicle arrived at a place (customer, terminal, yard, restricted area).',
    example: { visitId: '5e0c…', placeId: PLACE, placeName: 'Acme DC Dallas', category: 'CUSTOMER', assetId: ASSET, unitNumber: '101', arrivedAt: at },
  },
  'vehicle.place_exited': {
    description: 'A vehicle left a place.',
    example: {
      visitId: '5e0c…',
      placeId: PLACE,
      placeName: 'Acme DC Dallas',
      category: 'CUSTOMER',
      assetId: ASSET,
      unitNumber: '101',
      arrivedAt: at,
      departedAt: '2026-06-01T15:10:00.000Z',
      dwellSeconds: 2400,
    },
  },
  'hos.duty_status_changed': {
    description: 'A driver’s duty status changed (off duty, sleeper berth, driving, on duty).',
    example: { eventId: '8f2a…', driverId: DRIVER, driverName: 'Luis Ortiz', status: 'D', startedAt: at, origin: 'AUTOMATIC', assetId: ASSET },
  },
  'hos.violation_started': {
    description: 'A driver went over an hours-of-service limit.',
    example: { driverId: DRIVER, driverName: 'Luis Ortiz', rule: 'DRIVE_11', label: '11-hour driving limit', startedAt: at },
  },
  'hos.log_certified': {
    description: 'A driver certified a day of their log.',
    example: { driverId: DRIVER, driverName: 'Luis Ortiz', date: '2026-05-31', certifiedAt: at },
  },
  'dvir.submitted': {
    description: 'A driver submitted a vehicle inspection report.',
    example: { id: '1d4f…', assetId: ASSET, unitNumber: '101', driverId: DRIVER, kind: 'PRE_TRIP', inspectedAt: at, hasDefects: true, unsafe: false },
  },
  'dvir.defect_opened': {
    description: 'A defect was reported on a vehicle (by an inspection, or made of an engine fault or of a failed annual inspection item).',
    example: {
      id: '7b1e…',
      dvirId: '1d4f…',
      engineFaultId: null,
      complianceItemId: null,
      assetId: ASSET,
      unitNumber: '101',
      item: 'LIGHTS',
      label: 'Lights',
      note: 'Left marker out',
      safety: false,
      reportedAt: at,
    },
  },
  'defect.repaired': {
    description: 'A defect was certified repaired (or not needing repair).',
    example: { id: '7b1e…', dvirId: '1d4f…', assetId: ASSET, unitNumber: '101', label: 'Lights', status: 'REPAIRED', certifiedAt: at },
  },
  'load.status_changed': {
    description: 'A load’s status moved (planned, assigned, en route, at a stop, delivered, cancelled).',
    example: { id: LOAD, number: 'L-1042', status: 'EN_ROUTE', previousStatus: 'ASSIGNED', changedAt: at, note: null },
  },
  'load.stop_arrived': {
    description: 'The truck of a load arrived at one of its stops.',
    example: {
      loadId: LOAD,
      loadNumber: 'L-1042',
      stopId: '3c9d…',
      seq: 0,
      kind: 'PICKUP',
      placeId: PLACE,
      placeName: 'Acme DC Dallas',
      arrivedAt: at,
      departedAt: null,
      source: 'PLACE',
    },
  },
  'load.stop_departed': {
    description: 'The truck of a load left one of its stops.',
    example: {
      loadId: LOAD,
      loadNumber: 'L-1042',
      stopId: '3c9d…',
      seq: 0,
      kind: 'PICKUP',
      placeId: PLACE,
      placeName: 'Acme DC Dallas',
      arrivedAt: at,
      departedAt: '2026-06-01T15:10:00.000Z',
      source: 'DRIVER',
    },
  },
  'load.at_risk': {
    description: 'A running load’s live ETA, legal by the driver’s hours, passes a stop’s appointment window.',
    example: { id: LOAD, number: 'L-1042', riskReason: 'Needs a 10-hour break before the delivery', etaUpdatedAt: at },
  },
  'load.eta_changed': {
    description: 'A running load’s live ETA to a stop moved by more than 15 minutes from the one last announced.',
    example: {
      loadId: LOAD,
      loadNumber: 'L-1042',
      stopId: '7d1e…',
      seq: 1,
      kind: 'DELIVERY',
      placeName: 'Acme DC Dallas',
      previousEta: at,
      eta: '2026-06-01T15:05:00.000Z',
      changeMinutes: 35,
      windowStart: '2026-06-01T14:00:00.000Z',
      windowEnd: '2026-06-01T16:00:00.000Z',
      late: false,
    },
  },
  'eld.malfunction_recorded': {
    description: 'The ELD recorded a malfunction on a vehicle (power, timing, position, data transfer…).',
    example: { assetId: ASSET, unitNumber: '101', code: 'L', label: 'Positioning compliance malfunction', recordedAt: at },
  },
  'device.offline': {
    description: 'A device stopped reporting for longer than the offline threshold.',
    example: { deviceId: '0a1b…', uniqueId: '357454070000001', assetId: ASSET, unitNumber: '101', lastSeenAt: at },
  },
  'safety.event_created': {
    description: 'A safety event was recorded (harsh braking, acceleration or cornering, speeding, a crash, idling…), whatever its severity.',
    example: {
      id: '4e8b…',
      type: 'HARSH_BRAKING',
      severity: 'HIGH',
      source: 'DEVICE',
      startedAt: at,
      endedAt: '2026-06-01T14:30:02.000Z',
      driverId: DRIVER,
      assetId: ASSET,
      assetName: '101',
      lat: 32.7767,
      lon: -96.797,
      speedBeforeKph: 88,
      maxSpeedKph: 88,
      limitKph: null,
      band: null,
      strengthMps2: 4.6,
    },
  },
  'temperature.out_of_range': {
    description:
      'A reefer load’s temperature stayed outside its set point’s tolerance for longer than the load’s delay (15 minutes by default; a defrost cycle does not count). Sent once per excursion.',
    example: {
      id: '7d1e…',
      loadId: '5b0c…',
      loadNumber: 'L-1042',
      trailerId: '3f9a…',
      trailerUnit: 'R-201',
      sensor: 'return',
      startedAt: at,
      direction: 'HIGH',
      peakC: -11.5,
      setPointC: -18,
      toleranceC: 3,
      delayMinutes: 15,
    },
  },
  'fuel.drop_detected': {
    description: 'A truck’s fuel level fell by 5 % of its tank or more within 30 minutes while it stood or its ignition was off: a possible theft.',
    example: {
      id: '9c2d…',
      assetId: ASSET,
      unitNumber: '101',
      driverId: DRIVER,
      startedAt: at,
      endedAt: '2026-06-01T14:52:00.000Z',
      lat: 32.7767,
      lon: -96.797,
      place: 'Dallas, TX',
      quantityL: 227.1,
      levelBeforePct: 74,
      levelAfterPct: 54,
      levelBeforeL: 840.3,
      levelAfterL: 613.2,
      ignitionOff: true,
    },
  },
  'fuel.purchase_flagged': {
    description:
      'A fuel-card purchase was not verified against its truck: the truck was elsewhere, had no position, its tank could not take that much, or its fuel level did not rise.',
    example: {
      id: '2f7a…',
      transactionId: 'WEX-88412907',
      assetId: ASSET,
      unitNumber: '101',
      driverId: DRIVER,
      time: at,
      merchant: "Love's Travel Stop #123",
      state: 'TX',
      quantity: 120.5,
      unit: 'GAL',
      verification: 'NO_FILL_SEEN',
      previousVerification: null,
      reason: 'The truck was 60 ft from the station, but its fuel level did not rise after the purchase (54 % before)',
    },
  },
};

/** The body every delivery carries. */
export const webhookPayloadSchema = z.object({
  type: z.string(),
  /** When the fact happened (ISO 8601, UTC). */
  timestamp: z.string(),
  organizationId: z.string(),
  /** The type's fields (WEBHOOK_DATA_SCHEMAS; the API document's webhooks section shows each). */
  data: jsonObjectSchema,
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

const url = z
  .string({ error: () => 'URL is a required field' })
  .trim()
  .min(1, { error: 'URL is a required field', abort: true })
  .max(2000, 'URL must be at most 2000 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'URL must be an absolute https URL without credentials, such as https://tms.example.com/hooks/fleetline');

export const webhookInputSchema = z.object({
  url,
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: () => `events must be event types: ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
      error: () => 'Event types is a required field',
    })
    .min(1, 'Choose at least one event type')
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((v) => [...new Set(v)]),
  description: z
    .string()
    .trim()
    .max(500, 'Description must be at most 500 characters')
    .nullish()
    .transform((v) => (v ? v : null)),
  enabled: z.boolean().optional(),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why it was turned off by the server: GONE (the receiver answered 410) or FAILING (5 days of failures); null otherwise. */
  disabledReason: z.enum(['GONE', 'FAILING']).nullable(),
  /** Since when every attempt has failed; null while deliveries succeed. */
  failingSince: z.string().nullable(),
  /** Until when the secret before the last rotation still signs deliveries too. */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Deliveries waiting or being retried. */
  pendingDeliveries: z.number().int(),
  /**
   * Attempts in a row that got no answer within the timeout; above 0 the receiver is timing out and
   * its attempts get a shorter timeout and fewer of the sender's slots until it answers again.
   */
  consecutiveTimeouts: z.number().int(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** A create or a rotation: the only answers that carry the signing secret (`whsec_…`). */
export const webhookCreatedSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  secret: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;
export const webhookSecretSchema = z.object({ id: z.string(), secret: z.string(), previousSecretExpiresAt: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookListSchema = z.object({
  content: z.array(webhookSchema),
  /** The most subscriptions the organization may have (the server's WEBHOOK_MAX_PER_ORG); a create past it is refused with 400. */
  limit: z.number().int(),
});
export type WebhookList = z.infer<typeof webhookListSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  /** The webhook-id header: the same on every attempt, so the receiver can de-duplicate. */
  messageId: z.string(),
  eventType: z.string(),
  /** PENDING (waiting or to be retried), DELIVERED (a 2xx answer) or FAILED (given up). */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The last answer's status code; null before an answer (or when none came: timeout, refused). */
  responseCode: z.number().int().nullable(),
  /** The last attempt's error in words, when there was no answer or it was not 2xx. */
  lastError: z.string().nullable(),
  /** The last answer's time to arrive, in milliseconds. */
  durationMs: z.number().int().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  payload: webhookPayloadSchema,
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = pageSchema(webhookDeliverySchema);
export const webhookDeliveryListQuery = pageQuerySchema.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: () => `status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
});
export const webhookIdParams = z.object({ orgId: z.uuid(), id: z.uuid('id must be a webhook id') });
export const webhookDeliveryParams = webhookIdParams.extend({ deliveryId: z.string().regex(/^\d{1,18}$/, 'deliveryId must be a delivery id') });

/** The event types with their descriptions and examples, for the subscription screen. */
export const webhookEventTypeSchema = z.object({ type: z.string(), description: z.string(), example: webhookPayloadSchema });
export const webhookEventTypeListSchema = z.object({ content: z.array(webhookEventTypeSchema) });
export type WebhookEventTypeInfo = z.infer<typeof webhookEventTypeSchema>;

/** A whole example body of a type, as a receiver gets it. */
export function webhookExample(type: WebhookEventType, organizationId = 'e2a9c7d1-0b3f-4e5a-9c8d-7f6e5d4c3b05'): WebhookPayload {
  return { type, timestamp: at, organizationId, data: WEBHOOK_EVENT_INFO[type].example };
}
