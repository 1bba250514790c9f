import { EARTH_RADIUS_M } from './distance.ts';

/** One fix of a track, in time order. Speed in km/h as reported by the device (null: unknown). */
export interface TrackPoint {
  /** Epoch milliseconds. */
  time: number;
  lat: number;
  lon: number;
  speedKmh: number | null;
  ignition?: boolean | null;
}

/**
 * A track as one typed array per field (same length, time order): what a history query returns
 * without building an object per fix. Unknown speed is NaN; ignition is 1 on, 0 off, -1 unknown.
 */
export interface TrackColumns {
  /** Epoch milliseconds. */
  time: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  speedKmh: Float64Array;
  ignition: Int8Array;
}

/** Columns of a point track (the object form callers and tests use). */
export function toTrackColumns(points: readonly TrackPoint[]): TrackColumns {
  const n = points.length;
  const c: TrackColumns = {
    time: new Float64Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    speedKmh: new Float64Array(n),
    ignition: new Int8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    c.time[i] = p.time;
    c.lat[i] = p.lat;
    c.lon[i] = p.lon;
    c.speedKmh[i] = p.speedKmh ?? Number.NaN;
    c.ignition[i] = p.ignition === true ? 1 : p.ignition === false ? 0 : -1;
  }
  return c;
}

/**
 * The columns in time order, fixes with equal times in their given order; the same object when
 * already sorted (the usual case: one pass to check). A database read without ORDER BY hands rows
 * in table order, which is arrival order, and a tracker's buffered fixes arrive late.
 */
export function inTimeOrder(c: TrackColumns): TrackColumns {
  const n = c.time.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = c.time[i - 1]! <= c.time[i]!;
  if (sorted) return c;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => c.time[a]! - c.time[b]! || a - b);
  const pick = <A extends Float64Array | Int8Array>(from: A, to: A): A => {
    for (let i = 0; i < n; i++) to[i] = from[order[i]!]!;
    return to;
  };
  return {
    time: pick(c.time, new Float64Array(n)),
    lat: pick(c.lat, new Float64Array(n)),
    lon: pick(c.lon, new Float64Array(n)),
    speedKmh: pick(c.speedKmh, new Float64Array(n)),
    ignition: pick(c.ignition, new Int8Array(n)),
  };
}

export interface TrackOptions {
  /** At or above this speed (km/h) the vehicle is moving. Default 5. */
  movingSpeedKmh?: number;
  /** A stationary run at least this long is a stop, seconds. Default 300 (5 min). */
  minStopDurationS?: number;
  /**
   * A silence between two fixes longer than this (seconds) that covers less than `gapRadiusM`
   * is a stop: trackers sleep when parked. Default 300.
   */
  maxGapS?: number;
  /** Default 200 m. */
  gapRadiusM?: number;
}

export interface Stop {
  lat: number;
  lon: number;
  /** Epoch ms of arrival and departure (departure = last fix when the track ends stopped). */
  start: number;
  end: number;
  durationS: number;
  /** Seconds of the stop with the ignition reported on. */
  idleS: number;
  /** Index of the first point of the stop in the input. */
  startIndex: number;
  endIndex: number;
}

export interface Trip {
  start: number;
  end: number;
  startIndex: number;
  endIndex: number;
  distanceM: number;
  durationS: number;
  maxSpeedKmh: number;
  averageSpeedKmh: number;
}

export interface TrackSummary {
  distanceM: number;
  /** Seconds spent moving. */
  drivingS: number;
  /** Seconds stationary with the ignition on (engine running, going nowhere). */
  idleS: number;
  /** Seconds in stops (stationary at least minStopDurationS). */
  stoppedS: number;
  maxSpeedKmh: number;
  /** Distance over driving time; 0 without driving. */
  averageSpeedKmh: number;
}

export interface TrackAnalysis {
  stops: Stop[];
  trips: Trip[];
  summary: TrackSummary;
}

/**
 * Trip and stop detection over one vehicle's track (pure; history routes, analytics and IFTA
 * share it). Segments between consecutive fixes are classified moving or stationary from the
 * reported speed (GPS jitter at standstill makes position-derived speed unreliable at 1 Hz), the
 * position-derived speed when none is reported, and long silences that cover no ground count as
 * stationary. Maximal stationary runs of at least minStopDurationS are stops; what lies between
 * stops is a trip.
 */
export function analyzeTrack(points: readonly TrackPoint[], options: TrackOptions = {}): TrackAnalysis {
  return analyzeTrackColumns(toTrackColumns(points), options);
}

const RAD = Math.PI / 180;

/** analyzeTrack over columns: one pass over typed arrays, no object per fix (a 1 Hz day is 86,400). */
export function analyzeTrackColumns(track: TrackColumns, options: TrackOptions = {}): TrackAnalysis {
  const movingKmh = options.movingSpeedKmh ?? 5;
  const minStopMs = (options.minStopDurationS ?? 300) * 1000;
  const maxGapMs = (options.maxGapS ?? 300) * 1000;
  const gapRadius = options.gapRadiusM ?? 200;
  const { time, lat, lon, speedKmh: speed, ignition } = track;
  const n = time.length;
  const summary: TrackSummary = { distanceM: 0, drivingS: 0, idleS: 0, stoppedS: 0, maxSpeedKmh: 0, averageSpeedKmh: 0 };
  if (n === 0) return { stops: [], trips: [], summary };

  // Per segment k (points k -> k+1): moving?, length. Haversine inline (the same formula as
  // distanceM) with each point's cos(lat) computed once instead of twice per segment.
  const moving = new Uint8Array(Math.max(0, n - 1));
  const lengths = new Float64Array(Math.max(0, n - 1));
  let maxSpeed = 0;
  for (let i = 0; i < n; i++) {
    const s = speed[i]!;
    if (s > maxSpeed) maxSpeed = s;
  }
  let cosA = Math.cos(lat[0]! * RAD);
  for (let k = 0; k < n - 1; k++) {
    const cosB = Math.cos(lat[k + 1]! * RAD);
    const sLat = Math.sin((lat[k + 1]! - lat[k]!) * RAD * 0.5);
    const sLon = Math.sin((lon[k + 1]! - lon[k]!) * RAD * 0.5);
    const h = sLat * sLat + cosA * cosB * sLon * sLon;
    const d = 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
    cosA = cosB;
    const dt = time[k + 1]! - time[k]!;
    lengths[k] = d;
    const sa = speed[k]!;
    const sb = speed[k + 1]!;
    let isMoving: boolean;
    if (dt > maxGapMs) {
      isMoving = d > gapRadius;
    } else if (sb === sb) {
      // (x === x: not NaN, a reported speed)
      isMoving = sb >= movingKmh || (sa === sa && sa >= movingKmh);
    } else {
      isMoving = dt > 0 && (d / dt) * 3600 >= movingKmh;
    }
    moving[k] = isMoving ? 1 : 0;
    if (isMoving && sb !== sb && dt > 0) maxSpeed = Math.max(maxSpeed, (d / dt) * 3600);
  }

  const stops: Stop[] = [];
  const trips: Trip[] = [];
  let k = 0;
  let tripStart = 0;
  const closeTrip = (endIndex: number) => {
    if (endIndex <= tripStart) return;
    let dist = 0;
    let drive = 0;
    let max = 0;
    for (let j = tripStart; j < endIndex; j++) {
      if (moving[j]) {
        dist += lengths[j]!;
        drive += time[j + 1]! - time[j]!;
      }
      const s = speed[j + 1]!;
      if (s > max) max = s;
    }
    if (dist === 0) return;
    const start = time[tripStart]!;
    const end = time[endIndex]!;
    trips.push({
      start,
      end,
      startIndex: tripStart,
      endIndex,
      distanceM: dist,
      durationS: (end - start) / 1000,
      maxSpeedKmh: max,
      averageSpeedKmh: drive > 0 ? dist / 1000 / (drive / 3_600_000) : 0,
    });
  };

  while (k < n - 1) {
    const dt = time[k + 1]! - time[k]!;
    if (moving[k]) {
      summary.distanceM += lengths[k]!;
      summary.drivingS += dt / 1000;
      k++;
      continue;
    }
    // A stationary run from point k to point j.
    let j = k;
    let idle = 0;
    while (j < n - 1 && !moving[j]) {
      const segMs = time[j + 1]! - time[j]!;
      // A silent gap is a parked tracker, not an idling engine.
      if (ignition[j] === 1 && segMs <= maxGapMs) idle += segMs;
      j++;
    }
    const runMs = time[j]! - time[k]!;
    summary.idleS += idle / 1000;
    if (runMs >= minStopMs) {
      closeTrip(k);
      stops.push({ lat: lat[k]!, lon: lon[k]!, start: time[k]!, end: time[j]!, durationS: runMs / 1000, idleS: idle / 1000, startIndex: k, endIndex: j });
      summary.stoppedS += runMs / 1000;
      tripStart = j;
    }
    k = j;
  }
  closeTrip(n - 1);
  summary.maxSpeedKmh = maxSpeed;
  summary.averageSpeedKmh = summary.drivingS > 0 ? summary.distanceM / 1000 / (summary.drivingS / 3600) : 0;
  return { stops, trips, summary };
}
