import { z } from 'zod';
import { instantField } from './dates.ts';
import { assetRef, entityRef, optionalPhone, optionalText, recordStatus, registryListQuery } from './registry-fields.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { defineLabels } from './field-words.ts';
import { requiredText } from './validation.ts';
import { engineDataSeenSchema } from './device-registry.ts';

defineLabels({ uniqueId: 'Unique id', deviceModelId: 'Device model', firmware: 'Firmware', useReceivedTime: 'Use the time received' });

/** Add and edit form of a device (gateway). */
export const gatewayInputSchema = z.object({
  /** IMEI or serial number: what the device sends as its id; unique across all organizations. */
  uniqueId: requiredText('Unique id', 64).regex(/^[A-Za-z0-9._:-]+$/, 'Unique id may use letters, digits and . _ : -'),
  name: requiredText('Name', 100),
  deviceModelId: z
    .uuid('Device model must be a device model id')
    .nullish()
    .transform((v) => v ?? null),
  /** SIM phone number. */
  phone: optionalPhone,
  firmware: optionalText(60),
  status: recordStatus.default('ACTIVE'),
  notes: optionalText(2000),
  /**
   * Store the device's fixes at the time they arrive instead of its own clock (Traccar's
   * `time.override`), for a clock that cannot be set right. Left out: unchanged (false on add).
   */
  useReceivedTime: z.boolean({ error: 'Use the time received must be true or false' }).optional(),
});
export type GatewayInput = z.input<typeof gatewayInputSchema>;

export const gatewaySchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  uniqueId: z.string(),
  name: z.string(),
  deviceModel: z.object({ id: z.string(), name: z.string(), manufacturer: z.string().nullable(), protocol: z.string() }).nullable(),
  phone: z.string().nullable(),
  firmware: z.string().nullable(),
  status: recordStatus,
  /** The vehicle paired now. */
  asset: assetRef.nullable(),
  lastSeenAt: z.string().nullable(),
  hasIngestToken: z.boolean(),
  /** What engine data the device's newest positions carried (issue 30): "GPS only" when the ELD's is missing. */
  engineData: engineDataSeenSchema,
  notes: z.string().nullable(),
  /** Fixes are stored at the time received, not the device's (issue 43). */
  useReceivedTime: z.boolean(),
  groups: z.array(entityRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Gateway = z.infer<typeof gatewaySchema>;

export const gatewayDetailSchema = gatewaySchema.extend({
  pairingHistory: z.array(z.object({ from: z.string(), to: z.string().nullable(), asset: assetRef })),
});
export type GatewayDetail = z.infer<typeof gatewayDetailSchema>;

/** The create answer carries the batch-ingest token once; only its SHA-256 is stored. */
export const gatewayCreatedSchema = gatewayDetailSchema.extend({ ingestToken: z.string() });
export const ingestTokenSchema = z.object({ ingestToken: z.string() });

export const gatewayPageSchema = pageSchema(gatewaySchema);
export const GATEWAY_SORT_FIELDS = ['name', 'uniqueId', 'status', 'lastSeenAt', 'firmware', 'createdAt'] as const;
export const gatewayListQuery = registryListQuery.extend({
  paired: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** true: reported before, but nothing for 24 hours (DEVICE_OFFLINE_HOURS); false: reported within them. */
  offline: z
    .enum(['true', 'false'], { error: () => 'offline must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});
export const gatewayIdParams = z.object({ orgId: z.uuid(), id: z.uuid('id must be a device id') });
export const gatewayPairParams = gatewayIdParams.extend({ assetId: z.uuid('assetId must be a vehicle id') });

/**
 * Pairing's optional start: the positions the device sent since then that belong to no vehicle
 * become the vehicle's (default now). Not in the future, nor before the device's previous pairing
 * ended or the vehicle's previous device was unpaired.
 */
export const gatewayPairBodySchema = z.object({ from: instantField('from', { message: 'Positions from must be an ISO-8601 date-time' }).optional() }).nullish();
export type GatewayPairBody = z.input<typeof gatewayPairBodySchema>;

/** A command's life (issue 73, decision 0318): waiting for the device, written to it, answered, or expired unanswered. */
export const DEVICE_COMMAND_STATUSES = ['QUEUED', 'SENT', 'ANSWERED', 'EXPIRED'] as const;
export type DeviceCommandStatus = (typeof DEVICE_COMMAND_STATUSES)[number];

/** How long a command waits for its answer, from when it is queued (a constant: 24 hours). */
export const DEVICE_COMMAND_EXPIRY_HOURS = 24;
/** The longest command text (Teltonika's own limit for a GPRS command is larger; no documented command comes near). */
export const DEVICE_COMMAND_MAX_LENGTH = 200;

// `text` is the device command's field only (no other request has one); a later field of that name reads "Command" unless it declares a dotted path.
defineLabels({ text: 'Command' });

/** POST .../gateways/{gatewayId}/commands: the command's text, as the device's documentation spells it. */
export const deviceCommandInputSchema = z.object({
  text: requiredText('Command', DEVICE_COMMAND_MAX_LENGTH).regex(/^[\x20-\x7e]+$/, 'Command may use printable ASCII characters only'),
});
export type DeviceCommandInput = z.input<typeof deviceCommandInputSchema>;

export const deviceCommandSchema = z.object({
  id: z.string(),
  gatewayId: z.string(),
  text: z.string(),
  status: z.enum(DEVICE_COMMAND_STATUSES),
  /** The device's answer, once it came. */
  answer: z.string().nullable(),
  /** Who queued it: the user's e-mail, and the API token's name when a token did. */
  queuedBy: z.object({ userId: z.string().nullable(), email: z.string().nullable(), token: z.string().nullable() }),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type DeviceCommand = z.infer<typeof deviceCommandSchema>;
export const deviceCommandParams = z.object({ orgId: z.uuid(), gatewayId: z.uuid('gatewayId must be a device id') });
export const deviceCommandListQuery = pageQuerySchema.omit({ search: true, sort: true });
export const deviceCommandPageSchema = pageSchema(deviceCommandSchema);

/**
 * The common commands of a device protocol (the console's quick buttons), as Teltonika's FMB/FMC
 * documentation spells them; `readio <id>` and the like are templates the user completes.
 */
export const DEVICE_COMMON_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  teltonika: ['getinfo', 'getver', 'getstatus', 'getgps', 'getio', 'readio ', 'setdigout 1', 'setdigout 0', 'cpureset'],
};

/**
 * A device's refused fixes of the last 24 hours (issue 43): what ingest answered as received but
 * did not store, one row per minute and reason with how many. `offsetMs` is the device clock's
 * offset (fix time minus time received) and `hint` what to do about it, in words.
 */
export const refusedFixSchema = z.object({
  /** When the newest of them arrived (ISO instant). */
  receivedAt: z.string(),
  /** Its fix time, null when it had none that was a time. */
  fixTime: z.string().nullable(),
  /** The time it was sent with when that was not a time a fix can have (year 0000, +010000-01-01T00:00:00.000Z, "yesterday"), as text; null otherwise. */
  fixTimeText: z.string().nullable(),
  /** tooOld, inFuture, badTime, coordinates, speed, course, altitude, … or database. */
  reason: z.string(),
  message: z.string(),
  /** The field refused (timestamp, lat, speed…), when one was. */
  field: z.string().nullable(),
  protocol: z.string(),
  /** Fixes refused for this reason in this minute. */
  count: z.number().int(),
  offsetMs: z.number().nullable(),
  /** The offset in words: "2 years behind", "2 hours fast"; null when the clock looks right. */
  offset: z.string().nullable(),
  hint: z.string().nullable(),
  /**
   * For a frame the server cannot read (reason `undecodable`): when the device first sent one with
   * this message in the last 24 hours ("sent codec 13: not supported, since 10:42"); null otherwise.
   */
  since: z.string().nullable(),
});
export type RefusedFix = z.infer<typeof refusedFixSchema>;
export const refusedFixPageSchema = pageSchema(refusedFixSchema);
export const REFUSED_FIX_SORT_FIELDS = ['receivedAt', 'reason', 'count'] as const;
/** Paged like every list; newest first unless `sort` says otherwise. */
export const refusedFixListQuery = pageQuerySchema.omit({ search: true });
