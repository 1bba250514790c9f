import type { DutyStatus, Special } from '@fleet/hos';
import { DUTY_STATUSES, HOS_EVENT_TYPES, HOS_RECORD_ORIGINS } from '@fleet/api-contract';

/** The slice of an active event that duty periods are made of. */
export interface DutyEventFacts {
  eventType: number;
  eventCode: number;
  /** ms since the epoch. */
  at: number;
}

/** ELD duty-status event code (type 1) of a status: 1 OFF, 2 SB, 3 D, 4 ON. */
export const statusCode = (s: DutyStatus): number => DUTY_STATUSES.indexOf(s) + 1;
export const statusOfCode = (code: number): DutyStatus | null => DUTY_STATUSES[code - 1] ?? null;
const DRIVING = statusCode('D');
/** Driving the ELD recorded itself: an entry or an edit may not cut into it or shorten it. */
export const isAutomaticDriving = (e: { eventType: number; eventCode: number; recordOrigin: number }) =>
  e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.eventCode === DRIVING && e.recordOrigin === HOS_RECORD_ORIGINS.AUTOMATIC;
/** A special category of a duty status as recorded (api-contract SPECIAL_CATEGORIES). */
export type SpecialCategory = 'PC' | 'YM' | 'PASSENGER' | 'WAITING';
/**
 * Special-category event code (type 3): 1 PC, 2 YM, 0 cleared (the ELD's, Table 6), and 3 for a
 * team driver's passenger-seat time, which the ELD has no code for: the ELD output file leaves
 * those events out (the time is OFF duty there) and keeps the status events.
 */
export const PASSENGER_CODE = 3;
/**
 * 4: waiting time at an oil or gas well site (49 CFR 395.1(d)(2)), no ELD code either: the rule has
 * the time recorded as OFF duty, marked as waiting time; the output file shows the OFF duty status
 * (decision 0311).
 */
export const WAITING_CODE = 4;
export const specialCode = (s: SpecialCategory | null): number =>
  s === 'PC' ? 1 : s === 'YM' ? 2 : s === 'PASSENGER' ? PASSENGER_CODE : s === 'WAITING' ? WAITING_CODE : 0;
export const specialOfCode = (code: number): SpecialCategory | null =>
  code === 1 ? 'PC' : code === 2 ? 'YM' : code === PASSENGER_CODE ? 'PASSENGER' : code === WAITING_CODE ? 'WAITING' : null;

/** PC, PASSENGER and WAITING go with off duty, YM with on duty: any other pairing is no special category. */
const specialApplies = (status: DutyStatus, special: SpecialCategory | null): Special | undefined =>
  ((special === 'PC' || special === 'PASSENGER' || special === 'WAITING') && status === 'OFF') || (special === 'YM' && status === 'ON') ? special : undefined;

/** A duty period with instants in epoch milliseconds (what the engine reads fastest; decision 0099). */
export interface MsPeriod {
  status: DutyStatus;
  start: number;
  end: number;
  special?: Special;
}

/**
 * Duty periods from one driver's active events (sorted by time, then sequence): each status lasts
 * until the next change, the last one until `untilMs`. Events after `untilMs` are ignored; nothing
 * before the first duty-status event is assumed.
 */
export function dutyPeriods(events: readonly DutyEventFacts[], untilMs: number): MsPeriod[] {
  const out: MsPeriod[] = [];
  let status: DutyStatus | null = null;
  let special: SpecialCategory | null = null;
  let start = 0;
  let current: Special | undefined;
  const close = (at: number) => {
    if (status === null || at <= start) return;
    const p: MsPeriod = { status, start, end: at };
    if (current) p.special = current;
    out.push(p);
  };
  for (const e of events) {
    if (e.at >= untilMs) break;
    let nextStatus: DutyStatus | null = status;
    let nextSpecial: SpecialCategory | null = special;
    if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS) nextStatus = statusOfCode(e.eventCode) ?? status;
    else if (e.eventType === HOS_EVENT_TYPES.SPECIAL_CATEGORY) nextSpecial = specialOfCode(e.eventCode);
    else continue;
    if (nextStatus === null) {
      special = nextSpecial;
      continue;
    }
    const nextCurrent = specialApplies(nextStatus, nextSpecial);
    if (nextStatus !== status || nextCurrent !== current) {
      close(e.at);
      start = e.at;
      status = nextStatus;
      current = nextCurrent;
    }
    special = nextSpecial;
  }
  close(untilMs);
  return out;
}
