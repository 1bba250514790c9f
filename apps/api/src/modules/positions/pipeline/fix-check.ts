import { MAX_FIX_AGE_DAYS, MAX_FUTURE_FIX_MS } from '@fleet/api-contract';

// The check every fix passes before it is stored, whatever its way in (OsmAnd, the gateways'
// batch, a GPS history import): impossible fixes are refused and counted by reason.

/** A fix older than this is refused: a device clock gone wrong, or a buffer older than anything a report still needs live. */
export const MAX_FIX_AGE_MS = MAX_FIX_AGE_DAYS * 86_400_000;

/** Why fixes were refused, counted per process (GET /admin/diagnostics/ingest). */
export const REFUSAL_REASONS = [
  'tooOld',
  'inFuture',
  'badTime',
  'coordinates',
  'speed',
  'course',
  'altitude',
  'accuracy',
  'value',
  'attributes',
  // A frame the device meant (its checksum holds) that this server cannot read: a codec it does not
  // speak, or a layout that does not add up (decision 0323). Acknowledged, so the device moves on.
  'undecodable',
  'database',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export class FixError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly reason: RefusalReason = 'coordinates',
  ) {
    super(message);
  }
}

// The fix times a fix can have: the database's timestamptz runs from 4713 BC to 294276 AD, but a
// time reaches it as ISO text, and past 9999 that text has a sign and six digits, and year 0000 is
// 1 BC, both of which PostgreSQL refuses, failing the whole statement (issue 66). Before 1900 no
// clock was ever a GPS's: such a time is not a clock set wrong but no time at all.
/** The first fix time that is a time (1900-01-01T00:00:00Z). */
export const FIRST_FIX_TIME_MS = Date.parse('1900-01-01T00:00:00.000Z');
/** The last fix time that is a time (9999-12-31T23:59:59.999Z). */
export const LAST_FIX_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** True when `d` is a time the database holds as written and a clock could show. */
export const holdableTime = (d: Date): boolean => {
  const t = d.getTime();
  return t >= FIRST_FIX_TIME_MS && t <= LAST_FIX_TIME_MS;
};
/** A time as text, whatever it is: its ISO form (with a sign past 9999), or null when it is not a time. */
export const timeText = (d: Date): string | null => (Number.isNaN(d.getTime()) ? null : d.toISOString());

/** What checkFix reads: the coordinates and time, and the measured values when the device sent them. */
export interface CheckedFix {
  latitude: number;
  longitude: number;
  fixTime: Date;
  speed?: number | null;
  course?: number | null;
  altitude?: number | null;
  accuracy?: number | null;
}

/**
 * Refuses impossible fixes: coordinates out of range, a time outside 1900 to 9999 (badTime), more
 * than 10 minutes in the future or more than a year old, a negative or non-finite speed or course, a non-finite altitude or one
 * below -1,000 m (roads below sea level exist: Death Valley, the Dead Sea).
 */
export function checkFix(fix: CheckedFix, now = Date.now()): void {
  if (!Number.isFinite(fix.latitude) || fix.latitude < -90 || fix.latitude > 90) throw new FixError('lat', `latitude ${fix.latitude} is outside -90..90`);
  if (!Number.isFinite(fix.longitude) || fix.longitude < -180 || fix.longitude > 180)
    throw new FixError('lon', `longitude ${fix.longitude} is outside -180..180`);
  if (Number.isNaN(fix.fixTime.getTime())) throw new FixError('timestamp', 'the fix time is not a time', 'badTime');
  if (!holdableTime(fix.fixTime))
    throw new FixError('timestamp', `fix time ${timeText(fix.fixTime)} is not a time a fix can have (years 1900 to 9999)`, 'badTime');
  if (fix.fixTime.getTime() > now + MAX_FUTURE_FIX_MS) {
    throw new FixError('timestamp', `fix time ${fix.fixTime.toISOString()} is more than 10 minutes in the future`, 'inFuture');
  }
  if (fix.fixTime.getTime() < now - MAX_FIX_AGE_MS) throw new FixError('timestamp', `fix time ${fix.fixTime.toISOString()} is more than 1 year old`, 'tooOld');
  const { speed, course, altitude, accuracy } = fix;
  if (speed !== null && speed !== undefined && !(fitsReal(speed) && speed >= 0))
    throw new FixError('speed', `speed ${speed} must be a number of 0 or more`, 'speed');
  if (course !== null && course !== undefined && !(fitsReal(course) && course >= 0))
    throw new FixError('course', `course ${course} must be a number of 0 or more`, 'course');
  if (altitude !== null && altitude !== undefined && !(fitsReal(altitude) && altitude >= -1000)) {
    throw new FixError('altitude', `altitude ${altitude} must be a number of -1000 m or more`, 'altitude');
  }
  if (accuracy !== null && accuracy !== undefined && !(fitsReal(accuracy) && accuracy >= 0 && accuracy <= MAX_ACCURACY_M)) {
    throw new FixError('accuracy', `accuracy ${accuracy} must be a number of 0 to ${MAX_ACCURACY_M} m`, 'accuracy');
  }
}

/** An accuracy radius past this is no location at all (a cell tower's reach is tens of kilometres). */
export const MAX_ACCURACY_M = 100_000;
/** Attributes nested deeper than this are refused: no device protocol nests more than a few levels. */
export const MAX_ATTRIBUTE_DEPTH = 8;
/** Attributes larger than this (as JSON) are refused: a fix's extras are a few hundred bytes. */
export const MAX_ATTRIBUTES_BYTES = 65_536;

// What PostgreSQL's float types take: a value outside their range, or too small for a normal number
// (PostgreSQL refuses what underflows to 0, e.g. 1e-320 as `real`), fails the whole statement.
const REAL_MAX = 3.4028234663852886e38;
const REAL_MIN_NORMAL = 1.1754943508222875e-38;
const DOUBLE_MIN_NORMAL = 2.2250738585072014e-308;
/** A number a `real` column stores as it is: finite, and zero or normal in single precision. */
export const fitsReal = (v: number): boolean => Number.isFinite(v) && (v === 0 || (Math.abs(v) >= REAL_MIN_NORMAL && Math.abs(v) <= REAL_MAX));
/** A number a `double precision` column stores as it is: finite, and zero or normal. */
export const fitsDouble = (v: number): boolean => Number.isFinite(v) && (v === 0 || Math.abs(v) >= DOUBLE_MIN_NORMAL);

/** What storableProblem reads: every column of a position row that carries a sent value. */
export interface StorableFix extends CheckedFix {
  odometer: number | null;
  engineHours: number | null;
  attributes: Record<string, unknown>;
}

/**
 * The last check before the database, on every row whatever its way in: a value a column cannot
 * hold would fail the whole statement, so it is refused here, by name. Null when the row is storable.
 */
export function storableProblem(row: StorableFix): FixError | null {
  const reals = [
    ['speed', row.speed],
    ['course', row.course],
    ['altitude', row.altitude],
    ['accuracy', row.accuracy],
  ] as const;
  for (const [field, v] of reals)
    if (v !== null && v !== undefined && !fitsReal(v)) return new FixError(field, `${field} ${v} is outside what a position can store`, 'value');
  if (row.accuracy !== null && row.accuracy !== undefined && !(row.accuracy >= 0 && row.accuracy <= MAX_ACCURACY_M)) {
    return new FixError('accuracy', `accuracy ${row.accuracy} must be a number of 0 to ${MAX_ACCURACY_M} m`, 'accuracy');
  }
  const doubles = [
    ['lat', row.latitude],
    ['lon', row.longitude],
    ['odometer', row.odometer],
    ['engineHours', row.engineHours],
  ] as const;
  for (const [field, v] of doubles)
    if (v !== null && v !== undefined && !fitsDouble(v)) return new FixError(field, `${field} ${v} is outside what a position can store`, 'value');
  const attrs = attributesProblem(row.attributes);
  return attrs ? new FixError('attributes', attrs, 'attributes') : null;
}

const UNSTORABLE_TEXT = /[\0\p{Cs}]/u;
/** True when `s` has a NUL or a lone UTF-16 surrogate: text PostgreSQL's `text` and `jsonb` refuse. */
export function unstorableText(s: string): boolean {
  // With the u flag a surrogate pair is one code point, so \p{Cs} matches only a lone surrogate.
  return UNSTORABLE_TEXT.test(s);
}

/**
 * Why free-form attributes cannot be stored, or null: nesting past MAX_ATTRIBUTE_DEPTH, a NUL or a
 * lone surrogate in a key or a string, or more than MAX_ATTRIBUTES_BYTES. Walked without recursion,
 * so a body nested thousands deep costs one step per level up to the limit.
 */
export function attributesProblem(attributes: Record<string, unknown>): string | null {
  // Only objects wait on the stack; a key's text or number is looked at where it is met (a record's
  // attributes are mostly flat: no object per value, 6 % of the API's CPU under Teltonika load).
  const stack: Array<{ o: object; depth: number }> = [{ o: attributes, depth: 1 }];
  let size = 0;
  while (stack.length) {
    const { o, depth } = stack.pop()!;
    if (depth > MAX_ATTRIBUTE_DEPTH) return `attributes are nested more than ${MAX_ATTRIBUTE_DEPTH} levels deep`;
    const record = o as Record<string, unknown>;
    for (const k of Object.keys(record)) {
      if (unstorableText(k)) return 'attributes hold a name with a NUL character or a lone surrogate';
      size += k.length + 8;
      const v = record[k];
      if (typeof v === 'string') {
        if (unstorableText(v)) return 'attributes hold text with a NUL character or a lone surrogate';
        size += v.length;
      } else if (typeof v === 'object' && v !== null) stack.push({ o: v, depth: depth + 1 });
      else size += 8;
      if (size > MAX_ATTRIBUTES_BYTES) return `attributes are larger than ${MAX_ATTRIBUTES_BYTES / 1024} kB`;
    }
  }
  return null;
}

/** Refused fixes since the process started, by reason. */
export type RefusalCounts = Record<RefusalReason, number>;
export const newRefusalCounts = (): RefusalCounts => Object.fromEntries(REFUSAL_REASONS.map((r) => [r, 0])) as RefusalCounts;

/**
 * The time a fix is stored at. A device set to "use the time received" (gateways.use_received_time,
 * as Traccar's time.override) has a fix whose own time would be refused (none that is a time, more
 * than a year old, more than 10 minutes ahead: a GPS week rollover, a clock hours fast) stored at
 * `receivedAt` instead; a plausible time is kept, so a buffered fix keeps its time and a resend is
 * still recognised as one. `index`: the fix's place in its packet or batch, added in milliseconds,
 * so the fixes of one packet stay apart (ingest is idempotent on device and fix time).
 */
export function timeToStore(useReceivedTime: boolean, fixTime: Date | null, receivedAt: Date, index = 0): Date | null {
  if (!useReceivedTime) return fixTime;
  const t = fixTime?.getTime() ?? Number.NaN;
  const now = receivedAt.getTime();
  return Number.isNaN(t) || t > now + MAX_FUTURE_FIX_MS || t < now - MAX_FIX_AGE_MS ? new Date(now + index) : fixTime;
}
