import { MAX_FIX_AGE_DAYS, MAX_FUTURE_FIX_MS } from '@fleet/api-contract';

// The check every fix passes before it is stored, whatever its way in (OsmAnd, the gateways'
// batch, a GPS history import): impossible fixes are refused and counted by reason.

/** A fix older than this is refused: a device clock gone wrong, or a buffer older than anything a report still needs live. */
export const MAX_FIX_AGE_MS = MAX_FIX_AGE_DAYS * 86_400_000;

/** Why fixes were refused, counted per process (GET /admin/diagnostics/ingest). */
export const REFUSAL_REASONS = ['tooOld', 'inFuture', 'badTime', 'coordinates', 'speed', 'course', 'altitude'] as const;
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

/** What checkFix reads: the coordinates and time, and the measured values when the device sent them. */
export interface CheckedFix {
  latitude: number;
  longitude: number;
  fixTime: Date;
  speed?: number | null;
  course?: number | null;
  altitude?: number | null;
}

/**
 * Refuses impossible fixes: coordinates out of range, a time more than 10 minutes in the future
 * or more than a year old, a negative or non-finite speed or course, a non-finite altitude or one
 * below -1,000 m (roads below sea level exist: Death Valley, the Dead Sea).
 */
export function checkFix(fix: CheckedFix, now = Date.now()): void {
  if (!Number.isFinite(fix.latitude) || fix.latitude < -90 || fix.latitude > 90) throw new FixError('lat', `latitude ${fix.latitude} is outside -90..90`);
  if (!Number.isFinite(fix.longitude) || fix.longitude < -180 || fix.longitude > 180) throw new FixError('lon', `longitude ${fix.longitude} is outside -180..180`);
  if (Number.isNaN(fix.fixTime.getTime())) throw new FixError('timestamp', 'the fix time is not a time', 'badTime');
  if (fix.fixTime.getTime() > now + MAX_FUTURE_FIX_MS) {
    throw new FixError('timestamp', `fix time ${fix.fixTime.toISOString()} is more than 10 minutes in the future`, 'inFuture');
  }
  if (fix.fixTime.getTime() < now - MAX_FIX_AGE_MS) throw new FixError('timestamp', `fix time ${fix.fixTime.toISOString()} is more than 1 year old`, 'tooOld');
  const { speed, course, altitude } = fix;
  if (speed !== null && speed !== undefined && !(Number.isFinite(speed) && speed >= 0)) throw new FixError('speed', `speed ${speed} must be a number of 0 or more`, 'speed');
  if (course !== null && course !== undefined && !(Number.isFinite(course) && course >= 0)) throw new FixError('course', `course ${course} must be a number of 0 or more`, 'course');
  if (altitude !== null && altitude !== undefined && !(Number.isFinite(altitude) && altitude >= -1000)) {
    throw new FixError('altitude', `altitude ${altitude} must be a number of -1000 m or more`, 'altitude');
  }
}

/** Refused fixes since the process started, by reason. */
export type RefusalCounts = Record<RefusalReason, number>;
export const newRefusalCounts = (): RefusalCounts => Object.fromEntries(REFUSAL_REASONS.map((r) => [r, 0])) as RefusalCounts;
