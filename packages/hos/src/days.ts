import { TZDate } from '@date-fns/tz';
import { HosInputError } from './errors.ts';
import { dayStart, offsetAt } from './zone-offset.ts';

const DAY = 86_400_000;
const H = 3_600_000;
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

/**
 * Throws HosInputError unless `zone` looks like an IANA zone name; whether the runtime knows it is
 * checked by the first zone look-up (buildDayGrid), or here with `lookup` when no grid is built.
 */
export function checkZone(zone: string, lookup = false): void {
  // tzOffset also accepts '+05:00'-style offsets; the contract asks for an IANA zone name.
  if (typeof zone !== 'string' || !/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) {
    throw new HosInputError(`unknown time zone ${JSON.stringify(zone)}`, null, 'timeZone');
  }
  if (lookup && Number.isNaN(offsetAt(zone, 0))) throw new HosInputError(`unknown time zone ${JSON.stringify(zone)}`, null, 'timeZone');
}

/** Exact start of the log day with epoch date `day` (library conversion, handles DST gaps), memoised. */
function exactStart(zone: string, day: number, startMin: number): number {
  return dayStart(zone, day, startMin, convert);
}

function convert(zone: string, day: number, startMin: number): number {
  const d = new Date(day * DAY);
  return +new TZDate(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), Math.floor(startMin / 60), startMin % 60, zone);
}

/**
 * Days between two zone look-ups. Real zones never change offset twice (and back) within 14 days:
 * the closest pairs are DST suspensions around Ramadan (Morocco), about a month apart.
 */
const SAMPLE_DAYS = 14;

/**
 * The log days covering [fromMs, toMs]. Offsets come from the zone database (Intl, through
 * @date-fns/tz) at the first day and every SAMPLE_DAYS days after it plus the last day; a stretch
 * whose two ends have the same offset is computed arithmetically, a stretch with a change is
 * resolved day by day through the library. This keeps an 8-day log at three zone look-ups per call
 * instead of one per day (each costs 1-3 µs), which matters when a whole fleet is audited every second;
 * both the look-ups and the exact day starts go through the bounded memo of zone-offset.ts (0013).
 */
export function buildDayGrid(zone: string, startMin: number, fromMs: number, toMs: number): DayGrid {
  // First look-up a little more than a day before `fromMs`, i.e. before the first day start.
  let off = offsetAt(zone, fromMs - 26 * H);
  if (Number.isNaN(off)) throw new HosInputError(`unknown time zone ${JSON.stringify(zone)}`, null, 'timeZone');
  const firstDay = Math.floor((fromMs + off * MIN - startMin * MIN) / DAY);
  // Number of day starts needed so that the last one is ≥ toMs (25-hour days may need one more).
  const count = Math.max(2, Math.ceil((toMs - (localBase(firstDay, 0, startMin) - off * MIN)) / DAY) + 2);
  const starts = new Array<number>(count);
  let done = -1;
  while (done < count - 1) {
    const b = Math.min(done + SAMPLE_DAYS, count - 1);
    // Looked up 3 h after the stretch's last day start, so that a change just after a day start
    // (which makes the local start time ambiguous or skipped) is seen and resolved exactly.
    const offB = offsetAt(zone, localBase(firstDay, b, startMin) - off * MIN + 3 * H);
    if (offB === off) {
      for (let k = done + 1; k <= b; k++) starts[k] = localBase(firstDay, k, startMin) - off * MIN;
    } else {
      for (let k = done + 1; k <= b; k++) starts[k] = exactStart(zone, firstDay + k, startMin);
      off = Math.round((localBase(firstDay, b, startMin) - starts[b]!) / MIN);
    }
    done = b;
  }
  // The first guess used the offset before a change: the first day may be one too early...
  let shift = 0;
  while (shift + 2 < starts.length && starts[shift + 1]! <= fromMs) shift++;
  if (shift > 0) {
    starts.splice(0, shift);
    return extendTo({ starts, firstDay: firstDay + shift }, zone, startMin, toMs);
  }
  // ... or one too late.
  if (starts[0]! > fromMs) {
    // A change between the look-up and the first day start moved the day: resolve every day.
    return exactGrid(zone, startMin, firstDay - 1, count + 1);
  }
  return extendTo({ starts, firstDay }, zone, startMin, toMs);
}

/** Local (wall-clock as if UTC) start of day k of a grid whose first day is `firstDay`. */
function localBase(firstDay: number, k: number, startMin: number): number {
  return (firstDay + k) * DAY + startMin * MIN;
}

/** Adds exact day starts until the last one is at or after `toMs`. */
function extendTo(grid: DayGrid, zone: string, startMin: number, toMs: number): DayGrid {
  const { starts, firstDay } = grid;
  while (starts[starts.length - 1]! < toMs) starts.push(exactStart(zone, firstDay + starts.length, startMin));
  return grid;
}

function exactGrid(zone: string, startMin: number, firstDay: number, count: number): DayGrid {
  return { starts: Array.from({ length: count }, (_, k) => exactStart(zone, firstDay + k, startMin)), firstDay };
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
