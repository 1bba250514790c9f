import { z } from 'zod';
import { queryNumber } from './numbers.ts';
import { instantField } from './dates.ts';
import { defineLabels } from './field-words.ts';
import { jsonObjectSchema } from './json.ts';
import { batchTemperaturesSchema } from './temperatures.ts';

// Telematics contracts: batch ingest, the live vehicle list/stream and history routes.
// Units: speed km/h, distance metres, angles degrees, times ISO-8601 UTC.

export const MAX_BATCH_POSITIONS = 1000;
/** A fix more than this far in the future is refused (a device clock gone wrong). */
export const MAX_FUTURE_FIX_MS = 10 * 60 * 1000;

// Gateway integrators read the JSON names: the batch's messages name its fields as written.
defineLabels({
  positions: 'positions',
  fixTime: 'fixTime',
  latitude: 'latitude',
  longitude: 'longitude',
  speed: 'speed',
  course: 'course',
  altitude: 'altitude',
  accuracy: 'accuracy',
  odometer: 'odometer',
  ignition: 'ignition',
  fuelLevel: 'fuelLevel',
  fuelUsed: 'fuelUsed',
  attributes: 'attributes',
});

/** One fix in a gateway's batch. */
export const batchPositionSchema = z.object({
  fixTime: z.iso.datetime({ offset: true, message: 'fixTime must be an ISO-8601 date-time' }),
  latitude: z.number().min(-90, 'latitude must be between -90 and 90').max(90, 'latitude must be between -90 and 90'),
  longitude: z.number().min(-180, 'longitude must be between -180 and 180').max(180, 'longitude must be between -180 and 180'),
  /** km/h. */
  speed: z.number().min(0, 'speed must be 0 or more').max(1000, 'speed must be at most 1000 km/h').nullable().optional(),
  course: z.number().min(0, 'course must be between 0 and 360').max(360, 'course must be between 0 and 360').nullable().optional(),
  altitude: z.number().min(-1000, 'altitude must be between -1000 and 20000 m').max(20000, 'altitude must be between -1000 and 20000 m').nullable().optional(),
  accuracy: z.number().min(0).nullable().optional(),
  /** Metres. */
  odometer: z.number().min(0).nullable().optional(),
  ignition: z.boolean().nullable().optional(),
  /** The fuel in the tank, percent of the tank (issue 68): kept as the position's `fuelLevel` attribute. */
  fuelLevel: z.number().min(0, 'fuelLevel must be between 0 and 100').max(100, 'fuelLevel must be between 0 and 100').nullable().optional(),
  /** Litres the engine has used in total (its counter): kept as the position's `fuelUsed` attribute. */
  fuelUsed: z.number().min(0, 'fuelUsed must be 0 or more').nullable().optional(),
  /** Anything else the device reports (Traccar's attributes: battery, hdop, io values…; `fuelLevelLitres`, the fuel in the tank in litres). */
  attributes: jsonObjectSchema.optional(),
  /** Reefer temperatures read with the fix (issue 73): each sensor's name, °C, and whether a defrost runs. */
  temperatures: batchTemperaturesSchema.optional(),
});
export type BatchPosition = z.infer<typeof batchPositionSchema>;

const positionsList = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1, 'positions must hold at least one position').max(MAX_BATCH_POSITIONS, `positions can hold at most ${MAX_BATCH_POSITIONS} positions`);

/**
 * The batch as the API document shows it: up to 1,000 positions of `batchPositionSchema`. A
 * position the schema refuses is reported in `rejected` (index and reason); the others are stored.
 */
export const batchIngestSchema = z.object({ positions: positionsList(batchPositionSchema) });

/**
 * What the route validates as a whole: the list and its size. Each position is checked on its own
 * by the ingest's fast check, falling back to `batchPositionSchema` (decision 0058), so one bad fix
 * does not refuse the rest and 1,000 positions are not run through zod twice.
 */
export const batchIngestEnvelopeSchema = z.object({ positions: positionsList(z.unknown()) });

// The OsmAnd protocol as devices send it, for the API document only: the API's OsmAnd decoder
// (Traccar's rules) reads these, and every other parameter becomes an attribute of the fix.

/** Query (or form-encoded body) parameters of the OsmAnd protocol. */
export const osmandQueryDoc = z.object({
  id: z.string().optional().describe('Device unique id (required, or `deviceid`)'),
  deviceid: z.string().optional().describe('Same as `id`'),
  timestamp: z.string().optional().describe('Fix time: epoch seconds or milliseconds, ISO-8601, or `yyyy-MM-dd HH:mm:ss`'),
  lat: z.number().optional().describe('Latitude, degrees'),
  lon: z.number().optional().describe('Longitude, degrees'),
  location: z.string().optional().describe('`lat,lon` in one parameter'),
  speed: z.number().optional().describe('Speed in knots'),
  bearing: z.number().optional().describe('Course, degrees (or `heading`)'),
  altitude: z.number().optional().describe('Metres'),
  accuracy: z.number().optional().describe('Metres'),
  hdop: z.number().optional(),
  batt: z.number().optional().describe('Battery level, percent'),
  charge: z.boolean().optional(),
  ignition: z.boolean().optional(),
  odometer: z.number().optional().describe('Metres'),
  valid: z.boolean().optional(),
  driverUniqueId: z.string().optional(),
  cell: z.string().optional().describe('`mcc,mnc,lac,cid[,rssi]`, repeatable'),
  wifi: z.string().optional().describe('`mac,rssi`, repeatable'),
  notificationToken: z.string().optional().describe('Push token (Traccar Client 10); nothing is stored for it'),
});

/** The JSON body of Traccar Client 9 and later (transistorsoft location). */
export const osmandJsonDoc = z.object({
  device_id: z.string().describe('Device unique id'),
  location: z
    .object({
      timestamp: z.string().optional().describe('ISO-8601'),
      coords: z
        .object({
          latitude: z.number(),
          longitude: z.number(),
          speed: z.number().optional().describe('m/s; -1 when unknown'),
          heading: z.number().optional(),
          accuracy: z.number().optional(),
          altitude: z.number().optional(),
        })
        .optional(),
      is_moving: z.boolean().optional(),
      odometer: z.number().optional().describe('Metres'),
      event: z.string().optional(),
      activity: z.object({ type: z.string() }).optional(),
      mock: z.boolean().optional(),
      alarm: z.string().optional(),
      battery: z.object({ level: z.number().optional().describe('0 to 1'), is_charging: z.boolean().optional() }).optional(),
      extras: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    })
    .optional(),
});

export const batchIngestResultSchema = z.object({
  /** Newly stored. */
  accepted: z.number().int(),
  /** Already stored earlier (same device and fix time); not stored twice. */
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), message: z.string() })),
});
export type BatchIngestResult = z.infer<typeof batchIngestResultSchema>;

/** A fix older than this is refused by ingest (and by a GPS history import). */
export const MAX_FIX_AGE_DAYS = 365;

/** GET /admin/diagnostics/ingest (super administrator): this API instance's ingest since it started: what it stored, refused and failed to store. */
export const ingestDiagnosticsSchema = z.object({
  refusedFixes: z.object({
    total: z.number().int(),
    tooOld: z.number().int().describe('Fix time more than 1 year old'),
    inFuture: z.number().int().describe('Fix time more than 10 minutes in the future'),
    badTime: z.number().int().describe('A time that is not a time'),
    coordinates: z.number().int().describe('Latitude or longitude out of range or not a number'),
    speed: z.number().int().describe('Negative or not a finite number'),
    course: z.number().int().describe('Negative, above 360 or not a finite number'),
    altitude: z.number().int().describe('Below -1,000 m, above 20,000 m or not a finite number'),
    accuracy: z.number().int().describe('Negative, above 100 km or not a finite number'),
    value: z.number().int().describe('A number no column can hold (e.g. 1e308 or 1e-320 where single precision is stored), or a field of the wrong type'),
    attributes: z.number().int().describe('Attributes with a NUL or a lone surrogate, nested more than 8 deep, or over 64 kB'),
    database: z.number().int().describe('Refused by the database itself after the rest of its group was stored'),
  }),
  /** Acknowledged by the devices' answers: positions stored since start. */
  storedPositions: z.number().int(),
  /** Organization writes that failed, by cause: a SQLSTATE ("57P01") or "unavailable: …". Their positions were not acknowledged: the devices send them again. */
  failedCommits: z.array(z.object({ cause: z.string(), count: z.number().int() })),
  failedPositions: z.number().int(),
  /** Statements run again after a deadlock or the database unavailable for a moment. */
  retriedStatements: z.number().int(),
  /** 5xx answers and packets left unacknowledged, by way in. */
  serverErrors: z.array(z.object({ way: z.string(), count: z.number().int() })),
  lastStoredAt: z.iso.datetime().nullable(),
  lastFailure: z.object({ at: z.iso.datetime(), cause: z.string() }).nullable(),
  /** Organizations whose positions fail to store right now. */
  failingOrganizations: z.array(z.object({ organizationId: z.uuid(), since: z.iso.datetime(), cause: z.string(), positions: z.number().int() })),
  /** Why /readyz says this instance is not storing positions, or null. */
  problem: z.string().nullable(),
  /** The refused-fix recorder (each device's page lists its refusals). */
  refusalLog: z.object({ noted: z.number().int(), written: z.number().int(), dropped: z.number().int(), failed: z.number().int() }).nullable(),
});
export type IngestDiagnostics = z.infer<typeof ingestDiagnosticsSchema>;

// A vehicle's GPS history from another system (a carrier switching mid-quarter): CSV or GPX,
// previewed (dry run) and then imported; the positions are marked protocol 'import'.

defineLabels({ file: 'File', format: 'Format', dryRun: 'Dry run' });

export const POSITION_IMPORT_FORMATS = ['CSV', 'GPX'] as const;
export type PositionImportFormat = (typeof POSITION_IMPORT_FORMATS)[number];
/** The positions' protocol (and their history and IFTA records' mark) when imported. */
export const IMPORTED_PROTOCOL = 'import';

export const positionImportBodySchema = z.object({
  /** The file's text: CSV with time, latitude, longitude (speed, course, altitude, odometer optional) columns, or GPX. */
  file: z
    .string({ error: () => 'File is a required field' })
    .min(1, 'File is a required field')
    .max(8_000_000, 'The file is too large (8 MB at most)'),
  /** Detected from the text when absent (XML is GPX). */
  format: z.enum(POSITION_IMPORT_FORMATS, { error: () => 'Format must be CSV or GPX' }).optional(),
  /** Times without an offset are read in this IANA zone (default the organization's). */
  timeZone: z.string().trim().max(64).optional(),
  /** Check only: nothing is saved (also `?dryRun=true`). */
  dryRun: z.boolean().default(false),
});
export type PositionImportBody = z.input<typeof positionImportBodySchema>;
export const positionImportQuery = z.object({
  dryRun: z
    .enum(['true', 'false'], { error: () => 'dryRun must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});

export const positionImportResultSchema = z.object({
  dryRun: z.boolean(),
  format: z.enum(POSITION_IMPORT_FORMATS),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  /** Stored now (0 in a dry run). */
  imported: z.number().int(),
  /** Already stored by an earlier import of the same vehicle and time. */
  duplicates: z.number().int(),
  /** Per row: its line in the file (a CSV's header is line 1; a GPX track point's line), the column or element, and why. */
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })),
  /** First and last valid fix. */
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type PositionImportResult = z.infer<typeof positionImportResultSchema>;

export const VEHICLE_STATUSES = ['MOVING', 'IDLING', 'STOPPED', 'OFFLINE'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

/** A vehicle on the live map. */
export const liveVehicleSchema = z.object({
  assetId: z.uuid(),
  unitNumber: z.string(),
  gatewayId: z.uuid(),
  driverId: z.uuid().nullable(),
  driverName: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  ignition: z.boolean().nullable(),
  fixTime: z.string(),
  status: z.enum(VEHICLE_STATUSES),
  /** Since when the vehicle is in this status (ISO), as far as known. */
  statusSince: z.string().nullable(),
  groupIds: z.array(z.uuid()),
});
export type LiveVehicle = z.infer<typeof liveVehicleSchema>;

/** Server-Sent Event payloads on assets/stream: `snapshot` then `positions`; `keepalive` comments. */
export interface LiveSnapshotEvent {
  vehicles: LiveVehicle[];
}
export interface LivePositionsEvent {
  vehicles: LiveVehicle[];
}

/** How long a stream ticket opens the stream; the web app asks for one right before each (re)connect. */
export const STREAM_TICKET_TTL_SECONDS = 30;

export const liveStreamQuerySchema = z.object({
  group: z.uuid('group must be a group id').optional(),
  /**
   * A single-use ticket from `POST …/assets/stream/ticket`, for clients that cannot send the
   * Authorization header (EventSource). Never the access token: URLs end up in logs and histories.
   */
  ticket: z.string().min(1, 'ticket must not be empty').max(200, 'ticket is too long').optional(),
});

/** Opens one live stream within `expiresAt` (STREAM_TICKET_TTL_SECONDS), for the caller and this organization only. */
export const streamTicketSchema = z.object({
  ticket: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type StreamTicket = z.infer<typeof streamTicketSchema>;

export const HISTORY_MAX_POINTS = 5000;
/** A history request spans at most this long. */
export const HISTORY_MAX_RANGE_MS = 31 * 24 * 3600 * 1000;

export const historyQuerySchema = z
  .object({
    from: instantField('from', { message: 'from must be an ISO-8601 date-time' }),
    to: instantField('to', { message: 'to must be an ISO-8601 date-time' }),
    /** Map zoom the track is simplified for (one pixel of tolerance). Default 12. */
    zoom: queryNumber(z.number().min(0, 'zoom must be between 0 and 22').max(22, 'zoom must be between 0 and 22')).default(12),
    /** Most points returned. */
    maxPoints: queryNumber(z.number().int().min(2).max(HISTORY_MAX_POINTS)).default(HISTORY_MAX_POINTS),
  })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), { message: 'to must be after from', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= HISTORY_MAX_RANGE_MS, { message: 'the range can span at most 31 days', path: ['to'] });
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const historyPointSchema = z.object({
  time: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  ignition: z.boolean().nullable(),
  /** Engine data the fix carries (issue 46), null where the device did not report it. Odometer in metres: the engine's (ECM) when there is one, else the device's GNSS one. */
  odometer: z.number().nullable(),
  odometerSource: z.enum(['ECM', 'GPS']).nullable(),
  /** The engine's total hours. */
  engineHours: z.number().nullable(),
  /** Engine speed, revolutions per minute. */
  rpm: z.number().nullable(),
});

export const historyStopSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  start: z.string(),
  end: z.string(),
  durationS: z.number(),
  idleS: z.number(),
  /** US state or Canadian province code at the stop, when inside one. */
  jurisdiction: z.string().nullable(),
  /** The organization's place the vehicle (or driver) was visiting during the stop, if any. */
  place: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The nearest known locality, e.g. "3 mi NE of Joplin, MO". */
  address: z.string(),
});

export const historySummarySchema = z.object({
  distanceM: z.number(),
  drivingS: z.number(),
  idleS: z.number(),
  stoppedS: z.number(),
  maxSpeed: z.number(),
  averageSpeed: z.number(),
  /** Fixes in the range before simplification. */
  positions: z.number().int(),
});

export const historyRouteSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Positions in the range imported from another system's GPS history (protocol 'import'), or null when none. */
  imported: z.object({ positions: z.number().int(), from: z.string(), to: z.string() }).nullable(),
  /** Simplified for the requested zoom and capped at maxPoints. */
  track: z.array(historyPointSchema),
  /** True when the track had to be thinned beyond one pixel to fit maxPoints. */
  capped: z.boolean(),
  stops: z.array(historyStopSchema),
  summary: historySummarySchema,
});
export type HistoryRoute = z.infer<typeof historyRouteSchema>;
