/**
 * Pure geometry of the 24-hour graph grid (record of duty status, hos-rules.md 2.5): where an instant
 * falls on the grid, the duty line, the row totals and the length of a log day. No React, no DOM.
 */

const MIN = 60_000;
const HOUR = 3_600_000;
const QUARTER = 15 * MIN;

/** Logged duty status, in grid row order: off duty, sleeper berth, driving, on duty (not driving). */
export type DutyStatus = 'OFF' | 'SB' | 'D' | 'ON';
/** Special driving condition: personal conveyance (drawn on the OFF row) or yard moves (ON row). */
export type SpecialCondition = 'PC' | 'YM';

/** Grid rows top to bottom (hos-rules.md 2.5). */
export const ROWS: readonly DutyStatus[] = ['OFF', 'SB', 'D', 'ON'];

/** One log day: `start` is an ISO instant; `lengthMs` is 24 h, or 23 h / 25 h on daylight-saving days. */
export interface LogDay {
  /** Calendar date of the day in the home-terminal zone, YYYY-MM-DD. */
  date: string;
  start: string;
  lengthMs: number;
}

/** One duty-status period; start and end are ISO instants (parts outside the day are clipped). */
export interface DutySegment {
  status: DutyStatus;
  special?: SpecialCondition;
  start: string;
  end: string;
}

/** A violation interval (the time driven over a limit), drawn on the Driving row. */
export interface GridViolation {
  start: string;
  end: string;
  /** Rule code, e.g. DRIVING_LIMIT. */
  rule: string;
  /** Severity code, e.g. NOMINAL, VIOLATION, EGREGIOUS. */
  severity: string;
}

/** A segment in day time: ms after the day's start, inside [0, visible end]. */
export interface DaySpan {
  status: DutyStatus;
  special?: SpecialCondition;
  from: number;
  to: number;
}

/** Milliseconds since the epoch of an ISO instant, a Date or epoch ms; NaN when unreadable. */
export function toMs(value: string | number | Date): number {
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime();
  return Date.parse(value);
}

/**
 * The part of the day that can carry a line: the whole day, or up to `now` on a live day
 * (0 when `now` is before the day, the whole day when it is after).
 */
export function visibleEnd(day: LogDay, now?: string | number | Date): number {
  if (now === undefined) return day.lengthMs;
  const t = toMs(now) - toMs(day.start);
  if (Number.isNaN(t)) return day.lengthMs;
  return Math.min(day.lengthMs, Math.max(0, t));
}

/**
 * The segments in day time, clipped to the day (and to `now` on a live day), sorted by start;
 * empty or unreadable segments are dropped.
 */
export function clipSegments(day: LogDay, segments: readonly DutySegment[], now?: string | number | Date): DaySpan[] {
  const origin = toMs(day.start);
  const end = visibleEnd(day, now);
  const out: DaySpan[] = [];
  for (const s of segments) {
    const from = Math.max(0, toMs(s.start) - origin);
    const to = Math.min(end, toMs(s.end) - origin);
    if (!(to > from)) continue; // also drops NaN
    out.push(s.special ? { status: s.status, special: s.special, from, to } : { status: s.status, from, to });
  }
  return out.sort((a, b) => a.from - b.from || a.to - b.to);
}

/** A violation in day time, clipped to the day. */
export interface DayViolation extends GridViolation {
  from: number;
  to: number;
}

/** The violations that overlap the day, clipped to it, sorted by start. */
export function clipViolations(day: LogDay, violations: readonly GridViolation[]): DayViolation[] {
  const origin = toMs(day.start);
  const out: DayViolation[] = [];
  for (const v of violations) {
    const from = Math.max(0, toMs(v.start) - origin);
    const to = Math.min(day.lengthMs, toMs(v.end) - origin);
    if (to > from) out.push({ ...v, from, to });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** The horizontal scale of the plot: day time [0, lengthMs] onto pixels [left, left + width]. */
export interface GridScale {
  lengthMs: number;
  left: number;
  width: number;
  /** Top of the first row and the height of each row. */
  top: number;
  rowHeight: number;
}

/** x of a time of the day (ms after its start), clamped to the plot. */
export function xOf(offsetMs: number, scale: GridScale): number {
  const f = Math.min(1, Math.max(0, offsetMs / scale.lengthMs));
  return scale.left + f * scale.width;
}

/** x of an instant on the grid of `day`. */
export function xOfInstant(instant: string | number | Date, day: LogDay, scale: GridScale): number {
  return xOf(toMs(instant) - toMs(day.start), scale);
}

/** y of the middle of a status row. */
export function yOf(status: DutyStatus, scale: GridScale): number {
  return scale.top + (ROWS.indexOf(status) + 0.5) * scale.rowHeight;
}

export type Point = readonly [x: number, y: number];
/** How a run of the duty line is stroked: solid, or the distinct dash of PC or YM. */
export type LineStyle = 'solid' | SpecialCondition;
export interface LineRun {
  style: LineStyle;
  points: Point[];
}

/**
 * The duty line as polylines: a horizontal stroke in the row of each segment and a vertical
 * connector at each change of row. PC and YM strokes are their own runs (dashed); connectors are
 * solid; adjacent runs of one style are joined. A gap between segments breaks the line.
 */
export function dutyLine(spans: readonly DaySpan[], scale: GridScale): LineRun[] {
  const pieces: LineRun[] = [];
  spans.forEach((s, i) => {
    const y = yOf(s.status, scale);
    const x0 = xOf(s.from, scale);
    const x1 = xOf(s.to, scale);
    pieces.push({
      style: s.special ?? 'solid',
      points: [
        [x0, y],
        [x1, y],
      ],
    });
    const next = spans[i + 1];
    if (next && next.from === s.to) {
      const y2 = yOf(next.status, scale);
      if (y2 !== y)
        pieces.push({
          style: 'solid',
          points: [
            [x1, y],
            [x1, y2],
          ],
        });
    }
  });
  const runs: LineRun[] = [];
  for (const p of pieces) {
    const last = runs[runs.length - 1];
    const tail = last?.points[last.points.length - 1];
    const head = p.points[0]!;
    if (last && tail && last.style === p.style && tail[0] === head[0] && tail[1] === head[1]) {
      // Same style and continuous: extend the run (a straight continuation replaces its end point).
      const before = last.points[last.points.length - 2];
      const end = p.points[1]!;
      const collinear = before && ((before[1] === tail[1] && tail[1] === end[1]) || (before[0] === tail[0] && tail[0] === end[0]));
      if (collinear) last.points[last.points.length - 1] = end;
      else last.points.push(end);
    } else {
      runs.push({ style: p.style, points: [...p.points] });
    }
  }
  return runs;
}

/** SVG `points` attribute of a run. */
export function pointsAttr(points: readonly Point[]): string {
  return points.map(([x, y]) => `${round2(x)},${round2(y)}`).join(' ');
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export type RowTotals = Record<DutyStatus, number>;

/** Exact time per row in ms (PC counts on the OFF row, YM on the ON row, as drawn). */
export function rowTotals(spans: readonly DaySpan[]): RowTotals {
  const t: RowTotals = { OFF: 0, SB: 0, D: 0, ON: 0 };
  for (const s of spans) t[s.status] += s.to - s.from;
  return t;
}

/**
 * Row totals in whole minutes that add up exactly to the rounded sum of the exact totals (the day's
 * length when the segments cover it): each row gets its whole minutes, and the minutes left over go
 * one each to the rows with the largest remainders (ties: the upper row first). A row with no time
 * never gets a minute.
 */
export function roundedTotals(totals: RowTotals): RowTotals {
  const exact = ROWS.map((r) => totals[r] / MIN);
  const floors = exact.map(Math.floor);
  const target = Math.round(exact.reduce((a, b) => a + b, 0));
  let left = target - floors.reduce((a, b) => a + b, 0);
  const order = ROWS.map((_, i) => i).sort((a, b) => exact[b]! - floors[b]! - (exact[a]! - floors[a]!) || a - b);
  const out = [...floors];
  for (const i of order) {
    if (left <= 0) break;
    if (exact[i]! - floors[i]! > 0) {
      out[i]! += 1;
      left -= 1;
    }
  }
  return { OFF: out[0]!, SB: out[1]!, D: out[2]!, ON: out[3]! };
}

/** Minutes as h:mm (e.g. 615 → "10:15", 1440 → "24:00"). */
export function formatHm(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

/** One quarter-hour tick: its time of day and kind (hour lines span the rows, half-hour ticks are taller). */
export interface Tick {
  offset: number;
  kind: 'hour' | 'half' | 'quarter';
}

/** Every 15-minute mark from the day's start to its end, both included. */
export function ticks(lengthMs: number): Tick[] {
  const out: Tick[] = [];
  for (let q = 0; q * QUARTER <= lengthMs; q++) {
    out.push({ offset: q * QUARTER, kind: q % 4 === 0 ? 'hour' : q % 2 === 0 ? 'half' : 'quarter' });
  }
  return out;
}

/** Name of a clock hour on the grid: Mid, 1 … 11, Noon, 1 … 11. */
export function hourName(hour24: number): string {
  const h = ((hour24 % 24) + 24) % 24;
  if (h === 0) return 'Mid';
  if (h === 12) return 'Noon';
  return String(h % 12);
}

/**
 * The hour labels of a day: one per elapsed hour from the start to the end, named by the local
 * clock hour in `timeZone` (so a 23-hour day skips a name and a 25-hour day repeats one); without a
 * zone, hours are counted from the start as if it were midnight.
 */
export function hourLabels(day: LogDay, timeZone?: string): HourLabel[] {
  const origin = toMs(day.start);
  const out: HourLabel[] = [];
  for (let k = 0; k * HOUR <= day.lengthMs; k++) {
    const hour = timeZone ? localParts(origin + k * HOUR, timeZone).hour : k % 24;
    out.push({ offset: k * HOUR, hour, label: hourName(hour) });
  }
  return out;
}

export interface HourLabel {
  offset: number;
  /** Local clock hour 0-23. */
  hour: number;
  label: string;
}

/**
 * The labels to print when only every `step`-th hour fits: those whose clock hour is a multiple of
 * the step (Mid and Noon always are for steps 2 and 3), the first of a repeated hour, so a repeated
 * or skipped daylight-saving hour never crowds its neighbour. Step 1 keeps them all.
 */
export function sparseHourLabels(labels: readonly HourLabel[], step: number): HourLabel[] {
  if (step <= 1) return [...labels];
  return labels.filter((l, i) => l.hour % step === 0 && !(i > 0 && labels[i - 1]!.hour === l.hour));
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock fields of an instant in an IANA zone (one cached formatter per zone). */
export function localParts(ms: number, timeZone: string): LocalParts {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour! % 24, minute: p.minute! };
}

/** Offset of a zone from UTC at an instant, in ms (whole minutes). */
function offsetMs(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(ms / MIN) * MIN;
}

/**
 * The instant a wall-clock time of a date occurs in a zone. A time skipped by a daylight-saving
 * jump is read with the offset from before the jump (02:30 on a spring-forward night is 03:30, as
 * `Date` does); a repeated time is its first occurrence.
 */
export function zonedInstant(date: string, minutesAfterMidnight: number, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + minutesAfterMidnight * MIN;
  const first = wall - offsetMs(wall, timeZone);
  const second = wall - offsetMs(first, timeZone);
  if (second === first) return first;
  // The offsets before and after a change disagree: the later candidate is after the jump.
  return Math.max(first, second);
}

/**
 * The log day of `date` in a home-terminal zone, starting at `startMinutes` after local midnight
 * (the carrier's 24-hour period starting time): 24 h long, 23 h or 25 h on daylight-saving days.
 */
export function logDay(date: string, timeZone: string, startMinutes = 0): LogDay {
  const start = zonedInstant(date, startMinutes, timeZone);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const end = zonedInstant(next, startMinutes, timeZone);
  return { date, start: new Date(start).toISOString(), lengthMs: end - start };
}
