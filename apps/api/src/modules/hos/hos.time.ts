// Log days in the driver's home-terminal zone, starting at the carrier's 24-hour period start time
// (Appendix A 4.4.3; rules E3/E4). Intl only: the engine's own zone code is internal to @fleet/hos.

const formats = new Map<string, Intl.DateTimeFormat>();
function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(zone, f);
  }
  return f;
}

/** Offset of `zone` from UTC at instant `ms`, in ms (local = utc + offset), read through Intl (slow: ~5 µs). */
function exactOffsetMs(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of format(zone).formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return local - Math.floor(ms / 1000) * 1000;
}

/**
 * Offsets by zone and quarter hour of UTC: a fleet page asks the same few zones about the same days
 * thousands of times. Every time-zone change of the tz database falls on a quarter hour of UTC, so
 * a quarter hour whose first and last millisecond have the same offset has it throughout; one that
 * holds a change (or an old local mean time) is marked NaN and answered exactly each time.
 */
const QUARTER_HOUR = 15 * 60_000;
const offsets = new Map<string, Map<number, number>>();

/** Offset of `zone` from UTC at instant `ms`, in ms (local = utc + offset). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const q = Math.floor(ms / QUARTER_HOUR);
  let byQuarter = offsets.get(zone);
  if (!byQuarter) offsets.set(zone, (byQuarter = new Map()));
  let o = byQuarter.get(q);
  if (o === undefined) {
    const first = exactOffsetMs(q * QUARTER_HOUR, zone);
    o = first === exactOffsetMs(q * QUARTER_HOUR + QUARTER_HOUR - 1, zone) ? first : NaN;
    if (byQuarter.size >= 50_000) byQuarter.clear();
    byQuarter.set(q, o);
  }
  return Number.isNaN(o) ? exactOffsetMs(ms, zone) : o;
}

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The log day (YYYY-MM-DD) holding instant `ms`. */
export function logDateOf(ms: number, zone: string, periodStart: string): string {
  return new Date(ms + zoneOffsetMs(ms, zone) - minutesOf(periodStart) * 60_000).toISOString().slice(0, 10);
}

/** Local wall time in `zone` → UTC ms (the hours a DST change skips move forward, as clocks do). */
export function zonedToUtc(localMs: number, zone: string): number {
  const guess = localMs - zoneOffsetMs(localMs, zone);
  return localMs - zoneOffsetMs(guess, zone);
}

/** The instant a log day starts: local `date` at the period start time (23 or 25 h days on DST changes). */
export function dayStartMs(date: string, zone: string, periodStart: string): number {
  return zonedToUtc(Date.parse(`${date}T00:00:00Z`) + minutesOf(periodStart) * 60_000, zone);
}

/** The exact offsets, for tests comparing the quarter-hour memo with them. */
export const exactZoneOffsetMs = exactOffsetMs;

export const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
export const previousDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
export const DAY_MS = 86_400_000;
/** The UTC dates around [fromMs, toMs), a day wider each side: every log day of any zone that overlaps it. */
export const logDatesAround = (fromMs: number, toMs: number): [string, string] => [new Date(fromMs - DAY_MS).toISOString().slice(0, 10), new Date(toMs + DAY_MS).toISOString().slice(0, 10)];
