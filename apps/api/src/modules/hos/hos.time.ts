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

/** Offset of `zone` from UTC at instant `ms`, in ms (local = utc + offset). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of format(zone).formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return local - Math.floor(ms / 1000) * 1000;
}

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The log day (YYYY-MM-DD) holding instant `ms`. */
export function logDateOf(ms: number, zone: string, periodStart: string): string {
  return new Date(ms + zoneOffsetMs(ms, zone) - minutesOf(periodStart) * 60_000).toISOString().slice(0, 10);
}

/** The instant a log day starts: local `date` at the period start time (23 or 25 h days on DST changes). */
export function dayStartMs(date: string, zone: string, periodStart: string): number {
  const local = Date.parse(`${date}T00:00:00Z`) + minutesOf(periodStart) * 60_000;
  let guess = local - zoneOffsetMs(local, zone);
  guess = local - zoneOffsetMs(guess, zone);
  return guess;
}

export const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
export const previousDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
export const DAY_MS = 86_400_000;
/** The UTC dates around [fromMs, toMs), a day wider each side: every log day of any zone that overlaps it. */
export const logDatesAround = (fromMs: number, toMs: number): [string, string] => [new Date(fromMs - DAY_MS).toISOString().slice(0, 10), new Date(toMs + DAY_MS).toISOString().slice(0, 10)];
