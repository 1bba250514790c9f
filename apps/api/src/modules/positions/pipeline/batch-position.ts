import { batchPositionSchema, type BatchPosition } from '@fleet/api-contract';
import type { RefusalReason } from './fix-check.ts';

// Decoding the gateways' JSON batch: each item is a position the contract's schema accepts, or a
// refusal naming what is wrong. The fix check (fix-check.ts) runs after, as on every way in.

/** An item the contract's schema refuses: the message names the field; `reason` counts it (none for fields no refusal reason covers). */
export class BatchRefusal {
  constructor(
    readonly message: string,
    readonly reason: RefusalReason | undefined,
  ) {}
}

/**
 * One batch item: the common, well-formed one by the fast check; anything it does not vouch for
 * goes through the contract's schema, which accepts it or names what is wrong.
 */
export function decodeBatchPosition(item: unknown): BatchPosition | BatchRefusal {
  const p = wellFormedPosition(item);
  if (p) return p;
  const parsed = batchPositionSchema.safeParse(item);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return new BatchRefusal(`${issue.path.join('.') || 'position'}: ${issue.message}`, SCHEMA_REASONS[String(issue.path[0])]);
}

/**
 * The position's attributes with the batch's own fuel fields (issue 68) in them: `fuelLevel` (percent
 * of the tank) and `fuelUsed` (litres in total) are attributes every follower reads by those names.
 * The fields win over attributes of the same names.
 */
export function batchAttributes(p: BatchPosition): Record<string, unknown> {
  const attributes = p.attributes ?? {};
  const level = p.fuelLevel ?? null;
  const used = p.fuelUsed ?? null;
  if (level === null && used === null) return attributes;
  return { ...attributes, ...(level === null ? {} : { fuelLevel: level }), ...(used === null ? {} : { fuelUsed: used }) };
}

/** An item's fixTime as sent, as text (a refusal keeps it when it is not a time); null when there is none. */
export function sentFixTime(item: unknown): string | null {
  const v = typeof item === 'object' && item !== null ? (item as { fixTime?: unknown }).fixTime : undefined;
  if (v === undefined || v === null) return null;
  return (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, 64);
}

/** The batch names its fields as written (the checks use the OsmAnd names). */
export const batchField = (field: string): string => BATCH_FIELD[field] ?? field;

/** The batch names its fields as written (the checks use the OsmAnd names). */
const BATCH_FIELD: Record<string, string> = { timestamp: 'fixTime', lat: 'latitude', lon: 'longitude' };
/** Refusals by the contract's schema, counted by the field it names. */
const SCHEMA_REASONS: Record<string, RefusalReason> = {
  fixTime: 'badTime',
  latitude: 'coordinates',
  longitude: 'coordinates',
  speed: 'speed',
  course: 'course',
  altitude: 'altitude',
};

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const inRange = (v: unknown, min: number, max: number) => v === undefined || v === null || (typeof v === 'number' && v >= min && v <= max);

/**
 * The common, well-formed batch item checked by hand (docs/decisions/0058): the contract's zod
 * schema cost 7-30 µs per position, a large share of the batch endpoint's CPU. Returns the item
 * only when `batchPositionSchema` would accept it unchanged (the same ranges, an ISO-8601 time
 * with an offset and a real calendar day); anything else returns null and is left to the schema,
 * so the accepted set and every error message stay the schema's.
 */
export function wellFormedPosition(v: unknown): BatchPosition | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const p = v as Record<string, unknown>;
  if (typeof p.fixTime !== 'string' || typeof p.latitude !== 'number' || typeof p.longitude !== 'number') return null;
  if (!(p.latitude >= -90 && p.latitude <= 90 && p.longitude >= -180 && p.longitude <= 180)) return null;
  if (!inRange(p.speed, 0, 1000) || !inRange(p.course, 0, 360) || !inRange(p.altitude, -1000, 20000)) return null;
  if (!inRange(p.accuracy, 0, Infinity) || !inRange(p.odometer, 0, Infinity)) return null;
  if (!inRange(p.fuelLevel, 0, 100) || !inRange(p.fuelUsed, 0, Infinity)) return null;
  if (p.ignition !== undefined && p.ignition !== null && typeof p.ignition !== 'boolean') return null;
  if (p.attributes !== undefined && (typeof p.attributes !== 'object' || p.attributes === null || Array.isArray(p.attributes))) return null;
  // Readings (issue 73) are checked with the batch (ingestBatch's checkTemperatures); the schema trims their names.
  if (p.temperatures !== undefined) return null;
  const m = ISO_UTC.exec(p.fixTime);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && !leap ? 28 : DAYS[month - 1]!)) return null;
  return p as BatchPosition;
}
