import { TZDate, tzOffset } from '@date-fns/tz';
import { HosInputError } from './errors.ts';

const DAY = 86_400_000;
const MIN = 60_000;

/**
 * Log/cycle days of one call: day k runs from starts[k] to starts[k + 1] (epoch ms), and its
 * calendar date is epoch day `firstDay + k` in the home-terminal zone.
 */
export interface DayGrid {
  starts: number[];
  firstDay: number;
}

/** Minutes after local midnight from 'HH:mm'. */
export function parseDayStart(value: string | undefined): number {
  if (value === undefined) return 0;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!m) throw new HosInputError(`cycleDayStart must be 'HH:mm', got ${JSON.stringify(value)}`, null, 'cycleDayStart');
  return Number(m[1]) * 60 + Number(m[2]);
}

/** UTC offset in minutes of `zone` at `ms` (library call: Intl time-zone data via @date-fns/tz). */
function offsetAt(zone: string, ms: number): number {
  return tzOffset(zone, new Date(ms));
}

/** Throws HosInputError unless `zone` is an IANA zone the runtime knows. */
export function checkZone(zone: string): void {
  // tzOffset also accepts '+05:00'-style offsets; the contract asks for an IANA zone name.
  if (typeof zone !== 'string' || !/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone) || Number.isNaN(offsetAt(zone, 0))) {
    throw new HosInputError(`unknown time zone ${JSON.stringify(zone)}`, null, 'timeZone');
  }
}

/** Exact start of the log day with epoch date `day` (library conversion, handles DST gaps). */
function exactStart(zone: string, day: number, startMin: number): number {
  const d = new Date(day * DAY);
  return +new TZDate(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), Math.floor(startMin / 60), startMin % 60, zone);
}

/** Start of log day `day` assuming offset `guess`, checked with one zone look-up. */
function startWithGuess(zone: string, day: number, startMin: number, guess: number): number {
  const t = day * DAY + startMin * MIN - guess * MIN;
  return offsetAt(zone, t) === guess ? t : exactStart(zone, day, startMin);
}

/**
 * The log days covering [fromMs, toMs]. Offsets come from the zone database once per week of days
 * (plus the last day); a week whose two ends have the same offset is computed arithmetically, a week
 * with a change is resolved day by day through the library. This keeps the cost at a few zone
 * look-ups per call instead of one per day (each look-up costs microseconds), which matters when a
 * whole fleet is audited every second. Zones change offset at most a few times a year, never twice
 * within a week, so sampling weekly is exact for real zones.
 */
export function buildDayGrid(zone: string, startMin: number, fromMs: number, toMs: number): DayGrid {
  const off0 = offsetAt(zone, fromMs);
  let firstDay = Math.floor((fromMs + off0 * MIN - startMin * MIN) / DAY);
  let first = startWithGuess(zone, firstDay, startMin, off0);
  if (first > fromMs) {
    firstDay -= 1;
    first = exactStart(zone, firstDay, startMin);
  }
  // Number of day starts needed so that the last one is ≥ toMs (25-hour days may need one more).
  const count = Math.max(2, Math.ceil((toMs - first) / DAY) + 2);
  const starts = new Array<number>(count);
  starts[0] = first;
  const localBase = (k: number): number => (firstDay + k) * DAY + startMin * MIN;
  let offA = Math.round((localBase(0) - first) / MIN);
  for (let a = 0; a < count - 1; ) {
    const b = Math.min(a + 7, count - 1);
    const guessB = localBase(b) - offA * MIN;
    const offB = offsetAt(zone, guessB);
    if (offB === offA) {
      for (let k = a + 1; k <= b; k++) starts[k] = localBase(k) - offA * MIN;
    } else {
      for (let k = a + 1; k <= b; k++) starts[k] = exactStart(zone, firstDay + k, startMin);
      offA = Math.round((localBase(b) - starts[b]!) / MIN);
    }
    a = b;
  }
  while (starts[starts.length - 1]! < toMs) {
    starts.push(exactStart(zone, firstDay + starts.length, startMin));
  }
  return { starts, firstDay };
}

/** Index of the day containing `ms` (starts[k] ≤ ms < starts[k + 1]); -1 before the grid. */
export function dayIndex(grid: DayGrid, ms: number): number {
  const s = grid.starts;
  let lo = 0;
  let hi = s.length - 1;
  if (ms < s[0]!) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** YYYY-MM-DD of epoch day `day`. */
export function formatDay(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}
