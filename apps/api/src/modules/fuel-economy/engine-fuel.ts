import { MAX_GAP_MS, haversineM } from '../fleet-stats/index.ts';

// Fuel used from the engine's total fuel counter (issue 68, decision 0280), as a pure fold over a
// vehicle's fixes in time order. The counter (Teltonika IO 83, the `fuelUsed` attribute, litres since
// the engine was built) only rises, so the fuel used between two readings is their difference; the
// fold sums the positive differences of consecutive readings, and the distance driven between the
// same readings, so the economy divides fuel by the distance it was burnt over:
// - a reading below the one before is a reset (the ECU or the device was replaced, the counter
//   restarted): nothing is counted across it, and the count goes on from the new value;
// - a rise faster than MAX_BURN_L_PER_H (a bad CAN read, a counter from another engine) is an odd
//   jump: nothing is counted across it either, and the count goes on from the new value (a one-fix
//   spike is then a jump up and a reset down, and costs the two intervals around it);
// - a gap longer than MAX_GAP_MS between fixes (the daily statistics' gap: the device was off or out
//   of coverage) breaks the run: the fuel across it is real but the road driven is unknown, so both
//   are left out;
// - fixes without a reading between two readings add their distance to the interval they lie in;
// - each interval belongs to the driver of the fix where it starts (the fix's own attribution).

/** No class 8 engine burns more: a 600 hp diesel at full load uses about 110 L/h. */
export const MAX_BURN_L_PER_H = 150;
/** The counter's resolution (0.1 L on Teltonika) and rounding: a rise this small always counts. */
const READING_SLACK_L = 0.5;
/** Faster than this between two fixes is a GPS jump, not distance (as the daily statistics). */
const MAX_PLAUSIBLE_KMH = 250;

export interface FuelFix {
  /** Epoch ms. */
  t: number;
  lat: number;
  lon: number;
  /** The engine's total fuel used (litres) at this fix; null when the fix does not carry it. */
  fuelL: number | null;
  driverId: string | null;
}

/** One driver's share of a vehicle's counted fuel (driver null: none attributed). */
export interface EnginePiece {
  driverId: string | null;
  fuelL: number;
  distanceM: number;
  /** First and last instant counted (epoch ms). */
  from: number;
  to: number;
}

/**
 * The fuel counted from `fixes` (sorted by time; a fix not after the one before is skipped, as a
 * duplicate) per driver, with the distance driven over the same intervals. Empty when no two
 * consecutive readings could be counted.
 */
export function engineFuel(fixes: readonly FuelFix[]): EnginePiece[] {
  const pieces = new Map<string | null, EnginePiece>();
  let prev: FuelFix | null = null;
  /** The last reading of the run, and the distance driven since it. */
  let reading: FuelFix | null = null;
  let pendingM = 0;
  for (const f of fixes) {
    if (prev && f.t <= prev.t) continue;
    if (prev) {
      const dt = f.t - prev.t;
      if (dt > MAX_GAP_MS) {
        reading = null;
        pendingM = 0;
      } else {
        const d = haversineM(prev, f);
        if (d / 1000 / (dt / 3_600_000) <= MAX_PLAUSIBLE_KMH) pendingM += d;
      }
    }
    prev = f;
    if (f.fuelL === null) continue;
    if (reading) {
      const rise = f.fuelL - reading.fuelL!;
      const hours = (f.t - reading.t) / 3_600_000;
      if (rise >= 0 && rise <= MAX_BURN_L_PER_H * hours + READING_SLACK_L) {
        const p = pieces.get(reading.driverId) ?? { driverId: reading.driverId, fuelL: 0, distanceM: 0, from: reading.t, to: f.t };
        p.fuelL += rise;
        p.distanceM += pendingM;
        p.to = f.t;
        pieces.set(reading.driverId, p);
      }
    }
    reading = f;
    pendingM = 0;
  }
  return [...pieces.values()];
}

/** A `fuelUsed` attribute as stored (a number, or a numeric string from some ways in); null when it is not a reading. */
export function fuelReading(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}
