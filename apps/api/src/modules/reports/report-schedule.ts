import { dayStartMs, logDateOf, nextDate } from '../hos/index.ts';

// When a subscription runs and what it covers (decision 0163), as pure functions of its schedule:
// daily at a time, or weekly on a day at a time, in the subscription's zone.

export interface Schedule {
  frequency: 'DAILY' | 'WEEKLY';
  timeOfDay: string;
  /** 1 (Monday) to 7 (Sunday), for WEEKLY. */
  weekday: number | null;
  timeZone: string;
}

/** ISO weekday (1 Monday … 7 Sunday) of a calendar date. */
export const isoWeekday = (date: string): number => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** The first scheduled time strictly after `afterMs` (a daylight-saving gap moves it as the zone does). */
export function nextRunAfter(s: Schedule, afterMs: number): number {
  let day = logDateOf(afterMs, s.timeZone, '00:00');
  for (let i = 0; i < 9; i++, day = nextDate(day)) {
    if (s.frequency === 'WEEKLY' && isoWeekday(day) !== s.weekday) continue;
    const at = dayStartMs(day, s.timeZone, s.timeOfDay);
    if (at > afterMs) return at;
  }
  throw new Error('no scheduled time within 9 days');
}

/** The period a run at `scheduledMs` covers: the day before it (DAILY) or the 7 days before it (WEEKLY), midnight to midnight in the zone. */
export function periodOf(s: Schedule, scheduledMs: number): { from: string; to: string } {
  const day = logDateOf(scheduledMs, s.timeZone, '00:00');
  let first = day;
  for (let i = 0; i < (s.frequency === 'DAILY' ? 1 : 7); i++) first = logDateOf(dayStartMs(first, s.timeZone, '00:00') - 1, s.timeZone, '00:00');
  return { from: new Date(dayStartMs(first, s.timeZone, '00:00')).toISOString(), to: new Date(dayStartMs(day, s.timeZone, '00:00')).toISOString() };
}

/** Whether `zone` is a time zone this runtime knows (an IANA name). */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
