import { splitPair, type BorderCrossing, type SegmentFlag, type TrackFix } from '@fleet/geo/ifta';
import { dayStartMs, logDateOf, nextDate } from '../hos/index.ts';

// Pure: a vehicle's fixes folded into per-day distance records (decision 0120), the days of the
// carrier's base-jurisdiction zone (issue 46, decision 0189: a Chicago carrier's evening of
// December 31 is in Q4). Ingest's rounds feed it the new fixes after the vehicle's last counted
// one; a late fix's days are recomputed with it from the stored fixes. Same fixes, same records,
// either way.

export const DAY_MS = 86_400_000;
let memoDay = NaN;
let memoText = '';
/** The UTC day of an instant, YYYY-MM-DD; consecutive fixes share a day, so the last one is remembered (toISOString was 4 µs a fix). */
export function utcDay(ms: number): string {
  const n = Math.floor(ms / DAY_MS);
  if (n !== memoDay) {
    memoDay = n;
    memoText = new Date(n * DAY_MS).toISOString().slice(0, 10);
  }
  return memoText;
}
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The calendar of one zone: the day of an instant and the instant a day starts (days of 23 or 25 hours at DST changes). */
export interface DayClock {
  zone: string;
  dayOf(ms: number): string;
  startOf(day: string): number;
}

/** UTC days (decision 0120's, and the default). */
export const UTC_CLOCK: DayClock = { zone: 'UTC', dayOf: utcDay, startOf: dayStart };

/** The calendar of a zone, remembering the last day's bounds (consecutive fixes share a day). */
export function dayClock(zone: string): DayClock {
  if (zone === 'UTC' || zone === 'Etc/UTC') return UTC_CLOCK;
  let start = Infinity;
  let end = -Infinity;
  let day = '';
  const startOf = (d: string) => dayStartMs(d, zone, '00:00');
  return {
    zone,
    startOf,
    dayOf(ms) {
      if (ms < start || ms >= end) {
        day = logDateOf(ms, zone, '00:00');
        start = startOf(day);
        end = startOf(nextDate(day));
      }
      return day;
    },
  };
}

export interface FlaggedStretch {
  from: TrackFix;
  to: TrackFix;
  flags: SegmentFlag[];
  metres: number;
  jurisdictions: string[];
  /** The stretch's metres per jurisdiction (issue 46: an impossible jump is left out of those totals until accepted). */
  byJurisdiction: Record<string, number>;
}

/** One vehicle's contribution to one UTC day. */
export interface DayRecord {
  day: string;
  /** Jurisdiction → [metres, of which interpolated]. */
  metres: Map<string, [number, number]>;
  crossings: BorderCrossing[];
  flagged: FlaggedStretch[];
  /** Fixes of that day counted (the second fix of each pair). */
  fixes: number;
  firstFixAt: number | null;
  lastFixAt: number | null;
  odometerStartM: number | null;
  odometerEndM: number | null;
  /** Odometer travel over the day's pairs of fixes that both carry one, and the metres counted for those pairs (additive). */
  odometerTravelM: number;
  odometerMetres: number;
}

export type DayRecords = Map<string, DayRecord>;

function recordOf(days: DayRecords, day: string): DayRecord {
  let r = days.get(day);
  if (!r) {
    r = {
      day,
      metres: new Map(),
      crossings: [],
      flagged: [],
      fixes: 0,
      firstFixAt: null,
      lastFixAt: null,
      odometerStartM: null,
      odometerEndM: null,
      odometerTravelM: 0,
      odometerMetres: 0,
    };
    days.set(day, r);
  }
  return r;
}

function addMetres(r: DayRecord, code: string, metres: number, interpolated: boolean): void {
  if (metres <= 0) return;
  const m = r.metres.get(code);
  if (m) {
    m[0] += metres;
    if (interpolated) m[1] += metres;
  } else r.metres.set(code, [metres, interpolated ? metres : 0]);
}

/** Counts a fix into its day's record (first, last, odometer at each end). */
function countFix(days: DayRecords, f: TrackFix, inRange: (day: string) => boolean, clock: DayClock): void {
  const day = clock.dayOf(f.time);
  if (!inRange(day)) return;
  const r = recordOf(days, day);
  r.fixes++;
  if (r.firstFixAt === null || f.time < r.firstFixAt) r.firstFixAt = f.time;
  if (r.lastFixAt === null || f.time > r.lastFixAt) r.lastFixAt = f.time;
  if (f.odometerM != null) {
    if (r.odometerStartM === null) r.odometerStartM = f.odometerM;
    r.odometerEndM = f.odometerM;
  }
}

export interface AccumulateOptions {
  /** Only days in [fromDay, toDay] are recorded (a recompute of a range); default every day. */
  fromDay?: string;
  toDay?: string;
  /** Count the first fix itself into its day (a vehicle's very first fix, a recompute's first fix in range). */
  countFirst?: boolean;
  /** Whose days: the base jurisdiction's zone (default UTC). */
  clock?: DayClock;
}

/**
 * Folds fixes (in time order) into per-day records, pair by pair from `prev` (the last fix already
 * counted, null for a vehicle's first). A pair spanning midnight is split once (its flags, gap rule
 * and odometer decide as a whole) and its pieces are shared between the days by time, assuming a
 * constant speed along the line; a crossing goes to the day of its time, a flagged stretch to the day
 * it starts. Returns the last fix (the new state).
 */
export function accumulateDays(days: DayRecords, prev: TrackFix | null, fixes: readonly TrackFix[], opts: AccumulateOptions = {}): TrackFix | null {
  const inRange = (day: string) => (opts.fromDay === undefined || day >= opts.fromDay) && (opts.toDay === undefined || day <= opts.toDay);
  const clock = opts.clock ?? UTC_CLOCK;
  let a = prev;
  for (const b of fixes) {
    if (!a) {
      if (opts.countFirst !== false) countFix(days, b, inRange, clock);
      a = b;
      continue;
    }
    countFix(days, b, inRange, clock);
    const split = splitPair(a, b);
    const interpolated = split.flags.includes('interpolated');
    const dayA = clock.dayOf(a.time);
    const dayB = clock.dayOf(b.time);
    if (dayA === dayB || b.time <= a.time) {
      if (inRange(dayA)) {
        const r = recordOf(days, dayA);
        for (const p of split.pieces) addMetres(r, p.code, p.metres, interpolated);
        // Odometer against recorded metres, pair by pair so rounds and recomputes add up the same.
        if (a.odometerM != null && b.odometerM != null && b.time > a.time) {
          r.odometerTravelM += b.odometerM - a.odometerM;
          r.odometerMetres += split.metres;
        }
      }
    } else {
      // Cut points along the pair's distance at each midnight between the fixes.
      const span = b.time - a.time;
      let day = dayA;
      let cutStart = 0;
      let piece = 0;
      let usedOfPiece = 0;
      let t = clock.startOf(nextDate(dayA));
      while (true) {
        const last = t >= b.time;
        const cutEnd = last ? split.metres : (split.metres * (t - a.time)) / span;
        const r = inRange(day) ? recordOf(days, day) : null;
        let need = cutEnd - cutStart;
        while (need > 1e-9 && piece < split.pieces.length) {
          const p = split.pieces[piece]!;
          const left = p.metres - usedOfPiece;
          const take = Math.min(left, need);
          if (r) addMetres(r, p.code, take, interpolated);
          need -= take;
          usedOfPiece += take;
          if (usedOfPiece >= p.metres - 1e-9) {
            piece++;
            usedOfPiece = 0;
          }
        }
        if (last) break;
        cutStart = cutEnd;
        day = clock.dayOf(t);
        t = clock.startOf(nextDate(day));
      }
    }
    for (const c of split.crossings) {
      const d = clock.dayOf(c.time);
      if (inRange(d)) recordOf(days, d).crossings.push(c);
    }
    if (split.flags.length && inRange(dayA)) addFlagged(recordOf(days, dayA), a, b, split.flags, split.metres, split.pieces);
    a = b;
  }
  return a;
}

/** Consecutive flagged pairs with the same flags become one stretch. */
function addFlagged(
  r: DayRecord,
  a: TrackFix,
  b: TrackFix,
  flags: SegmentFlag[],
  metres: number,
  pieces: ReadonlyArray<{ code: string; metres: number }>,
): void {
  const last = r.flagged[r.flagged.length - 1];
  const addPieces = (s: FlaggedStretch) => {
    for (const p of pieces) {
      if (s.jurisdictions[s.jurisdictions.length - 1] !== p.code) s.jurisdictions.push(p.code);
      if (p.metres > 0) s.byJurisdiction[p.code] = (s.byJurisdiction[p.code] ?? 0) + p.metres;
    }
  };
  if (last && last.to === a && last.flags.join() === flags.join()) {
    last.to = b;
    last.metres += metres;
    addPieces(last);
    return;
  }
  const s: FlaggedStretch = { from: a, to: b, flags, metres, jurisdictions: [], byJurisdiction: {} };
  addPieces(s);
  r.flagged.push(s);
}

/** Every UTC day from `from` to `to` inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = dayStart(from); t <= dayStart(to); t += DAY_MS) out.push(utcDay(t));
  return out;
}
