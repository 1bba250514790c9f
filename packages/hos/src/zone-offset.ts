import { tzOffset } from '@date-fns/tz';

const H = 3_600_000;

/**
 * Bounded memo of the pure function (zone, UTC hour) → UTC offset in minutes (decision 0013).
 * An Intl look-up costs 1-5 µs, more than judging a day of periods; every driver of a fleet
 * audited at the same moment asks for the same few hours, so nearly every look-up is a hit.
 * An hour is cached only when its first and last millisecond have the same offset: no zone changes
 * its offset twice within an hour, so the whole hour then has that offset and the memo answers
 * exactly what the library would. Hours containing a change are never cached (looked up each time).
 * At most MAX_ENTRIES hours are kept; when full, the memo starts over (it is only a speed-up).
 */
const MAX_ENTRIES = 4096;
const memo = new Map<string, Map<number, number>>();
let entries = 0;

/** Intl via @date-fns/tz: NaN for a zone the runtime does not know. */
function lookup(zone: string, ms: number): number {
  return tzOffset(zone, new Date(ms));
}

/** UTC offset in minutes of `zone` at `ms`; NaN for an unknown zone. */
export function offsetAt(zone: string, ms: number): number {
  const hour = Math.floor(ms / H);
  let byHour = memo.get(zone);
  const hit = byHour?.get(hour);
  if (hit !== undefined) return hit;
  const first = lookup(zone, hour * H);
  const last = lookup(zone, hour * H + H - 1);
  if (first !== last || Number.isNaN(first)) return lookup(zone, ms);
  if (entries >= MAX_ENTRIES) {
    memo.clear();
    dayMemo.clear();
    entries = 0;
    byHour = undefined;
  }
  if (!byHour) {
    byHour = new Map();
    memo.set(zone, byHour);
  }
  byHour.set(hour, first);
  entries++;
  return first;
}

/**
 * Exact instant at which local day `day` (epoch day) starts at `startMin` minutes in `zone`, as
 * computed by `exact` (the library's zoned date, which settles skipped and repeated local times):
 * remembered per (zone, day, start), in the same bounded memo. Day grids resolve the days around an
 * offset change this way, and every driver of a fleet asks for the same few days.
 */
const dayMemo = new Map<string, Map<number, number>>();

export function dayStart(zone: string, day: number, startMin: number, exact: (zone: string, day: number, startMin: number) => number): number {
  const key = day * 1440 + startMin;
  let byDay = dayMemo.get(zone);
  const hit = byDay?.get(key);
  if (hit !== undefined) return hit;
  const ms = exact(zone, day, startMin);
  if (Number.isNaN(ms)) return ms;
  if (entries >= MAX_ENTRIES) {
    memo.clear();
    dayMemo.clear();
    entries = 0;
    byDay = undefined;
  }
  if (!byDay) {
    byDay = new Map();
    dayMemo.set(zone, byDay);
  }
  byDay.set(key, ms);
  entries++;
  return ms;
}

/** Number of cached entries (tests check the bound). */
export function memoSize(): number {
  return entries;
}
