import { distanceM } from '@fleet/geo';
import { describeLocation } from '@fleet/geo/places';
import { HOS_EVENT_TYPES } from '@fleet/api-contract';

// Automatic duty status from a vehicle's positions (ELD Appendix A 4.4.1, 4.5.1.2; decision 0095).
// A pure state machine: the same fixes from the same state always give the same events, so the
// live ingest path, a restart's catch-up and the demo seed all derive records the same way.

/** 5 mph in km/h: motion per 4.4.1 (the threshold may not be set higher than 5 mph). */
export const MOVING_KMH = 8.04672;
/** 5 consecutive minutes not moving: the ELD's prompt, unanswered, switches D to ON (4.4.1.2). */
export const STOP_MS = 5 * 60_000;
/** An intermediate log each hour of continuous driving (4.5.1.2). */
export const INTERMEDIATE_MS = 60 * 60_000;

export const DUTY_CODES = { OFF: 1, SB: 2, D: 3, ON: 4 } as const;

/** One position of the vehicle, as stored. */
export interface DutyFix {
  /** Epoch ms. */
  time: number;
  /** km/h; null when the device sent none (then distance over time since the previous fix). */
  speedKmh: number | null;
  lat: number;
  lon: number;
  /** Metres; null when unknown. */
  odometerM: number | null;
  /** The engine's total hours (ECM); null when the device reports none. */
  engineHours?: number | null;
  /** The ignition the device reported; null or absent: unknown. Known off: the vehicle is not driven (decision 0155). */
  ignition?: boolean | null;
  /** The driver assigned to the vehicle at this fix; null = unidentified driver. */
  driverId: string | null;
}

/** An automatically recorded event: duty status D or ON (type 1) or an intermediate log (type 2, code 1). */
export interface DerivedEvent {
  /** Null: the unidentified driver's record. */
  driverId: string | null;
  vehicleId: string;
  eventType: number;
  eventCode: number;
  time: number;
  lat: number;
  lon: number;
  odometerM: number | null;
  /** The engine's total hours at the event (ECM); null or absent when unknown. */
  engineHours?: number | null;
  /** ELD location description ("3 mi NNE of Elko, NV"); null for intermediate logs, which carry none (4.5.1.2). */
  location: string | null;
}

interface FixMark {
  time: number;
  lat: number;
  lon: number;
  odometerM: number | null;
  engineHours?: number | null;
}

/** What one vehicle's derivation remembers between calls. */
export interface DutyState {
  vehicleId: string;
  /**
   * DRIVING: a D is recorded for `driverId` on this vehicle and not yet ended. IDLE: nothing
   * automatic is running (never driven, or ended by an ON).
   */
  mode: 'DRIVING' | 'IDLE';
  /** Whose driving is recorded (meaningful while DRIVING). */
  driverId: string | null;
  /** The last D or intermediate log: the next intermediate is due an hour later. */
  lastMarkAt: number;
  /** While DRIVING: the first fix of the current stop, null while moving. */
  stop: FixMark | null;
  /** The newest fix taken in; older or equal fixes are skipped. */
  last: (FixMark & { driverId: string | null }) | null;
  /** Fixes skipped because they were not newer than `last` (late or repeated). */
  skipped: number;
}

export const initialDutyState = (vehicleId: string): DutyState => ({
  vehicleId,
  mode: 'IDLE',
  driverId: null,
  lastMarkAt: 0,
  stop: null,
  last: null,
  skipped: 0,
});

/** Speed of a fix: the device's, else distance over time from the previous fix (0 for a first fix). */
function speedOf(fix: DutyFix, prev: FixMark | null): number {
  if (fix.speedKmh !== null && Number.isFinite(fix.speedKmh)) return fix.speedKmh;
  if (!prev || fix.time <= prev.time) return 0;
  return (distanceM(prev, fix) / ((fix.time - prev.time) / 1000)) * 3.6;
}

/**
 * Derives the automatic events of one vehicle's fixes, taken in time order after `state`.
 * - moving (≥ 5 mph) and not driving: D for the fix's driver at that fix;
 * - stopped (< 5 mph) for 5 minutes while driving: ON at the stop's start + 5 minutes (the prompt
 *   nobody answered); a silence between two fixes counts as stopped when the distance over the
 *   gap is below 5 mph;
 * - a new driver at a fix while driving: ON for the previous driver at that fix, then D for the
 *   new one when the vehicle moves;
 * - while driving, an intermediate log on each full hour after the last D or intermediate log.
 * Fixes not newer than the last one taken are skipped and counted (`state.skipped`).
 * The input state is not modified.
 */
export function deriveDutyEvents(state: DutyState, fixes: readonly DutyFix[]): { events: DerivedEvent[]; state: DutyState } {
  const s: DutyState = { ...state };
  const events: DerivedEvent[] = [];
  for (const fix of fixes) {
    const prev = s.last;
    if (prev && fix.time <= prev.time) {
      s.skipped++;
      continue;
    }
    // One object per fix: it is this fix's mark and, at the end, the state's newest fix.
    const mark = { time: fix.time, lat: fix.lat, lon: fix.lon, odometerM: fix.odometerM, engineHours: fix.engineHours ?? null, driverId: fix.driverId };
    // Movement with the engine known off (towed, a ferry) is not driving (decision 0155).
    const moving = fix.ignition !== false && speedOf(fix, prev) >= MOVING_KMH;
    if (s.mode === 'DRIVING') {
      // A silence longer than the stop rule with little distance covered was a stop from the last fix.
      if (!s.stop && prev && fix.time - prev.time > STOP_MS && speedOf({ ...fix, speedKmh: null }, prev) < MOVING_KMH) s.stop = prev;
      if (s.stop && fix.time - s.stop.time >= STOP_MS) endDriving(s, events, s.stop.time + STOP_MS, s.stop);
      else if (fix.driverId !== s.driverId) endDriving(s, events, fix.time, mark);
    }
    if (s.mode === 'DRIVING') {
      if (moving) {
        s.stop = null;
        while (fix.time >= s.lastMarkAt + INTERMEDIATE_MS) {
          s.lastMarkAt += INTERMEDIATE_MS;
          emit(s, events, s.driverId, HOS_EVENT_TYPES.INTERMEDIATE_LOG, 1, s.lastMarkAt, mark);
        }
      } else {
        s.stop ??= mark;
      }
    } else if (moving) {
      s.mode = 'DRIVING';
      s.driverId = fix.driverId;
      s.lastMarkAt = fix.time;
      s.stop = null;
      emit(s, events, fix.driverId, HOS_EVENT_TYPES.DUTY_STATUS, DUTY_CODES.D, fix.time, mark);
    }
    s.last = mark;
  }
  return { events, state: s };
}

function emit(s: DutyState, events: DerivedEvent[], driverId: string | null, eventType: number, eventCode: number, time: number, at: FixMark): void {
  const location = eventType === HOS_EVENT_TYPES.DUTY_STATUS ? describeLocation(at.lat, at.lon).text : null;
  events.push({
    driverId,
    vehicleId: s.vehicleId,
    eventType,
    eventCode,
    time,
    lat: at.lat,
    lon: at.lon,
    odometerM: at.odometerM,
    engineHours: at.engineHours ?? null,
    location,
  });
}

/** ON for the driver whose driving ends (at `at`, `time`): nothing automatic runs after it. */
function endDriving(s: DutyState, events: DerivedEvent[], time: number, at: FixMark): void {
  emit(s, events, s.driverId, HOS_EVENT_TYPES.DUTY_STATUS, DUTY_CODES.ON, time, at);
  s.mode = 'IDLE';
  s.stop = null;
}

/**
 * The state just after an event this derivation wrote (a restart's starting point): driving
 * after a D or an intermediate log, idle after anything else.
 */
export function stateAfterEvent(
  vehicleId: string,
  e: { driverId: string | null; eventType: number; eventCode: number; time: number; lat: number | null; lon: number | null; odometerM: number | null },
): DutyState {
  const driving = e.eventType === HOS_EVENT_TYPES.INTERMEDIATE_LOG || (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === DUTY_CODES.D);
  const last = e.lat !== null && e.lon !== null ? { time: e.time, lat: e.lat, lon: e.lon, odometerM: e.odometerM, driverId: e.driverId } : null;
  return { vehicleId, mode: driving ? 'DRIVING' : 'IDLE', driverId: e.driverId, lastMarkAt: e.time, stop: null, last, skipped: 0 };
}
