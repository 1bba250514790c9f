import { HosInputError } from './errors.ts';
import { parseInstant } from './instant.ts';
import { begin, note, recalled, record } from './log-memo.ts';
import type { Workspace } from './workspace.ts';
import type { DutyPeriodInput } from './types.ts';
import type { RawLog } from './raw-log.ts';

/** Engine categories after applying PC (→ OFF), YM (→ ON) and passenger-seat time (P19). */
export const OFF = 0;
export const SB = 1;
export const D = 2;
export const ON = 3;
const PASSENGER = 4;
/** §395.1(d)(2): waiting time at an oil or gas well site, logged OFF (special WAITING). */
const WAIT = 5;

const H = 3_600_000;
/** P19 / P7(D): passenger-seat time logged OFF counts as rest only next to ≥ 7 h SB, up to 3 h. */
const PASSENGER_SB_MS = 7 * H;
const PASSENGER_MAX_MS = 3 * H;

/**
 * The log as the engine sees it: contiguous segments of one category each (adjacent segments of the
 * same category merged, so splitting a period never changes a result), prefix sums of driving and
 * on-duty time, and the rest blocks. Typed arrays: no object per segment (an audit of a fleet reads
 * millions of them). The arrays may be longer than n; only the first n entries are the log.
 */
export interface Timeline {
  n: number;
  start: Float64Array;
  end: Float64Array;
  cat: Uint8Array;
  /** driveBefore[i] = driving time before segment i (length n + 1). */
  driveBefore: Float64Array;
  /** onBefore[i] = on-duty (ON + D) time before segment i (length n + 1). */
  onBefore: Float64Array;
  /**
   * Rest blocks, by index 0..nb-1: maximal runs of OFF/SB time. Block 0 is virtual: the unknown time
   * before the log, taken as rest (start −∞, length ∞). Arrays, not objects: no allocation per block.
   */
  nb: number;
  bStart: Float64Array;
  bEnd: Float64Array;
  bLen: Float64Array;
  /** Longest consecutive SB inside the block. */
  bSb: Float64Array;
  /** Index of the block's first segment (bNext for the virtual block when the log starts with work). */
  bFirst: Float64Array;
  /** Index of the first segment after the block (n if none). */
  bNext: Float64Array;
  /**
   * §395.1(d)(2), only when the oilfield exemption is claimed: waitBefore[i] = waiting time at a
   * well site before segment i (length n + 1), the time the 14-hour window does not count. Null
   * otherwise (waiting time is then plain off-duty time).
   */
  waitBefore: Float64Array | null;
  /** With waitBefore: block ends less the waiting before them, block lengths less the waiting inside. */
  wEnd: Float64Array | null;
  wLen: Float64Array | null;
}

/** The logged status (0 OFF, 1 SB, 2 D, 3 ON) of a raw category. */
export function loggedStatus(c: number): number {
  return c === PASSENGER || c === WAIT ? OFF : c;
}

/**
 * An instant field of a period: epoch milliseconds as they are (a finite number), or ISO text;
 * String() keeps accepting what it always accepted (e.g. String objects).
 */
export function readInstant(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  return parseInstant(typeof v === 'string' ? v : String(v));
}

/** Validates and parses the periods; throws HosInputError naming the first bad period. */
export function parseLog(periods: readonly DutyPeriodInput[], ws: Workspace): RawLog {
  if (!Array.isArray(periods)) throw new HosInputError('periods must be an array');
  const known = recalled(periods);
  if (known) return known;
  const n = periods.length;
  const token = begin(n);
  const start = ws.f64(n);
  const end = ws.f64(n);
  const cat = ws.u8(n);
  let m = 0;
  let last = -1;
  let prevStart = NaN;
  let hasPassenger = false;
  let prevEndText: unknown = undefined;
  let prevEnd = NaN;
  for (let i = 0; i < n; i++) {
    const p = periods[i];
    if (p === null || typeof p !== 'object') throw new HosInputError('not a duty period', i);
    const status = p.status;
    let c = status === 'D' ? D : status === 'ON' ? ON : status === 'OFF' ? OFF : status === 'SB' ? SB : -1;
    if (c < 0) throw new HosInputError(`unknown status ${JSON.stringify(status)}`, i, 'status');
    const special = p.special;
    if (special !== undefined) {
      if (special === 'PC' && c === OFF) c = OFF;
      else if (special === 'YM' && c === ON) c = ON;
      else if (special === 'PASSENGER' && c === OFF) {
        c = PASSENGER;
        hasPassenger = true;
      } else if (special === 'WAITING' && c === OFF) {
        c = WAIT;
      } else {
        throw new HosInputError(
          `special ${JSON.stringify(special)} is not allowed with status ${status} (PC, PASSENGER and WAITING are OFF, YM is ON)`,
          i,
          'special',
        );
      }
    }
    // Periods are contiguous, so a start is usually the previous end's very text: parse it once.
    const startText = p.start;
    const s = i > 0 && (typeof startText === 'string' || typeof startText === 'number') && startText === prevEndText ? prevEnd : readInstant(startText);
    if (s !== s) throw new HosInputError(`start ${JSON.stringify(startText)} is not an ISO-8601 instant with offset or Z (or epoch milliseconds)`, i, 'start');
    const endText = p.end;
    const e = readInstant(endText);
    if (e !== e) throw new HosInputError(`end ${JSON.stringify(endText)} is not an ISO-8601 instant with offset or Z (or epoch milliseconds)`, i, 'end');
    if (e < s) throw new HosInputError('end is before start', i, 'end');
    if (i > 0 && s !== prevEnd) {
      if (s < prevEnd) throw new HosInputError(s < prevStart ? 'periods are not sorted by start' : 'period overlaps the previous one', i, 'start');
      throw new HosInputError('gap before this period: periods must be contiguous', i, 'start');
    }
    if (e > s) {
      if (last >= 0 && cat[last] === c) {
        end[last] = e;
      } else {
        last = m++;
        start[last] = s;
        end[last] = e;
        cat[last] = c;
      }
    }
    prevStart = s;
    prevEnd = e;
    prevEndText = endText;
    note(token, i, startText, endText, status, special);
  }
  const raw: RawLog = { n: m, start, end, cat, hasPassenger };
  record(token, n, raw);
  return raw;
}

/** Segments as growable lists (only the rare passenger-seat path uses them). */
interface SegList {
  start: number[];
  end: number[];
  cat: number[];
}

/** Drops empty periods and merges neighbours of the same category. */
function merge(start: number[], end: number[], cat: number[]): SegList {
  const s: number[] = [];
  const e: number[] = [];
  const c: number[] = [];
  let m = 0;
  for (let i = 0; i < start.length; i++) {
    const a = start[i]!;
    const b = end[i]!;
    if (b <= a) continue;
    if (m > 0 && c[m - 1] === cat[i]) {
      e[m - 1] = b;
    } else {
      s.push(a);
      e.push(b);
      c.push(cat[i]!);
      m++;
    }
  }
  return { start: s, end: e, cat: c };
}

/**
 * P19: passenger-seat time right before or after ≥ 7 consecutive h SB counts as rest for up to 3 h
 * on each side of the berth period; the rest of it is on duty (D1).
 */
function resolvePassenger(log: SegList): SegList {
  const { start, end, cat } = log;
  const s: number[] = [];
  const e: number[] = [];
  const c: number[] = [];
  const push = (a: number, b: number, k: number): void => {
    s.push(a);
    e.push(b);
    c.push(k);
  };
  for (let i = 0; i < start.length; i++) {
    const a = start[i]!;
    const b = end[i]!;
    if (cat[i] !== PASSENGER) {
      push(a, b, cat[i]!);
      continue;
    }
    const sbBefore = i > 0 && cat[i - 1] === SB && end[i - 1]! - start[i - 1]! >= PASSENGER_SB_MS;
    const sbAfter = i + 1 < start.length && cat[i + 1] === SB && end[i + 1]! - start[i + 1]! >= PASSENGER_SB_MS;
    const head = sbBefore ? Math.min(PASSENGER_MAX_MS, b - a) : 0;
    const tail = sbAfter ? Math.min(PASSENGER_MAX_MS, b - a - head) : 0;
    if (head > 0) push(a, a + head, OFF);
    if (b - tail > a + head) push(a + head, b - tail, ON);
    if (tail > 0) push(b - tail, b, OFF);
  }
  return merge(s, e, c);
}

/**
 * Builds the engine's timeline from a parsed log, optionally cut at `cutAt` (clocksAt). With
 * `waiting` (the oilfield exemption, §395.1(d)(2)) the well-site waiting time is summed in
 * waitBefore; either way it is off-duty rest.
 */
export function buildTimeline(raw: RawLog, ws: Workspace, cutAt?: number, waiting = false): Timeline {
  let n = raw.n;
  let start = raw.start;
  let end = raw.end;
  let cat = raw.cat;
  if (cutAt !== undefined) {
    // Segments starting before `cutAt`, copied (the raw log is shared and stays untouched).
    let k = n;
    while (k > 0 && raw.start[k - 1]! >= cutAt) k--;
    start = ws.f64(k + 1);
    end = ws.f64(k + 1);
    cat = ws.u8(k + 1);
    for (let i = 0; i < k; i++) {
      start[i] = raw.start[i]!;
      end[i] = raw.end[i]!;
      cat[i] = raw.cat[i]!;
    }
    n = k;
    if (k > 0 && end[k - 1]! > cutAt) end[k - 1] = cutAt;
    // Time after the last recorded period and before `cutAt` has no recorded work: taken as off duty.
    if (k > 0 && end[k - 1]! < cutAt) {
      if (cat[k - 1] === OFF) {
        end[k - 1] = cutAt;
      } else {
        start[k] = end[k - 1]!;
        end[k] = cutAt;
        cat[k] = OFF;
        n = k + 1;
      }
    }
  }
  // parseLog already merged neighbours; only passenger resolution can create new ones.
  if (raw.hasPassenger) {
    const seg = resolvePassenger({ start: Array.from(start.subarray(0, n)), end: Array.from(end.subarray(0, n)), cat: Array.from(cat.subarray(0, n)) });
    start = Float64Array.from(seg.start);
    end = Float64Array.from(seg.end);
    cat = Uint8Array.from(seg.cat);
    n = seg.start.length;
  }
  const driveBefore = ws.f64(n + 1);
  const onBefore = ws.f64(n + 1);
  driveBefore[0] = 0;
  onBefore[0] = 0;
  const cap = n + 2;
  const bStart = ws.f64(cap);
  const bEnd = ws.f64(cap);
  const bLen = ws.f64(cap);
  const bSb = ws.f64(cap);
  const bFirst = ws.f64(cap);
  const bNext = ws.f64(cap);
  // Virtual block: before the log the driver is taken as rested (nothing recorded, nothing owed).
  bStart[0] = -Infinity;
  bEnd[0] = n > 0 ? start[0]! : 0;
  bLen[0] = Infinity;
  bSb[0] = 0;
  bFirst[0] = 0;
  bNext[0] = 0;
  let cur = 0;
  let nb = 0;
  let open = true;
  let drive = 0;
  let on = 0;
  for (let i = 0; i < n; i++) {
    const c = cat[i]!;
    const a = start[i]!;
    const b = end[i]!;
    const len = b - a;
    if (c === D || c === ON) {
      drive += c === D ? len : 0;
      on += len;
      if (open) {
        nb = cur + 1;
        open = false;
      }
    } else {
      if (!open) {
        cur = nb;
        bStart[cur] = a;
        bLen[cur] = 0;
        bSb[cur] = 0;
        bFirst[cur] = i;
        open = true;
      }
      bEnd[cur] = b;
      bNext[cur] = i + 1;
      if (cur > 0) bLen[cur] = b - bStart[cur]!;
      // Consecutive SB: merged segments alternate categories, so one SB segment is one SB run.
      if (c === SB && len > bSb[cur]!) bSb[cur] = len;
    }
    driveBefore[i + 1] = drive;
    onBefore[i + 1] = on;
  }
  if (open) nb = cur + 1;
  let waitBefore: Float64Array | null = null;
  let wEnd: Float64Array | null = null;
  let wLen: Float64Array | null = null;
  if (waiting) {
    waitBefore = ws.f64(n + 1);
    let w = 0;
    for (let i = 0; i < n; i++) {
      waitBefore[i] = w;
      if (cat[i] === WAIT) w += end[i]! - start[i]!;
    }
    waitBefore[n] = w;
    wEnd = ws.f64(nb);
    wLen = ws.f64(nb);
    for (let k = 0; k < nb; k++) {
      const after = waitBefore[bNext[k]!]!;
      wEnd[k] = bEnd[k]! - after;
      wLen[k] = bLen[k]! - (after - waitBefore[bFirst[k]!]!);
    }
  }
  return { n, start, end, cat, driveBefore, onBefore, nb, bStart, bEnd, bLen, bSb, bFirst, bNext, waitBefore, wEnd, wLen };
}

/** Index of the segment containing `ms` (-1 before the log, n after it). */
function segAt(tl: Timeline, ms: number): number {
  const { start, end, n } = tl;
  if (n === 0 || ms <= start[0]!) return -1;
  if (ms >= end[n - 1]!) return n;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** On-duty (ON + D) time before instant `ms` (0 before the log). */
export function onAt(tl: Timeline, ms: number): number {
  const i = segAt(tl, ms);
  if (i < 0) return 0;
  if (i >= tl.n) return tl.onBefore[tl.n]!;
  const c = tl.cat[i]!;
  return tl.onBefore[i]! + (c === D || c === ON ? ms - tl.start[i]! : 0);
}

/** Driving time before instant `ms` (0 before the log). */
export function driveAt(tl: Timeline, ms: number): number {
  const i = segAt(tl, ms);
  if (i < 0) return 0;
  if (i >= tl.n) return tl.driveBefore[tl.n]!;
  return tl.driveBefore[i]! + (tl.cat[i] === D ? ms - tl.start[i]! : 0);
}
