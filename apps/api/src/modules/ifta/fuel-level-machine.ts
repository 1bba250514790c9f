import { FUEL_EVENT_RULES, type FuelEventType } from '@fleet/api-contract';
import { distanceM } from '@fleet/geo';

// Refuels and drops in the fuel level a truck reports (issue 68, decision 0276). Pure: fixes in, in
// fix-time order, one at a time; events out once they are sure. The readable rules:
//
// 1. Only standing readings count: speed at most 5 km/h, or the ignition off. While the truck moves,
//    the fuel sloshes and a grade tilts the tank: those readings say nothing and are not read.
// 2. A stop's first minute is not read either (the fuel still moves after braking).
// 3. Each reading is smoothed: the median of the stop's readings of the last 2 minutes, at least the
//    last 3. A lone spike or dip of the sensor goes.
// 4. A REFUEL starts when the smoothed level is at least 10 % of the tank above the lowest level
//    since the stop began (or since its last event); a DROP when it is at least 5 % below the highest
//    of the last 30 minutes.
// 5. Either is confirmed once the level has held (moved less than 1 %) for 3 minutes of standing, or
//    when the truck drives off with it still there; one that comes back 3 % before that was the
//    sensor, not fuel. The event runs from the last steady reading before the level moved to the one
//    where it held; its quantity is the difference, its place where the truck stood.
//
// The state is blank at every moving fix: a replay of the stored fixes from any moving fix on gives
// the same events as the live stream (the follower's replays cut there).

export const FUEL_MACHINE = {
  standingKmh: 5,
  settleMs: 60_000,
  smoothMs: 120_000,
  smoothReadings: 3,
  stillPct: 1,
  /** A pending change that comes back this far before it is confirmed was the sensor. */
  backPct: 3,
  confirmMs: 180_000,
  refuelPct: FUEL_EVENT_RULES.refuelPct,
  dropPct: FUEL_EVENT_RULES.dropPct,
  dropWithinMs: FUEL_EVENT_RULES.dropWithinMinutes * 60_000,
  /** A standing fix this far from where the stop began is another stop (the device slept while the truck moved). */
  stopRadiusM: 300,
  /** A reading above this share of the tank is no level (a sensor's "no value", a wrong capacity). */
  maxPct: 150,
} as const;

/** A fix as the machine reads it: the level in percent of the tank, or in litres (the tank converts), or none. */
export interface FuelFix {
  t: number;
  lat: number;
  lon: number;
  /** km/h; null when the device gave none (then from the distance to the fix before). */
  speed: number | null;
  ignition: boolean | null;
  driverId: string | null;
  levelPct: number | null;
  levelL: number | null;
}

export interface FuelContext {
  /** The tank, litres (the vehicle's, else the default). */
  capacityL: number;
}

export interface FuelEventDraft {
  type: FuelEventType;
  /** The last steady reading before the level moved, and the reading it settled at (or held from). */
  startedAt: number;
  endedAt: number;
  lat: number;
  lon: number;
  driverId: string | null;
  levelBeforePct: number;
  levelAfterPct: number;
  ignitionOff: boolean;
}

/** A smoothed standing reading. */
interface Point {
  t: number;
  pct: number;
  lat: number;
  lon: number;
  driverId: string | null;
}

interface Pending {
  kind: FuelEventType;
  from: Point;
  /** The farthest the level went (the top of a rise, the bottom of a fall). */
  extreme: number;
  /** The reading at which it last moved by `stillPct` or more: held for `confirmMs` after it, it is confirmed. */
  moved: Point;
  ignitionOff: boolean;
}

interface Stop {
  startT: number;
  lat: number;
  lon: number;
  /** Raw settled readings the median is taken over. */
  recent: Array<{ t: number; pct: number }>;
  /** The lowest smoothed level since the stop began or its last event, and the last reading within 1 % of it. */
  low: Point | null;
  lowLast: Point | null;
  /** Smoothed levels of the last 30 minutes, highest first, each lower than the one before (a max queue). */
  highs: Point[];
  pending: Pending | null;
  last: Point | null;
}

export interface FuelTrack {
  /** The last fix worked (ms); -Infinity before any. */
  t: number;
  prev: { t: number; lat: number; lon: number } | null;
  stop: Stop | null;
  /** The vehicle reported a level at some fix worked (the follower marks only such vehicles). */
  sensor: boolean;
}

export const blankFuelTrack = (): FuelTrack => ({ t: -Infinity, prev: null, stop: null, sensor: false });

/** The reading in percent of the tank, or null (none, or not a level). */
export function levelPctOf(f: Pick<FuelFix, 'levelPct' | 'levelL'>, capacityL: number): number | null {
  const pct = f.levelPct !== null ? f.levelPct : f.levelL !== null && capacityL > 0 ? (f.levelL / capacityL) * 100 : null;
  return pct !== null && Number.isFinite(pct) && pct >= 0 && pct <= FUEL_MACHINE.maxPct ? pct : null;
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/** Whether the truck stands at this fix: slow enough, or the ignition off. */
function standing(track: FuelTrack, f: FuelFix): boolean {
  if (f.ignition === false) return true;
  let speed = f.speed;
  if (speed === null && track.prev && f.t > track.prev.t) speed = (distanceM(track.prev, f) / (f.t - track.prev.t)) * 3600;
  return speed !== null && speed <= FUEL_MACHINE.standingKmh;
}

/** Works one fix (newer than the last worked); the events it confirms. */
export function stepFuel(track: FuelTrack, f: FuelFix, ctx: FuelContext): FuelEventDraft[] {
  if (f.t <= track.t) return [];
  const still = standing(track, f);
  track.t = f.t;
  track.prev = { t: f.t, lat: f.lat, lon: f.lon };
  const out: FuelEventDraft[] = [];
  if (!still) {
    if (track.stop) out.push(...endStop(track.stop));
    track.stop = null;
    return out;
  }
  if (track.stop && distanceM(track.stop, f) > FUEL_MACHINE.stopRadiusM) {
    out.push(...endStop(track.stop));
    track.stop = null;
  }
  const stop = (track.stop ??= { startT: f.t, lat: f.lat, lon: f.lon, recent: [], low: null, lowLast: null, highs: [], pending: null, last: null });
  if (stop.pending && f.ignition === false) stop.pending.ignitionOff = true;
  const pct = levelPctOf(f, ctx.capacityL);
  if (pct === null) return out;
  track.sensor = true;
  if (f.t - stop.startT < FUEL_MACHINE.settleMs) return out;
  stop.recent.push({ t: f.t, pct });
  while (stop.recent.length > FUEL_MACHINE.smoothReadings && stop.recent[0]!.t <= f.t - FUEL_MACHINE.smoothMs) stop.recent.shift();
  const p: Point = { t: f.t, pct: median(stop.recent.map((r) => r.pct)), lat: f.lat, lon: f.lon, driverId: f.driverId };
  const e = advance(stop, p, f.ignition === false);
  if (e) out.push(e);
  return out;
}

/** A smoothed reading of a stop: the pending change goes on, is confirmed or cancelled; or one starts. */
function advance(stop: Stop, p: Point, ignitionOff: boolean): FuelEventDraft | null {
  stop.last = p;
  const m = FUEL_MACHINE;
  const pend = stop.pending;
  if (pend) {
    const up = pend.kind === 'REFUEL' ? 1 : -1;
    // How far p is beyond the last move, and back from the farthest, in the change's direction.
    if ((p.pct - pend.moved.pct) * up >= m.stillPct) pend.moved = p;
    else if ((pend.extreme - p.pct) * up >= m.backPct) stop.pending = null;
    if (stop.pending) {
      if ((p.pct - pend.extreme) * up > 0) pend.extreme = p.pct;
      if (p.t - pend.moved.t < m.confirmMs) return null;
      stop.pending = null;
      settle(stop, p);
      return draft(pend, p);
    }
  }
  // No change under way: the 30 minutes' highest, the lowest so far, and whether p starts a change.
  while (stop.highs.length && stop.highs[0]!.t < p.t - m.dropWithinMs) stop.highs.shift();
  const high = stop.highs[0];
  if (stop.low && p.pct - stop.low.pct >= m.refuelPct) {
    // From the lowest level, as last read (a truck standing the night before its fill began then).
    stop.pending = { kind: 'REFUEL', from: { ...stop.lowLast!, pct: stop.low.pct }, extreme: p.pct, moved: p, ignitionOff };
    return null;
  }
  if (high && high.pct - p.pct >= m.dropPct) {
    stop.pending = { kind: 'DROP', from: high, extreme: p.pct, moved: p, ignitionOff };
    return null;
  }
  while (stop.highs.length && stop.highs[stop.highs.length - 1]!.pct <= p.pct) stop.highs.pop();
  stop.highs.push(p);
  if (!stop.low || p.pct < stop.low.pct) stop.low = stop.lowLast = p;
  else if (p.pct < stop.low.pct + m.stillPct) stop.lowLast = p;
  return null;
}

/** After an event: the level it settled at is where the next change is measured from. */
function settle(stop: Stop, p: Point): void {
  stop.low = stop.lowLast = p;
  stop.highs = [p];
}

function draft(pend: Pending, to: Point): FuelEventDraft {
  return {
    type: pend.kind,
    startedAt: pend.from.t,
    endedAt: pend.moved.t,
    lat: to.lat,
    lon: to.lon,
    driverId: to.driverId,
    levelBeforePct: pend.from.pct,
    levelAfterPct: to.pct,
    ignitionOff: pend.ignitionOff,
  };
}

/** The truck drives off (or turns up elsewhere): a change under way that is still there is confirmed. */
function endStop(stop: Stop): FuelEventDraft[] {
  const pend = stop.pending;
  const last = stop.last;
  if (!pend || !last) return [];
  const kept = pend.kind === 'REFUEL' ? last.pct - pend.from.pct >= FUEL_MACHINE.refuelPct : pend.from.pct - last.pct >= FUEL_MACHINE.dropPct;
  return kept ? [draft(pend, last)] : [];
}
