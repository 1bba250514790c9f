// Malfunction and data diagnostic detection for one vehicle (Appendix A 4.6, Table 4; decision 0114).
// Pure: the same facts give the same answer, so the job, the tests and a restart agree. Three checks
// the product can make from what it stores:
//
// - L, positioning compliance malfunction: the vehicle drove more than 60 minutes of the last 24 hours
//   without a valid position (4.6.1.4: "no valid fix within 5 miles of movement for more than 60
//   cumulative minutes in 24 hours"). A fix is expected at least every 5 minutes while driving (the
//   simulator and trackers send one a minute; 5 minutes is 5 miles at 60 mph); each gap between fixes
//   longer than that counts beyond its first 5 minutes. Cleared once the last 24 hours hold 60 minutes
//   or less.
// - 1, power data diagnostic: the device has not reported for more than 30 minutes while the vehicle's
//   driver is on duty or driving (the ELD is not powered or not working while it must record).
//   Cleared when the device reports again or the driver goes off duty.
// - 5, unidentified driving records data diagnostic (4.6.1.6): more than 30 minutes of unidentified
//   driving in the last 24 hours; cleared when the last 8 days (24 hours and the 7 days before) hold
//   15 minutes or less.

export const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const POSITION_EVERY_MS = 5 * MINUTE;
export const POSITIONING_LIMIT_MS = 60 * MINUTE;
export const SILENCE_LIMIT_MS = 30 * MINUTE;
export const UNIDENTIFIED_LOG_MS = 30 * MINUTE;
export const UNIDENTIFIED_CLEAR_MS = 15 * MINUTE;
/** How far back the unidentified driving diagnostic looks to clear (the 24 hours and the 7 days before). */
export const UNIDENTIFIED_WINDOW_MS = 8 * DAY;

export type DiagnosticCode = 'L' | '1' | '5';
export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = ['L', '1', '5'];
/** L is a malfunction (type 7 codes 1/2), the digits are data diagnostics (codes 3/4). */
export const isMalfunction = (code: string): boolean => /^[A-Z]$/.test(code);

export type Interval = readonly [number, number];

export interface VehicleFacts {
  now: number;
  /** Driving on the vehicle (any driver, the unidentified one included), [start, end) in ms; an open one ends at `now`. */
  driving: readonly Interval[];
  /** Times of the vehicle's valid fixes of the last 24 hours and a little before, sorted. */
  fixes: readonly number[];
  /** Unidentified driving on the vehicle in the last 8 days. */
  unidentified: readonly Interval[];
  /** The device's latest fix (any age), null when it never reported. */
  lastFixAt: number | null;
  /** Since when the vehicle's current driver has been on duty or driving without a break; null when off duty or no driver. */
  onDutySince: number | null;
  /** Codes logged and not cleared for this vehicle. */
  active: ReadonlySet<string>;
}

export interface DiagnosticVerdict {
  code: DiagnosticCode;
  active: boolean;
  /** The measure behind the verdict, in words. */
  detail: string;
}

const clip = ([s, e]: Interval, from: number, to: number): number => Math.max(0, Math.min(e, to) - Math.max(s, from));
const minutes = (ms: number) => `${Math.round(ms / MINUTE)} min`;

/** Driving time of the window [from, to) not covered by a fix every POSITION_EVERY_MS. */
export function drivingWithoutPosition(driving: readonly Interval[], fixes: readonly number[], from: number, to: number): number {
  let missing = 0;
  for (const iv of driving) {
    const s = Math.max(iv[0], from);
    const e = Math.min(iv[1], to);
    if (e <= s) continue;
    // The fixes inside the interval, with its ends as the points the gaps run between.
    let prev = s;
    let i = lowerBound(fixes, s);
    // A fix shortly before the window or interval start counts as where the gap begins.
    if (i > 0 && s - fixes[i - 1]! < POSITION_EVERY_MS) prev = fixes[i - 1]!;
    for (; i < fixes.length && fixes[i]! < e; i++) {
      const t = fixes[i]!;
      missing += Math.max(0, Math.min(t, e) - Math.max(prev + POSITION_EVERY_MS, s));
      prev = t;
    }
    missing += Math.max(0, e - Math.max(prev + POSITION_EVERY_MS, s));
  }
  return missing;
}

function lowerBound(sorted: readonly number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Total of the intervals inside [from, to). */
export const totalWithin = (list: readonly Interval[], from: number, to: number): number => list.reduce((sum, iv) => sum + clip(iv, from, to), 0);

/** The three verdicts for a vehicle now. */
export function evaluateVehicle(f: VehicleFacts): DiagnosticVerdict[] {
  const dayAgo = f.now - DAY;
  const missing = drivingWithoutPosition(f.driving, f.fixes, dayAgo, f.now);
  const positioning: DiagnosticVerdict = {
    code: 'L',
    active: missing > POSITIONING_LIMIT_MS,
    detail: `${minutes(missing)} of driving without a valid position in the last 24 hours (limit 60 min)`,
  };

  const since = f.onDutySince === null ? null : Math.max(f.onDutySince, f.lastFixAt ?? -Infinity);
  const silent = since === null ? 0 : f.now - since;
  const power: DiagnosticVerdict = {
    code: '1',
    active: since !== null && silent > SILENCE_LIMIT_MS,
    detail: f.onDutySince === null ? 'No driver on duty' : `Device silent for ${minutes(silent)} while the driver is on duty (limit 30 min)`,
  };

  const day = totalWithin(f.unidentified, dayAgo, f.now);
  const week = totalWithin(f.unidentified, f.now - UNIDENTIFIED_WINDOW_MS, f.now);
  // Hysteresis of 4.6.1.6: logged above 30 minutes in 24 hours, cleared only at 15 minutes or less in 8 days.
  const unidentifiedActive = f.active.has('5') ? week > UNIDENTIFIED_CLEAR_MS : day > UNIDENTIFIED_LOG_MS;
  const unidentified: DiagnosticVerdict = {
    code: '5',
    active: unidentifiedActive,
    detail: `${minutes(day)} of unidentified driving in the last 24 hours, ${minutes(week)} in 8 days`,
  };
  return [positioning, power, unidentified];
}

/** Type-7 event codes of Table 6: 1 malfunction logged, 2 cleared, 3 diagnostic logged, 4 cleared. */
export function transitionCode(code: string, active: boolean): 1 | 2 | 3 | 4 {
  if (isMalfunction(code)) return active ? 1 : 2;
  return active ? 3 : 4;
}

/** The events to record: a verdict that differs from the stored state logs or clears the code. */
export function transitions(verdicts: readonly DiagnosticVerdict[], active: ReadonlySet<string>): Array<DiagnosticVerdict & { eventCode: 1 | 2 | 3 | 4 }> {
  return verdicts.filter((v) => v.active !== active.has(v.code)).map((v) => ({ ...v, eventCode: transitionCode(v.code, v.active) }));
}
