// Offsets of time zones from UTC, read through Intl (the engine's own zone code is internal to
// @fleet/hos). Owner-less: HoS log days and GPS-history imports both stand on it.

const formats = new Map<string, Intl.DateTimeFormat>();
function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
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

/** Local wall time in `zone` → UTC ms (the hours a DST change skips move forward, as clocks do). */
export function zonedToUtc(localMs: number, zone: string): number {
  const guess = localMs - zoneOffsetMs(localMs, zone);
  return localMs - zoneOffsetMs(guess, zone);
}

/** The exact offsets, for tests comparing the quarter-hour memo with them. */
export const exactZoneOffsetMs = exactOffsetMs;
