// Test tracks of one vehicle: segments of 30-second fixes driven due east (tests of the trip fold,
// the follower and the reports share them).

export interface TrackFix {
  t: number;
  lat: number;
  lon: number;
  speed: number;
  ignition: boolean | null;
}

/** A segment: minutes long, at a speed (km/h), with the ignition on, off, or not reported (null). */
export type Segment = [minutes: number, speedKmh: number, ignition: boolean | null];

export const STEP_MS = 30_000;
const LAT = 41.8;
const KM_PER_DEG_LON = 111.32 * Math.cos((LAT * Math.PI) / 180);

/** The fixes of the segments from `t0`, at `lon0`; each fix's position is where the previous one's speed took it. */
export function track(t0: number, segments: readonly Segment[], lon0 = -87.6): TrackFix[] {
  const out: TrackFix[] = [];
  let t = t0;
  let lon = lon0;
  for (const [minutes, speed, ignition] of segments) {
    for (let i = 0; i < minutes * 2; i++) {
      out.push({ t, lat: LAT, lon, speed, ignition });
      lon += (speed * (STEP_MS / 3_600_000)) / KM_PER_DEG_LON;
      t += STEP_MS;
    }
  }
  return out;
}

/**
 * A working morning: parked (engine off) 30 min, warming up 5 min, 20 min at 60 km/h, a red light,
 * 10 min more, idling 10 min at the customer, engine off 30 min, 15 min to the next, parked 20 min.
 * Trips at 35-66 min (30 km) and 106-121 min (15 km); stops at 0-35 (idle 5 min), 66-106 (idle 10 min), 121- (open).
 */
export const MORNING: Segment[] = [
  [30, 0, false],
  [5, 0, true],
  [20, 60, true],
  [1, 0, true],
  [10, 60, true],
  [10, 0, true],
  [30, 0, false],
  [15, 60, true],
  [20, 0, false],
];

/** The morning from a device that reports no ignition. */
export const MORNING_NO_IGNITION: Segment[] = MORNING.map(([m, s]) => [m, s, null]);

export const MIN = 60_000;
