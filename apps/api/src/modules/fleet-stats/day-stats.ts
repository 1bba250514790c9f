// Daily vehicle statistics from fixes, as a pure fold (issue 18, docs/decisions/0131): fleet
// performance and the dashboard's distance charts are sums of these per vehicle and day.

/** At or above this speed (km/h) a vehicle is moving (the map's threshold, vehicle-status.ts). */
export const MOVING_KMH = 5;
/** A gap between two fixes longer than this is not counted as driving or idling (the device was off or out of coverage). */
export const MAX_GAP_MS = 10 * 60_000;
/** Standing still this long is a stop. */
export const STOP_MIN_MS = 5 * 60_000;
/** Faster than this between two fixes is a GPS jump, not distance. */
const MAX_PLAUSIBLE_KMH = 250;

export interface StatFix {
  /** Epoch ms. */
  t: number;
  lat: number;
  lon: number;
  /** km/h; null when the device did not say. */
  speed: number | null;
  ignition: boolean | null;
}

/** What the next fix of the same day continues from. */
export interface DayCarry {
  last: StatFix;
  speeding: boolean;
  /** Start of the current stationary run; null while moving. */
  stillSince: number | null;
  /** The current stationary run already counted as a stop. */
  stopCounted: boolean;
}

export interface DayTotals {
  distanceM: number;
  drivingMs: number;
  idleMs: number;
  maxSpeedKmh: number | null;
  speedingEvents: number;
  stops: number;
  fixes: number;
}

export const emptyTotals = (): DayTotals => ({ distanceM: 0, drivingMs: 0, idleMs: 0, maxSpeedKmh: null, speedingEvents: 0, stops: 0, fixes: 0 });

/** Great-circle distance in metres (haversine, mean Earth radius). */
export function haversineM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(s)));
}

const moving = (f: StatFix) => f.speed !== null && f.speed >= MOVING_KMH;

/**
 * Adds a day's fixes (sorted by time, all after `carry.last`) to its totals:
 * - distance: between consecutive fixes, unless the implied speed is impossible;
 * - driving: the time after a fix at moving speed until the next fix; idle: after a fix standing
 *   still with the ignition on (devices that report no ignition never idle); neither across a gap
 *   longer than MAX_GAP_MS;
 * - a speeding event each time the speed goes above the limit; a stop each stationary run of
 *   STOP_MIN_MS or more; the top speed.
 * Returns new totals and carry; the inputs are not changed.
 */
export function addFixes(
  totals: DayTotals,
  carry: DayCarry | null,
  fixes: readonly StatFix[],
  speedLimitKmh: number,
): { totals: DayTotals; carry: DayCarry | null } {
  const t = { ...totals };
  let c = carry ? { ...carry } : null;
  for (const f of fixes) {
    if (c && f.t <= c.last.t) continue;
    t.fixes++;
    if (f.speed !== null) t.maxSpeedKmh = t.maxSpeedKmh === null ? f.speed : Math.max(t.maxSpeedKmh, f.speed);
    const over = f.speed !== null && f.speed > speedLimitKmh;
    if (!c) {
      // Standing at the first fix (parked overnight) is not a stop: a stop follows movement.
      c = { last: f, speeding: over, stillSince: moving(f) ? null : f.t, stopCounted: !moving(f) };
      if (over) t.speedingEvents++;
      continue;
    }
    const prev = c.last;
    const dt = f.t - prev.t;
    const d = haversineM(prev, f);
    if (d / 1000 / (dt / 3_600_000) <= MAX_PLAUSIBLE_KMH) t.distanceM += d;
    if (dt <= MAX_GAP_MS) {
      if (moving(prev)) t.drivingMs += dt;
      else if (prev.ignition === true) t.idleMs += dt;
    }
    if (over && !c.speeding) t.speedingEvents++;
    c.speeding = over;
    if (moving(f)) {
      c.stillSince = null;
      c.stopCounted = false;
    } else {
      c.stillSince ??= f.t;
      if (!c.stopCounted && f.t - c.stillSince >= STOP_MIN_MS) {
        t.stops++;
        c.stopCounted = true;
      }
    }
    c.last = f;
  }
  return { totals: t, carry: c };
}
