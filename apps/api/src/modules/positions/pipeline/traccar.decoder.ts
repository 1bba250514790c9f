import { KNOTS_TO_KMH } from '@fleet/geo';
import type { PositionRow } from './position-row.ts';

// Traccar's JSON forwarding (forward.type=json, PositionForwarderJson): one request per position,
// `{ "position": {...}, "device": {...} }` as Traccar's Jackson mapper writes its Position and Device
// models (traccar/traccar, model/Position.java: speed in knots, altitude metres, dates ISO-8601).
// Pure: body in, a fix with the engine attributes named as api-contract's ENGINE_ATTRIBUTES out.

export interface TraccarFix extends Pick<PositionRow, 'latitude' | 'longitude' | 'speed' | 'course' | 'altitude' | 'accuracy' | 'attributes'> {
  uniqueId: string;
  fixTime: Date;
}

/** `uniqueId` on an error: the device named itself, and the fix is refused for its content (answered as received). */
export type TraccarDecoded = { kind: 'fix'; fix: TraccarFix } | { kind: 'error'; field: string; message: string; uniqueId?: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Bad extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function num(obj: Json, key: string, path: string, required = false): number | null {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) throw new Bad(path, `${path} is required`);
    return null;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Bad(path, `${path} must be a number`);
  return v;
}

/** Jackson writes java.util.Date as ISO-8601 (Traccar's mapper) or, configured otherwise, epoch milliseconds. */
function time(v: unknown, path: string): Date {
  const d = typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? new Date(v) : typeof v === 'number' ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime())) throw new Bad(path, `${path} must be an ISO-8601 date-time`);
  return d;
}

/**
 * Traccar's attribute keys (Position.KEY_*) to ours. Each: the canonical name and the factor to its
 * unit. odometer and totalDistance are the device's or Traccar's GNSS distance (m); obdOdometer the
 * engine's (m); hours milliseconds; obdSpeed knots (Position.KEY_OBD_SPEED).
 */
const NUMBERS: ReadonlyArray<[from: string, to: string, factor: number]> = [
  ['odometer', 'gpsOdometer', 1],
  ['obdOdometer', 'vehicleOdometer', 1],
  ['hours', 'engineHours', 1 / 3_600_000],
  ['power', 'power', 1],
  ['rpm', 'rpm', 1],
  ['obdSpeed', 'vehicleSpeed', KNOTS_TO_KMH],
];
const BOOLEANS = ['ignition', 'motion'];

function engineAttributes(raw: Json): Json {
  const out: Json = {};
  const renamed = new Set<string>();
  for (const [from, to, factor] of NUMBERS) {
    const v = num(raw, from, `position.attributes.${from}`);
    if (v === null) continue;
    out[to] = v * factor;
    renamed.add(from);
  }
  // The fuel in the tank (Position.KEY_FUEL_LEVEL, litres by Traccar's convention; issue 68): kept
  // as sent when it is not a number, rather than refusing the whole position for it.
  if (typeof raw.fuel === 'number' && Number.isFinite(raw.fuel)) {
    out.fuelLevelLitres = raw.fuel;
    renamed.add('fuel');
  }
  // Traccar's own GNSS total when the device reports no odometer (filter.distance / totalDistance).
  const total = num(raw, 'totalDistance', 'position.attributes.totalDistance');
  if (out.gpsOdometer === undefined && total !== null) out.gpsOdometer = total;
  for (const key of BOOLEANS) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw new Bad(`position.attributes.${key}`, `position.attributes.${key} must be true or false`);
    out[key] = v;
  }
  if (raw.vin !== undefined && raw.vin !== null) {
    if (typeof raw.vin !== 'string') throw new Bad('position.attributes.vin', 'position.attributes.vin must be text');
    out.vin = raw.vin.trim().toUpperCase();
  }
  // Everything else is kept as sent (alarms, temperatures, io…), under Traccar's names.
  for (const [k, v] of Object.entries(raw)) if (!(k in out) && !renamed.has(k)) out[k] = v;
  return out;
}

/** Decodes one forwarded position; errors name the field by its path in the body. */
export function decodeTraccarJson(body: unknown): TraccarDecoded {
  let named: string | undefined;
  try {
    if (!isObject(body)) throw new Bad('body', 'The body must be a JSON object with position and device');
    const { position, device } = body;
    if (!isObject(device)) throw new Bad('device', 'device is required');
    if (!isObject(position)) throw new Bad('position', 'position is required');
    const uniqueId = typeof device.uniqueId === 'string' ? device.uniqueId.trim() : '';
    if (!uniqueId) throw new Bad('device.uniqueId', 'device.uniqueId is required');
    named = uniqueId;
    const when = position.fixTime ?? position.deviceTime;
    if (when === undefined || when === null) throw new Bad('position.fixTime', 'position.fixTime is required');
    const latitude = num(position, 'latitude', 'position.latitude', true)!;
    const longitude = num(position, 'longitude', 'position.longitude', true)!;
    const knots = num(position, 'speed', 'position.speed');
    const accuracy = num(position, 'accuracy', 'position.accuracy');
    const rawAttributes = position.attributes ?? {};
    if (!isObject(rawAttributes)) throw new Bad('position.attributes', 'position.attributes must be an object');
    const attributes = engineAttributes(rawAttributes);
    // Which of Traccar's decoders read the device, and whether it had a valid fix.
    if (typeof position.protocol === 'string') attributes.traccarProtocol = position.protocol;
    if (position.valid === false) attributes.valid = false;
    return {
      kind: 'fix',
      fix: {
        uniqueId,
        fixTime: time(when, position.fixTime !== undefined && position.fixTime !== null ? 'position.fixTime' : 'position.deviceTime'),
        latitude,
        longitude,
        speed: knots === null ? null : knots * KNOTS_TO_KMH,
        course: num(position, 'course', 'position.course'),
        altitude: num(position, 'altitude', 'position.altitude'),
        // Traccar writes 0 when the device reported no accuracy.
        accuracy: accuracy ? accuracy : null,
        attributes,
      },
    };
  } catch (err) {
    if (err instanceof Bad) return { kind: 'error', field: err.field, message: err.message, ...(named ? { uniqueId: named } : {}) };
    throw err;
  }
}
