// Log days in the driver's home-terminal zone, starting at the carrier's 24-hour period start time
// (Appendix A 4.4.3; rules E3/E4). The zone math is lib/zone-offset.ts.
import { zoneOffsetMs, zonedToUtc } from '../../lib/zone-offset.ts';

export { exactZoneOffsetMs, zoneOffsetMs, zonedToUtc } from '../../lib/zone-offset.ts';

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The log day (YYYY-MM-DD) holding instant `ms`. */
export function logDateOf(ms: number, zone: string, periodStart: string): string {
  return new Date(ms + zoneOffsetMs(ms, zone) - minutesOf(periodStart) * 60_000).toISOString().slice(0, 10);
}

/** The instant a log day starts: local `date` at the period start time (23 or 25 h days on DST changes). */
export function dayStartMs(date: string, zone: string, periodStart: string): number {
  return zonedToUtc(Date.parse(`${date}T00:00:00Z`) + minutesOf(periodStart) * 60_000, zone);
}

export const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
export const previousDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
export const DAY_MS = 86_400_000;
/** The UTC dates around [fromMs, toMs), a day wider each side: every log day of any zone that overlaps it. */
export const logDatesAround = (fromMs: number, toMs: number): [string, string] => [
  new Date(fromMs - DAY_MS).toISOString().slice(0, 10),
  new Date(toMs + DAY_MS).toISOString().slice(0, 10),
];
