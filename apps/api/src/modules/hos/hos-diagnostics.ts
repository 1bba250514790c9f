import { distanceM } from '@fleet/geo';

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
//
// With the engine (decision 0155), only for vehicles whose device reports engine data (a GPS-only
// device is no ELD: the devices screen says so instead):
// - P, power compliance malfunction (4.6.1.2): driving the ELD did not record while the engine was on,
//   30 minutes or more in 24 hours. The engine was on (ignition on or unknown) at both ends of a
//   silence between two fixes and the vehicle covered at least 5 mph over it: the silence beyond its
//   first 5 minutes is unrecorded driving.
// - 1, power data diagnostic: as above, but a device whose last fix said the engine was off is not
//   silent for lack of power (a tracker sleeps with the ignition off).
// - E, engine synchronization compliance malfunction (4.6.1.3): driving time in which the engine's
//   data (ECM odometer and engine hours) were missing, more than 30 minutes in 24 hours; a fix without
//   them counts until the next fix. 2, engine synchronization data diagnostic: the newest fix with the
//   engine on lacks them (the ECM values were not there when a record needed them); cleared when a fix
//   carries them again.
// - 3, missing required data elements (4.6.1.5): a record of the vehicle in the last 24 hours made
//   without a required element: a duty status without a position and none typed, an automatic record
//   without the engine's totals.
// - T, timing compliance malfunction (4.6.1.1): the device's clock more than 10 minutes off UTC. A live
//   device's newest fix, received in the last 30 minutes with the engine on or moving, is more than 10
//   minutes older than when the server received it (a device that buffered while offline sends its
//   newest fix last, close to now). A clock ahead by more is refused at ingest (a fix in the future)
//   and shows as silence (1, P). Without such a fix the state in force stays.

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

export type DiagnosticCode = 'L' | '1' | '5' | 'P' | 'E' | '2' | '3' | 'T';
export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = ['L', '1', '5', 'P', 'E', '2', '3', 'T'];
export const POWER_LIMIT_MS = 30 * MINUTE;
export const ENGINE_SYNC_LIMIT_MS = 30 * MINUTE;
export const CLOCK_LIMIT_MS = 10 * MINUTE;
/** 5 mph in km/h: covering this over a silence is moving (4.4.1). */
const MOVING_KMH = 8.04672;
/** L is a malfunction (type 7 codes 1/2), the digits are data diagnostics (codes 3/4). */
export const isMalfunction = (code: string): boolean => /^[A-Z]$/.test(code);

export type Interval = readonly [number, number];

export interface VehicleFacts {
  now: number;
  /** Driving on the vehicle (any driver, the unidentified one included), [start, end) in ms; an open one ends at `now`. */
  driving: readonly Interval[];
  /** The vehicle's valid fixes from 5 minutes before the last 24 hours (none earlier covers them), as runs (fixRuns), sorted. */
  fixRuns: readonly FixRun[];
  /** Unidentified driving on the vehicle in the last 8 days. */
  unidentified: readonly Interval[];
  /** The device's latest fix (any age), null when it never reported. */
  lastFixAt: number | null;
  /** Since when the vehicle's current driver has been on duty or driving without a break; null when off duty or no driver. */
  onDutySince: number | null;
  /** Codes logged and not cleared for this vehicle. */
  active: ReadonlySet<string>;
  /** The engine checks' facts, only for a vehicle whose device reports engine data (decision 0155). */
  engine?: EngineFacts;
}

/** A fix of the last 24 hours (and a little before) as the engine checks see it. */
export interface EngineFix {
  time: number;
  lat: number;
  lon: number;
  /** null: not reported. */
  ignition: boolean | null;
  /** The fix carries the engine's odometer (ECM) and total engine hours. */
  engineData: boolean;
}

/** Two consecutive fixes of a vehicle, as far as the silence check reads them. */
export type FixPair = readonly [Pick<EngineFix, 'time' | 'lat' | 'lon' | 'ignition'>, Pick<EngineFix, 'time' | 'lat' | 'lon' | 'ignition'>];

/**
 * The engine checks' facts of a vehicle's fixes of the 24 hours (and a little before), what
 * engineFixFacts makes of the fixes and the database computes with window functions: a 1 Hz truck
 * has 86,400 fixes a day, and only its silences and the spans without engine data matter.
 */
export interface EngineFacts {
  /** Consecutive fixes more than 5 minutes apart, sorted. */
  silences: readonly FixPair[];
  /** Where the newest fix lacked the engine's data: from such a fix to the next one that has them (or the window's end), sorted. */
  withoutData: readonly Interval[];
  /** The newest fix's ignition; undefined without a fix. */
  lastIgnition: boolean | null | undefined;
  /** Whether the newest fix with the engine on (ignition on or not reported) carried the engine's data; null without one. */
  lastOnEngineData: boolean | null;
  /** The vehicle's active records of the last 24 hours lacking a required element (their times). */
  incompleteRecords: readonly number[];
  /** Server time minus fix time of the newest live fix received in the last 30 minutes with the engine on or moving; null: none. */
  clockLagMs: number | null;
}

export interface DiagnosticVerdict {
  code: DiagnosticCode;
  active: boolean;
  /** The measure behind the verdict, in words. */
  detail: string;
}

const clip = ([s, e]: Interval, from: number, to: number): number => Math.max(0, Math.min(e, to) - Math.max(s, from));
const minutes = (ms: number) => `${Math.round(ms / MINUTE)} min`;

/** Driving time of the window [from, to) not covered by a fix every POSITION_EVERY_MS (the plain reference of drivingWithoutPositionInRuns). */
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

/** A run of fixes no more than POSITION_EVERY_MS apart: its first and last fix times. */
export type FixRun = readonly [number, number];

/** The runs of sorted fix times (what the database computes with window functions). */
export function fixRuns(fixes: readonly number[]): FixRun[] {
  const runs: Array<[number, number]> = [];
  for (const t of fixes) {
    const last = runs.at(-1);
    if (last && t - last[1] <= POSITION_EVERY_MS) last[1] = t;
    else runs.push([t, t]);
  }
  return runs;
}

/**
 * drivingWithoutPosition from the fixes' runs instead of every fix. A run covers [first, last + 5
 * min); a drive that starts where no fix covers gets its first 5 minutes (a fix is not due sooner).
 * Equal to drivingWithoutPosition(driving, fixes, ...) with runs = fixRuns(fixes) (tested on random input).
 */
export function drivingWithoutPositionInRuns(driving: readonly Interval[], runs: readonly FixRun[], from: number, to: number): number {
  let missing = 0;
  for (const iv of driving) {
    const s = Math.max(iv[0], from);
    const e = Math.min(iv[1], to);
    if (e <= s) continue;
    const covers: Array<[number, number]> = [];
    let startCovered = false;
    for (const [a, b] of runs) {
      const end = b + POSITION_EVERY_MS;
      if (a <= s && s < end) startCovered = true;
      if (a < e && end > s) covers.push([Math.max(a, s), Math.min(end, e)]);
    }
    if (!startCovered) covers.push([s, Math.min(s + POSITION_EVERY_MS, e)]);
    covers.sort((x, y) => x[0] - y[0]);
    let covered = 0;
    let reach = s;
    for (const [a, b] of covers) {
      if (b > reach) covered += b - Math.max(a, reach);
      reach = Math.max(reach, b);
    }
    missing += e - s - covered;
  }
  return missing;
}

/** Total of the intervals inside [from, to). */
export const totalWithin = (list: readonly Interval[], from: number, to: number): number => list.reduce((sum, iv) => sum + clip(iv, from, to), 0);

/** The three verdicts for a vehicle now. */
export function evaluateVehicle(f: VehicleFacts): DiagnosticVerdict[] {
  const dayAgo = f.now - DAY;
  const missing = drivingWithoutPositionInRuns(f.driving, f.fixRuns, dayAgo, f.now);
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
  if (!f.engine) return [positioning, power, unidentified];
  // A device that said the engine was off is asleep, not unpowered.
  const asleep = f.engine.lastIgnition === false;
  return [positioning, asleep ? { ...power, active: false, detail: 'The engine is off' } : power, unidentified, ...engineVerdicts(f, f.engine)];
}

/** Silences with the engine on and the vehicle moving, beyond their first 5 minutes, within [from, to); `pairs` are consecutive fixes (those 5 minutes apart or less count nothing). */
export function unrecordedDriving(pairs: readonly FixPair[], from: number, to: number): number {
  let total = 0;
  for (const [a, b] of pairs) {
    const gap = b.time - a.time;
    if (gap <= POSITION_EVERY_MS || a.ignition === false || b.ignition === false) continue;
    const kmh = distanceM(a, b) / 1000 / (gap / 3_600_000);
    if (kmh < MOVING_KMH) continue;
    total += clip([a.time + POSITION_EVERY_MS, b.time], from, to);
  }
  return total;
}

/** The part of the engine facts made of the fixes alone. */
export type FixFacts = Pick<EngineFacts, 'silences' | 'withoutData' | 'lastIgnition' | 'lastOnEngineData'>;

/** Consecutive fixes as pairs. */
export const pairsOf = (fixes: readonly EngineFix[]): FixPair[] => fixes.slice(1).map((b, i) => [fixes[i]!, b] as const);

/** The engine checks' facts of sorted fixes read up to `to`: the plain reference for what the database computes. */
export function engineFixFacts(fixes: readonly EngineFix[], to: number): FixFacts {
  const withoutData: Array<[number, number]> = [];
  fixes.forEach((f, i) => {
    if (f.engineData) return;
    const end = fixes[i + 1]?.time ?? to;
    const last = withoutData.at(-1);
    if (last && last[1] === f.time && !fixes[i - 1]!.engineData) last[1] = end;
    else withoutData.push([f.time, end]);
  });
  const lastOn = [...fixes].reverse().find((x) => x.ignition !== false);
  return {
    silences: pairsOf(fixes).filter(([a, b]) => b.time - a.time > POSITION_EVERY_MS),
    withoutData,
    lastIgnition: fixes.at(-1)?.ignition,
    lastOnEngineData: lastOn ? lastOn.engineData : null,
  };
}

/** Driving time in [from, to) inside the spans (each span's part inside each drive). */
export function drivingWithin(driving: readonly Interval[], spans: readonly Interval[], from: number, to: number): number {
  let total = 0;
  for (const [s, e] of spans) for (const iv of driving) total += Math.max(0, Math.min(e, iv[1], to) - Math.max(s, iv[0], from));
  return total;
}

/** Driving time in [from, to) during which the newest fix lacked the engine's data (the plain reference of drivingWithin over engineFixFacts' spans). */
export function drivingWithoutEngineData(driving: readonly Interval[], fixes: readonly EngineFix[], from: number, to: number): number {
  let missing = 0;
  for (let i = 0; i < fixes.length; i++) {
    const a = fixes[i]!;
    if (a.engineData) continue;
    const end = fixes[i + 1]?.time ?? to;
    for (const iv of driving) missing += Math.max(0, Math.min(end, iv[1], to) - Math.max(a.time, iv[0], from));
  }
  return missing;
}

function engineVerdicts(f: VehicleFacts, e: EngineFacts): DiagnosticVerdict[] {
  const dayAgo = f.now - DAY;
  const unrecorded = unrecordedDriving(e.silences, dayAgo, f.now);
  const withoutData = drivingWithin(f.driving, e.withoutData, dayAgo, f.now);
  const clockOff = e.clockLagMs === null ? f.active.has('T') : e.clockLagMs > CLOCK_LIMIT_MS;
  return [
    {
      code: 'P',
      active: unrecorded >= POWER_LIMIT_MS,
      detail: `${minutes(unrecorded)} of driving with the engine on not recorded in the last 24 hours (limit 30 min)`,
    },
    {
      code: 'E',
      active: withoutData > ENGINE_SYNC_LIMIT_MS,
      detail: `${minutes(withoutData)} of driving without the engine's odometer and hours in the last 24 hours (limit 30 min)`,
    },
    {
      code: '2',
      active: e.lastOnEngineData === false,
      detail:
        e.lastOnEngineData === null
          ? 'No fix with the engine on'
          : e.lastOnEngineData
            ? "The engine's odometer and hours are reported"
            : "The newest fix with the engine on lacks the engine's odometer or hours",
    },
    {
      code: '3',
      active: e.incompleteRecords.some((t) => t > dayAgo),
      detail: `${e.incompleteRecords.filter((t) => t > dayAgo).length} records without a required element in the last 24 hours`,
    },
    {
      code: 'T',
      active: clockOff,
      detail:
        e.clockLagMs === null ? 'No live fix to compare the clock with' : `The device's clock is ${minutes(e.clockLagMs)} behind the server's (limit 10 min)`,
    },
  ];
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
