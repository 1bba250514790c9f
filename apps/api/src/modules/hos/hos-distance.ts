import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';

/** Event types whose odometer is the vehicle's at the event's instant (4.5.1: certification and diagnostics carry none that counts). */
export const DRIVEN_EVENT_TYPES: readonly number[] = [
  HOS_EVENT_TYPES.DUTY_STATUS,
  HOS_EVENT_TYPES.INTERMEDIATE_LOG,
  HOS_EVENT_TYPES.SPECIAL_CATEGORY,
  HOS_EVENT_TYPES.LOGIN_LOGOUT,
  HOS_EVENT_TYPES.ENGINE_POWER,
];
const DRIVEN_TYPES = new Set<number>(DRIVEN_EVENT_TYPES);

export interface OdometerReading {
  eventType: number;
  recordStatus?: number;
  vehicleId: string | null;
  odometerM: number | null;
}

/**
 * A log day's distance from its events' odometers: per vehicle, last minus first reading, summed
 * (a driver who changes trucks drives both distances; two trucks' odometers never subtract), and
 * the day's first and last readings. Events in time order; only active events of driving types count.
 */
export function dayDistance(events: readonly OdometerReading[]): { distanceM: number | null; startM: number | null; endM: number | null } {
  const span = new Map<string, { min: number; max: number }>();
  let startM: number | null = null;
  let endM: number | null = null;
  for (const e of events) {
    if (e.odometerM === null || !DRIVEN_TYPES.has(e.eventType)) continue;
    if (e.recordStatus !== undefined && e.recordStatus !== HOS_RECORD_STATUSES.ACTIVE) continue;
    startM ??= e.odometerM;
    endM = e.odometerM;
    const key = e.vehicleId ?? '';
    const s = span.get(key);
    if (!s) span.set(key, { min: e.odometerM, max: e.odometerM });
    else {
      s.min = Math.min(s.min, e.odometerM);
      s.max = Math.max(s.max, e.odometerM);
    }
  }
  if (span.size === 0) return { distanceM: null, startM: null, endM: null };
  let distanceM = 0;
  for (const s of span.values()) distanceM += s.max - s.min;
  return { distanceM, startM, endM };
}
