// Engine power-up and shut-down (ELD event type 6, Appendix A 4.5.1.6; decision 0155) from the
// ignition a vehicle's device reports. Pure: the live follower, a restart's catch-up and a late fix
// all reconcile the same way, so the same positions and records always give the same new records,
// and a change already recorded is never recorded twice.

/** Table 6 codes of event type 6. */
export const ENGINE_CODES = { POWER_UP: 1, POWER_UP_REDUCED: 2, SHUT_DOWN: 3, SHUT_DOWN_REDUCED: 4 } as const;

/** Whether a type-6 code is a power-up (1, 2) or a shut-down (3, 4). */
export const isPowerUp = (code: number): boolean => code === ENGINE_CODES.POWER_UP || code === ENGINE_CODES.POWER_UP_REDUCED;

/** The code of a change: reduced location precision while the driver is in personal conveyance (4.7.3). */
export const engineCode = (on: boolean, reduced: boolean): number =>
  on ? (reduced ? ENGINE_CODES.POWER_UP_REDUCED : ENGINE_CODES.POWER_UP) : reduced ? ENGINE_CODES.SHUT_DOWN_REDUCED : ENGINE_CODES.SHUT_DOWN;

/** One stored position of the vehicle. */
export interface IgnitionFix {
  /** Epoch ms. */
  time: number;
  /** null: the device did not say. */
  ignition: boolean | null;
  lat: number;
  lon: number;
  odometerM: number | null;
  engineHours: number | null;
  driverId: string | null;
}

/** An engine record already stored: its time and whether it is a power-up. */
export interface StoredEngineEvent {
  time: number;
  on: boolean;
}

export interface EngineChange {
  time: number;
  on: boolean;
  /** The fix that shows the change: where, the totals, and who was signed in. */
  fix: IgnitionFix;
}

/**
 * The engine changes the fixes show that the stored records do not hold yet.
 * - `start`: the engine's state before the first fix and record (the record before them; null: unknown);
 * - `fixes` and `stored`: in time order; a record at a fix's instant counts first (it was made from it).
 * Between two stored records the fixes may hold changes nobody recorded (a late fix, a restart): an
 * even number of them is a cycle that happened meanwhile, recorded; an odd number ends in the very
 * change the next record holds, so its last one is that record (seen earlier by a late fix) and is not
 * recorded again. An unknown state that turns out off is no change; one that turns out on is a power-up.
 * Returns the new changes in time order and the state after everything.
 */
export function engineChanges(
  start: boolean | null,
  fixes: readonly IgnitionFix[],
  stored: readonly StoredEngineEvent[],
): { changes: EngineChange[]; state: boolean | null } {
  const out: EngineChange[] = [];
  let pending: EngineChange[] = [];
  let cur = start;
  let i = 0;
  let j = 0;
  while (i < fixes.length || j < stored.length) {
    const s = stored[j];
    const f = fixes[i];
    if (s && (!f || s.time <= f.time)) {
      j++;
      if (pending.length && cur === s.on) pending.pop();
      out.push(...pending);
      pending = [];
      cur = s.on;
      continue;
    }
    i++;
    if (!f || f.ignition === null || f.ignition === cur) continue;
    if (cur === null && !f.ignition) {
      cur = false;
      continue;
    }
    pending.push({ time: f.time, on: f.ignition, fix: f });
    cur = f.ignition;
  }
  out.push(...pending);
  return { changes: out, state: cur };
}

const M_PER_MILE = 1609.344;

/** What an event counts from: its vehicle's power-up before it (type 6 codes 1-2), with that instant's totals. */
export interface PowerUp {
  time: number;
  odometerM: number | null;
  engineHours: number | null;
}

/**
 * Accumulated vehicle miles (whole miles, 0-9999, 7.43) and elapsed engine hours (0.1 h, 0-99.9, 7.19)
 * of a record since its vehicle's last power-up, derived rather than stored (decision 0155): null when
 * the record or the power-up lacks the total (a device without engine data, no power-up seen).
 */
export function sincePowerUp(powerUp: PowerUp | null, odometerM: number | null, engineHours: number | null): { miles: number | null; hours: number | null } {
  if (!powerUp) return { miles: null, hours: null };
  const miles = odometerM !== null && powerUp.odometerM !== null ? Math.min(9999, Math.max(0, Math.floor((odometerM - powerUp.odometerM) / M_PER_MILE))) : null;
  const hours =
    engineHours !== null && powerUp.engineHours !== null
      ? Math.min(99.9, Math.max(0, Math.floor(Math.round((engineHours - powerUp.engineHours) * 100) / 10) / 10))
      : null;
  return { miles, hours };
}

/** The last power-up at or before `at` among a vehicle's type-6 records sorted by time. */
export function powerUpBefore(events: ReadonlyArray<PowerUp & { code: number }>, at: number): PowerUp | null {
  let best: PowerUp | null = null;
  for (const e of events) {
    if (e.time > at) break;
    if (isPowerUp(e.code)) best = e;
  }
  return best;
}

/** Distance (metres) and engine hours (tenths, rounded down) of a record since its vehicle's power-up, for screens in the organization's units. */
export function distanceSincePowerUp(
  powerUp: PowerUp | null,
  odometerM: number | null,
  engineHours: number | null,
): { distanceM: number | null; engineHours: number | null } | null {
  if (!powerUp) return null;
  return {
    distanceM: odometerM !== null && powerUp.odometerM !== null ? Math.max(0, odometerM - powerUp.odometerM) : null,
    engineHours: sincePowerUp(powerUp, null, engineHours).hours,
  };
}
