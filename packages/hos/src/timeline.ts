import { HosInputError } from './errors.ts';
import { InstantReader } from './instant.ts';
import type { DutyPeriod } from './types.ts';

/** Engine categories after applying PC (→ OFF), YM (→ ON) and passenger-seat time (P19). */
export const OFF = 0;
export const SB = 1;
export const D = 2;
export const ON = 3;
const PASSENGER = 4;

const H = 3_600_000;
/** P19 / P7(D): passenger-seat time logged OFF counts as rest only next to ≥ 7 h SB, up to 3 h. */
const PASSENGER_SB_MS = 7 * H;
const PASSENGER_MAX_MS = 3 * H;

/** A maximal run of OFF/SB time. blocks[0] is virtual: the unknown time before the log, taken as rest. */
export interface RestBlock {
  start: number;
  end: number;
  len: number;
  /** Longest consecutive SB inside the block. */
  sbRun: number;
  /** Index of the first segment after the block (n if none). */
  endSeg: number;
  /** Index of the block's first segment (endSeg for the virtual block when the log starts with work). */
  startSeg: number;
}

/**
 * The log as the engine sees it: contiguous segments of one category each (adjacent segments of the
 * same category merged, so splitting a period never changes a result), prefix sums of driving and
 * on-duty time, and the rest blocks.
 */
export interface Timeline {
  n: number;
  start: number[];
  end: number[];
  cat: number[];
  /** driveBefore[i] = driving time before segment i (length n + 1). */
  driveBefore: number[];
  /** onBefore[i] = on-duty (ON + D) time before segment i (length n + 1). */
  onBefore: number[];
  blocks: RestBlock[];
}

/**
 * The input periods as validated instants, empty periods dropped and neighbours of the same engine
 * category merged (PC is OFF, YM is ON; passenger-seat time is category 4, logged OFF).
 */
export interface RawLog {
  start: number[];
  end: number[];
  cat: number[];
  hasPassenger: boolean;
}

/** The logged status (0 OFF, 1 SB, 2 D, 3 ON) of a raw category. */
export function loggedStatus(c: number): number {
  return c === PASSENGER ? OFF : c;
}

function statusOf(s: unknown): number {
  return s === 'D' ? D : s === 'ON' ? ON : s === 'OFF' ? OFF : s === 'SB' ? SB : -1;
}

/** Validates and parses the periods; throws HosInputError naming the first bad period. */
export function parseLog(periods: readonly DutyPeriod[]): RawLog {
  if (!Array.isArray(periods)) throw new HosInputError('periods must be an array');
  const n = periods.length;
  const start: number[] = [];
  const end: number[] = [];
  const cat: number[] = [];
  let m = 0;
  let prevStart = NaN;
  let hasPassenger = false;
  let prevEndText = '';
  let prevEnd = NaN;
  const reader = new InstantReader();
  for (let i = 0; i < n; i++) {
    const p = periods[i];
    if (p === null || typeof p !== 'object') throw new HosInputError('not a duty period', i);
    const st = statusOf(p.status);
    if (st < 0) throw new HosInputError(`unknown status ${JSON.stringify(p.status)}`, i, 'status');
    let c = st;
    if (p.special !== undefined) {
      if (p.special === 'PC' && st === OFF) c = OFF;
      else if (p.special === 'YM' && st === ON) c = ON;
      else if (p.special === 'PASSENGER' && st === OFF) {
        c = PASSENGER;
        hasPassenger = true;
      } else {
        throw new HosInputError(`special ${JSON.stringify(p.special)} is not allowed with status ${p.status} (PC and PASSENGER are OFF, YM is ON)`, i, 'special');
      }
    }
    // Consecutive periods usually share the boundary string: parse it once.
    const s = typeof p.start === 'string' && p.start === prevEndText ? prevEnd : reader.read(String(p.start));
    if (Number.isNaN(s)) throw new HosInputError(`start ${JSON.stringify(p.start)} is not an ISO-8601 instant with offset or Z`, i, 'start');
    const e = reader.read(String(p.end));
    if (Number.isNaN(e)) throw new HosInputError(`end ${JSON.stringify(p.end)} is not an ISO-8601 instant with offset or Z`, i, 'end');
    if (e < s) throw new HosInputError('end is before start', i, 'end');
    if (i > 0) {
      if (s < prevEnd) {
        throw new HosInputError(s < prevStart ? 'periods are not sorted by start' : 'period overlaps the previous one', i, 'start');
      }
      if (s > prevEnd) throw new HosInputError('gap before this period: periods must be contiguous', i, 'start');
    }
    if (e > s) {
      if (m > 0 && cat[m - 1] === c) {
        end[m - 1] = e;
      } else {
        start.push(s);
        end.push(e);
        cat.push(c);
        m++;
      }
    }
    prevStart = s;
    prevEnd = e;
    prevEndText = p.end;
  }
  return { start, end, cat, hasPassenger };
}

/** Drops empty periods and merges neighbours of the same category. */
function merge(start: number[], end: number[], cat: number[]): { start: number[]; end: number[]; cat: number[] } {
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
function resolvePassenger(log: { start: number[]; end: number[]; cat: number[] }): { start: number[]; end: number[]; cat: number[] } {
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

/** Builds the engine's timeline from a parsed log, optionally cut at `cutAt` (clocksAt). */
export function buildTimeline(raw: RawLog, cutAt?: number): Timeline {
  let rs = raw.start;
  let re = raw.end;
  let rc = raw.cat;
  if (cutAt !== undefined) {
    let k = 0;
    while (k < rs.length && rs[k]! < cutAt) k++;
    rs = rs.slice(0, k);
    re = re.slice(0, k);
    rc = rc.slice(0, k);
    if (k > 0 && re[k - 1]! > cutAt) re[k - 1] = cutAt;
    // Time after the last recorded period and before `cutAt` has no recorded work: taken as off duty.
    if (k > 0 && re[k - 1]! < cutAt) {
      if (rc[k - 1] === OFF) {
        re[k - 1] = cutAt;
      } else {
        rs.push(re[k - 1]!);
        re.push(cutAt);
        rc.push(OFF);
      }
    }
  }
  // parseLog already merged neighbours; only passenger resolution can create new ones.
  let seg = { start: rs, end: re, cat: rc };
  if (raw.hasPassenger) seg = resolvePassenger(seg);
  const { start, end, cat } = seg;
  const n = start.length;
  const driveBefore = new Array<number>(n + 1);
  const onBefore = new Array<number>(n + 1);
  driveBefore[0] = 0;
  onBefore[0] = 0;
  const blocks: RestBlock[] = [];
  // Virtual block: before the log the driver is taken as rested (nothing recorded, nothing owed).
  let cur: RestBlock = { start: -Infinity, end: n > 0 ? start[0]! : 0, len: Infinity, sbRun: 0, endSeg: 0, startSeg: 0 };
  let open = true;
  for (let i = 0; i < n; i++) {
    const c = cat[i]!;
    const len = end[i]! - start[i]!;
    driveBefore[i + 1] = driveBefore[i]! + (c === D ? len : 0);
    onBefore[i + 1] = onBefore[i]! + (c === D || c === ON ? len : 0);
    if (c === OFF || c === SB) {
      if (!open) {
        cur = { start: start[i]!, end: end[i]!, len: 0, sbRun: 0, endSeg: i + 1, startSeg: i };
        open = true;
      }
      cur.end = end[i]!;
      cur.endSeg = i + 1;
      if (cur.start !== -Infinity) cur.len = cur.end - cur.start;
      // Consecutive SB: merged segments alternate categories, so one SB segment is one SB run.
      if (c === SB && len > cur.sbRun) cur.sbRun = len;
    } else if (open) {
      blocks.push(cur);
      open = false;
    }
  }
  if (open) blocks.push(cur);
  return { n, start, end, cat, driveBefore, onBefore, blocks };
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
