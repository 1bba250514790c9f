import { distanceM } from '@fleet/geo/distance';

// A vehicle's total miles and engine hours as its ELD records carry them (issue 46): never below an
// earlier record's of the same vehicle. A device reports the engine's odometer (ECM) when it has it
// and its own GPS odometer otherwise, two counters apart by tenths of a mile or more, so stored fixes
// step back and forth between them (On duty at 1:37 with 664,534.9 mi, the power-up at 1:51 with
// 664,534.7). Read in time order per vehicle, each record takes its own value where it is at least
// the highest seen so far; below it, it is the last known value plus the GPS distance from the last
// known position (engine hours: the last known). Pure: the log day and the ELD output file
// both pass their records through it.

/** The fields the rule reads and writes. */
export interface TotalsRecord {
  vehicleId: string | null;
  eventTime: Date;
  sequenceId: number;
  latitude: number | null;
  longitude: number | null;
  odometerM: number | null;
  engineHours: number | null;
}

/** What is known of a vehicle before the records (its last power-up's totals, decision 0155). */
export interface TotalsFloor {
  time: number;
  odometerM: number | null;
  engineHours: number | null;
}

/**
 * The records with totals that never go down per vehicle, in the input's order (each changed record
 * is a copy; the others are the same objects). `floors`: what each vehicle had before the first one.
 */
export function monotonicTotals<T extends TotalsRecord>(records: readonly T[], floors: ReadonlyMap<string, TotalsFloor> = new Map()): T[] {
  const byVehicle = new Map<string, number[]>();
  records.forEach((r, i) => {
    if (!r.vehicleId) return;
    const list = byVehicle.get(r.vehicleId);
    if (list) list.push(i);
    else byVehicle.set(r.vehicleId, [i]);
  });
  const out = [...records];
  for (const [vehicleId, indexes] of byVehicle) {
    indexes.sort((a, b) => records[a]!.eventTime.getTime() - records[b]!.eventTime.getTime() || records[a]!.sequenceId - records[b]!.sequenceId);
    const floor = floors.get(vehicleId);
    let odo = floor?.odometerM ?? null;
    let hours = floor?.engineHours ?? null;
    let at: { lat: number; lon: number } | null = null;
    for (const i of indexes) {
      const r = records[i]!;
      const here = r.latitude !== null && r.longitude !== null ? { lat: r.latitude, lon: r.longitude } : null;
      // Unknown before, or at least the last known: the record's own value (the engine's, or the
      // only counter the device has). Below it: the last known plus the GPS distance since. A record
      // without a value (an entry the office made, a device without an odometer) keeps none.
      const nextOdo = odo === null || r.odometerM === null || r.odometerM >= odo ? r.odometerM : odo + (here && at ? distanceM(at, here) : 0);
      const nextHours = hours !== null && r.engineHours !== null && r.engineHours < hours ? hours : r.engineHours;
      if (nextOdo !== r.odometerM || nextHours !== r.engineHours) out[i] = { ...r, odometerM: nextOdo, engineHours: nextHours };
      if (nextOdo !== null) {
        odo = nextOdo;
        at = here;
      }
      if (nextHours !== null) hours = nextHours;
    }
  }
  return out;
}
