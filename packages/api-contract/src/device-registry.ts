import { z } from 'zod';
import { ENGINE_ATTRIBUTE_NAMES } from './engine-data.ts';
import { defineLabels } from './field-words.ts';
import { jsonObjectSchema } from './json.ts';

// Issue 30 (decision 0154): the organization's Traccar forwarding token, the protocols a device
// model can name, what engine data a device was seen sending, and the ids refused as unknown.

/** The protocols this product decodes itself or receives (a model's protocol stays a free code). */
export const KNOWN_PROTOCOLS = {
  osmand: 'OsmAnd protocol (Traccar Client, OsmAnd app): phones over HTTP, GPS only',
  teltonika: 'Teltonika FMB/FMC/FMM over TCP (codec 8 and 8 Extended); engine data through CAN/J1939 and the IO map',
  traccar: "Any of Traccar's 200+ protocols, forwarded as JSON by a Traccar server with the organization's token",
  batch: "A gateway's JSON batches (POST /ingest/positions) with the device's own token",
} as const;
export type KnownProtocol = keyof typeof KNOWN_PROTOCOLS;

/** The organization's forwarding token: whether one exists, never the token itself after creation. */
export const orgIngestTokenStatusSchema = z.object({
  exists: z.boolean(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** Where Traccar forwards to (forward.url). */
  ingestUrl: z.string(),
});
export type OrgIngestTokenStatus = z.infer<typeof orgIngestTokenStatusSchema>;
/** The create/rotate answer: the token, shown once. */
export const orgIngestTokenCreatedSchema = orgIngestTokenStatusSchema.extend({ token: z.string() });
export type OrgIngestTokenCreated = z.infer<typeof orgIngestTokenCreatedSchema>;

/** Engine data seen from a device in its recent positions, per attribute. */
export const engineDataSeenSchema = z.object({
  /** Newest position time the answer looked at (null: none yet). */
  lastPositionAt: z.string().nullable(),
  attributes: z.object(
    Object.fromEntries(ENGINE_ATTRIBUTE_NAMES.map((n) => [n, z.boolean()])) as Record<(typeof ENGINE_ATTRIBUTE_NAMES)[number], z.ZodBoolean>,
  ),
  /** True when an ELD attribute (ELD_ENGINE_ATTRIBUTES) was never seen: "GPS only: not an ELD". */
  gpsOnly: z.boolean(),
});
export type EngineDataSeen = z.infer<typeof engineDataSeenSchema>;

/** A device id refused as unknown (in memory, per API instance, newest first). */
export const refusedDeviceSchema = z.object({
  uniqueId: z.string(),
  protocol: z.string(),
  firstAt: z.string(),
  lastAt: z.string(),
  attempts: z.number().int(),
});
export type RefusedDevice = z.infer<typeof refusedDeviceSchema>;
/** The super administrator's view adds whose token, if any, and the sender's address. */
export const refusedDeviceAdminSchema = refusedDeviceSchema.extend({
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  remoteAddress: z.string().nullable(),
});
export type RefusedDeviceAdmin = z.infer<typeof refusedDeviceAdminSchema>;
/** "This id tried to connect at <time>": one exact id, whoever's token it came with (no listing). */
export const refusedDeviceLookupQuery = z.object({ uniqueId: z.string().min(1, 'Unique id is a required field').max(64) });
export const refusedDeviceLookupSchema = z.object({ lastAt: z.string().nullable(), protocol: z.string().nullable(), attempts: z.number().int() });

defineLabels({ 'position.deviceTime': 'Device time', 'position.valid': 'Valid fix', device: 'Device' });

/** Traccar's forwarded body as documented (the route's decoder checks it, names the field and ignores Traccar's other keys). */
export const traccarForwardDoc = z.object({
  position: z.object({
    protocol: z.string().optional(),
    fixTime: z.string().describe('ISO-8601'),
    deviceTime: z.string().optional(),
    valid: z.boolean().optional(),
    latitude: z.number(),
    longitude: z.number(),
    altitude: z.number().optional(),
    speed: z.number().optional().describe('Knots'),
    course: z.number().optional(),
    accuracy: z.number().optional(),
    attributes: jsonObjectSchema.optional().describe('ignition, motion, odometer (m), obdOdometer (m), hours (ms), vin, power (V), rpm, obdSpeed (knots), …'),
  }),
  device: z.object({ uniqueId: z.string(), name: z.string().optional() }),
});
