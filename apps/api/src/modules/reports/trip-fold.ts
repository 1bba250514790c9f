import { MAX_GAP_MS, MOVING_KMH, STOP_MIN_MS, haversineM } from '../fleet-stats/index.ts';

// Trips and stops from a vehicle's fixes, as a pure fold (issue 32, decision 0163). The vehicle is
// either stopped or on a trip; the thresholds are the daily statistics' (decision 0131), so a day's
// trips and stops agree with its statistics:
// - a trip begins at the first moving fix (≥ MOVING_KMH, ignition not off) once the vehicle has
//   left the stop by MIN_TRIP_M: GPS jitter while parked (a speed spike, a wandering fix) makes no trip;
// - a trip ends at the first fix of a stop: the ignition switched off (at once), or standing still
//   for STOP_MIN_MS (a traffic light is not a stop), or a gap in the fixes longer than MAX_GAP_MS
//   (the device off: the trip ends at its last fix);
// - a stop's idle time is the time after each still fix with the ignition on (as the daily
//   statistics count it); devices that report no ignition never idle.

/** Leaving a stop by this much (great circle from where it began) makes a trip: GPS jitter stays well inside. */
export const MIN_TRIP_M = 200;
/** Faster than this between two fixes is a GPS jump, not distance (as the daily statistics). */
const MAX_PLAUSIBLE_KMH = 250;

export interface TripFix {
  /** Epoch ms. */
  t: number;
  lat: number;
  lon: number;
  speed: number | null;
  ignition: boolean | null;
  driverId: string | null;
}

export interface FoldedTrip {
  start: TripFix;
  end: TripFix;
  distanceM: number;
  maxSpeedKmh: number;
}

export interface FoldedStop {
  start: TripFix;
  /** Null while the vehicle is still stopped. */
  endedAt: number | null;
  idleMs: number;
  /** Whether any fix of the stop said its ignition (false: the device does not report it). */
  ignitionKnown: boolean;
  /** The ignition at the stop's latest fix. */
  lastIgnition: boolean | null;
  /** The stop's latest fix time. */
  lastT: number;
}

const isMoving = (f: TripFix) => f.speed !== null && f.speed >= MOVING_KMH && f.ignition !== false;
const still = (f: TripFix) => !(f.speed !== null && f.speed >= MOVING_KMH);

/** Distance between two fixes, unless the implied speed is impossible (a GPS jump). */
function stepM(a: TripFix, b: TripFix): number {
  const d = haversineM(a, b);
  const dt = b.t - a.t;
  return dt > 0 && d / 1000 / (dt / 3_600_000) <= MAX_PLAUSIBLE_KMH ? d : 0;
}

interface OpenStop {
  start: TripFix;
  idleMs: number;
  ignitionKnown: boolean;
  /** A possible trip: moving since `start`, not yet MIN_TRIP_M away. */
  cand: { start: TripFix; distM: number; maxKmh: number; idleAtStart: number; stillSince: number | null } | null;
}

interface OpenTrip {
  start: TripFix;
  distM: number;
  maxKmh: number;
  /** A possible stop: still since `start`, not yet STOP_MIN_MS long. */
  cand: { start: TripFix; distM: number; maxKmh: number; idleMs: number; ignitionKnown: boolean } | null;
}

/**
 * One vehicle's fold: `add` its fixes in time order; finished trips and stops pile up in `done`
 * (taken with `take`), and `openStop` is the stop the vehicle is in now, if any. A trip under way
 * is not output until it ends.
 */
export class TripFolder {
  private stop: OpenStop | null = null;
  private trip: OpenTrip | null = null;
  private last: TripFix | null = null;
  private done: Array<{ kind: 'trip'; trip: FoldedTrip } | { kind: 'stop'; stop: FoldedStop }> = [];

  /** `startStopped`: the first fix begins a stop whatever its speed (a recomputation starts where a stored stop began). */
  constructor(private readonly startStopped = false) {}

  get lastT(): number | null {
    return this.last?.t ?? null;
  }

  add(f: TripFix): void {
    const prev = this.last;
    if (prev && f.t <= prev.t) return;
    this.last = f;
    if (!prev) {
      if (this.startStopped || !isMoving(f)) this.beginStop(f, 0, f.ignition !== null);
      else this.trip = { start: f, distM: 0, maxKmh: f.speed ?? 0, cand: null };
      return;
    }
    const dt = f.t - prev.t;
    if (this.trip) this.onTrip(prev, f, dt);
    else this.onStop(prev, f, dt);
  }

  /** Finished trips and stops since the last take, in time order. */
  take(): Array<{ kind: 'trip'; trip: FoldedTrip } | { kind: 'stop'; stop: FoldedStop }> {
    const d = this.done;
    this.done = [];
    return d;
  }

  /**
   * The trip under way, from its first moving fix to the latest fix (issue 46: today's figures
   * include it), or null while the vehicle is stopped. It is output by `take` only once it ends.
   */
  openTrip(): FoldedTrip | null {
    const t = this.trip;
    if (!t || !this.last || this.last.t <= t.start.t) return null;
    return { start: t.start, end: this.last, distanceM: t.distM, maxSpeedKmh: Math.max(t.maxKmh, this.last.speed ?? 0) };
  }

  /** The stop the vehicle is in (ended_at null), or null while it is on a trip. */
  openStop(): FoldedStop | null {
    const s = this.stop;
    if (!s || !this.last) return null;
    const idleMs = s.cand ? s.cand.idleAtStart : s.idleMs;
    return { start: s.start, endedAt: null, idleMs, ignitionKnown: s.ignitionKnown, lastIgnition: this.last.ignition, lastT: this.last.t };
  }

  private beginStop(start: TripFix, idleMs: number, ignitionKnown: boolean): void {
    this.trip = null;
    this.stop = { start, idleMs, ignitionKnown, cand: null };
  }

  private onStop(prev: TripFix, f: TripFix, dt: number): void {
    const s = this.stop!;
    if (f.ignition !== null) s.ignitionKnown = true;
    if (dt <= MAX_GAP_MS && still(prev) && prev.ignition === true) s.idleMs += dt;
    if (!s.cand) {
      if (!isMoving(f)) return;
      s.cand = { start: f, distM: 0, maxKmh: f.speed ?? 0, idleAtStart: s.idleMs, stillSince: null };
    } else {
      const c = s.cand;
      c.distM += stepM(prev, f);
      if (f.speed !== null) c.maxKmh = Math.max(c.maxKmh, f.speed);
      if (f.ignition === false) {
        // The engine switched off before the vehicle went anywhere: the stop goes on.
        s.cand = null;
        return;
      }
      if (isMoving(f)) c.stillSince = null;
      else {
        c.stillSince ??= f.t;
        if (f.t - c.stillSince >= STOP_MIN_MS) {
          s.cand = null;
          return;
        }
      }
    }
    const c = s.cand;
    if (haversineM(s.start, f) < MIN_TRIP_M) return;
    // Left the stop: it ended where the movement began, and the trip began there.
    this.done.push({
      kind: 'stop',
      stop: { start: s.start, endedAt: c.start.t, idleMs: c.idleAtStart, ignitionKnown: s.ignitionKnown, lastIgnition: c.start.ignition, lastT: c.start.t },
    });
    this.stop = null;
    this.trip = { start: c.start, distM: c.distM, maxKmh: c.maxKmh, cand: null };
    if (!isMoving(f)) this.trip.cand = { start: f, distM: c.distM, maxKmh: c.maxKmh, idleMs: 0, ignitionKnown: f.ignition !== null };
  }

  private onTrip(prev: TripFix, f: TripFix, dt: number): void {
    const t = this.trip!;
    if (dt > MAX_GAP_MS) {
      // The device was silent: the trip ended at its last fix (or where it stood still), and the
      // vehicle stood there until this fix.
      const at = t.cand ? t.cand.start : prev;
      this.endTrip(at, t.cand?.distM ?? t.distM, t.cand?.maxKmh ?? t.maxKmh);
      this.beginStop(at, t.cand?.idleMs ?? 0, t.cand?.ignitionKnown ?? at.ignition !== null);
      this.onStop(prev, f, dt);
      return;
    }
    t.distM += stepM(prev, f);
    if (t.cand) {
      if (still(prev) && prev.ignition === true) t.cand.idleMs += dt;
      if (f.ignition !== null) t.cand.ignitionKnown = true;
    }
    if (f.ignition === false || !isMoving(f)) {
      t.cand ??= { start: f, distM: t.distM, maxKmh: t.maxKmh, idleMs: 0, ignitionKnown: f.ignition !== null };
      if (f.speed !== null) t.maxKmh = Math.max(t.maxKmh, f.speed);
      if (f.ignition === false || f.t - t.cand.start.t >= STOP_MIN_MS) {
        const c = t.cand;
        this.endTrip(c.start, c.distM, c.maxKmh);
        this.beginStop(c.start, c.idleMs, c.ignitionKnown);
      }
      return;
    }
    if (f.speed !== null) t.maxKmh = Math.max(t.maxKmh, f.speed);
    t.cand = null;
  }

  private endTrip(end: TripFix, distM: number, maxKmh: number): void {
    const t = this.trip!;
    if (end.t > t.start.t) this.done.push({ kind: 'trip', trip: { start: t.start, end, distanceM: distM, maxSpeedKmh: maxKmh } });
    this.trip = null;
  }
}
