import { bundledBoundaries } from './boundaries.ts';
import type { BoundaryIndex } from './boundary-index.ts';
import { lineLengthM } from './geodesic.ts';
import { indexedJurisdictions, SNAP_M } from './jurisdictions.ts';

/**
 * IFTA distance per jurisdiction from a vehicle's fixes (issue 17, reference section 5.3,
 * docs/decisions/0102). The shape the API runs as positions arrive:
 *
 * ```ts
 * // per vehicle and day, keep the running totals and the last fix already counted
 * const totals = emptyDistances();                 // or the stored day's totals
 * for (const b of newFixesInTimeOrder) {
 *   addPair(totals, last, b, splitPair(last, b));  // pure split of one pair, folded in
 *   last = b;
 * }
 * // a pair spanning midnight: cut it with interpolateFix(last, b, midnight), one part per day
 * // late or corrected fixes: re-run splitByJurisdiction(dayFixes) for that day (~20 ms at 1 Hz)
 * ```
 *
 * Metres and milliseconds throughout. The line between two fixes is taken as straight in longitude
 * and latitude (the same line the border crossings are found on) and measured on the WGS84 ellipsoid.
 *
 * @packageDocumentation
 */

/** A position as stored: time (ms), place, speed (km/h) and, when the device reports one, odometer (m). */
export interface TrackFix {
  time: number;
  lat: number;
  lon: number;
  speedKmh: number;
  odometerM?: number | null;
}

export interface SplitOptions {
  /** A pair further apart in time while moving is a gap (default 10 minutes). */
  maxGapMs?: number;
  /** A pair further apart in distance while moving is a gap (default 5 miles). */
  maxGapM?: number;
  /** Moving: either fix at this speed or more (default 5 km/h) ... */
  movingKmh?: number;
  /** ... or the fixes this far apart (default 200 m); otherwise a long pause is a stop, not a gap. */
  stationaryM?: number;
  /** An implied speed above this is an impossible jump (default 90 mph) ... */
  maxSpeedKmh?: number;
  /** ... when the jump is at least this long (default 250 m), so 1 Hz GPS jitter is not flagged. */
  minJumpM?: number;
  /** Points in no polygon within this distance snap to the nearest jurisdiction (default 2 km). */
  snapM?: number;
}

/** The jurisdiction code of distance no jurisdiction takes (the Great Lakes, the sea, abroad). */
export const UNKNOWN = 'unknown';

/**
 * Why a pair needs review: `interpolated` (a gap: distance allocated along the straight line),
 * `unknown-position` (a fix in no jurisdiction, even snapped), `impossible-speed` (a jump over
 * `maxSpeedKmh`), `odometer-rejected` (the odometer went backwards or faster than possible; GPS decided),
 * `time-order` (the second fix is not later than the first).
 */
export type SegmentFlag = 'interpolated' | 'unknown-position' | 'impossible-speed' | 'odometer-rejected' | 'time-order';

/** A state or province line crossed between two fixes: time and odometer interpolated along the line. */
export interface BorderCrossing {
  time: number;
  lat: number;
  lon: number;
  odometerM: number | null;
  from: string;
  to: string;
}

export interface DistancePiece {
  code: string;
  metres: number;
}

/** What one pair of consecutive fixes contributes. */
export interface PairSplit {
  /** Distance of the pair: the odometer difference when both fixes carry a plausible one, else GPS. */
  metres: number;
  source: 'gps' | 'odometer';
  /** Consecutive pieces in driving order, summing to `metres`. */
  pieces: DistancePiece[];
  crossings: BorderCrossing[];
  flags: SegmentFlag[];
}

export interface FlaggedSegment {
  from: TrackFix;
  to: TrackFix;
  flags: SegmentFlag[];
  metres: number;
  pieces: DistancePiece[];
}

export interface JurisdictionDistance {
  metres: number;
  /** Of which allocated along the straight line over a gap. */
  interpolatedMetres: number;
}

/** Running totals of a vehicle over a period (a day): the incremental state the API keeps. */
export interface JurisdictionDistances {
  byJurisdiction: Record<string, JurisdictionDistance>;
  totalMetres: number;
  crossings: BorderCrossing[];
  /** Flagged pairs; consecutive pairs with the same flags are merged into one segment. */
  flagged: FlaggedSegment[];
}

const DEFAULTS: Required<SplitOptions> = {
  maxGapMs: 10 * 60_000,
  maxGapM: 5 * 1609.344,
  movingKmh: 5,
  stationaryM: 200,
  maxSpeedKmh: 90 * 1.609344,
  minJumpM: 250,
  snapM: SNAP_M,
};

const F_INTERPOLATED = 1;
const F_UNKNOWN = 2;
const F_IMPOSSIBLE = 4;
const F_ODOMETER = 8;
const F_ORDER = 16;
const FLAG_NAMES: ReadonlyArray<[number, SegmentFlag]> = [
  [F_INTERPOLATED, 'interpolated'],
  [F_UNKNOWN, 'unknown-position'],
  [F_IMPOSSIBLE, 'impossible-speed'],
  [F_ODOMETER, 'odometer-rejected'],
  [F_ORDER, 'time-order'],
];
/** Water and slivers are walked at this step and each change bisected to 1 m. */
const SNAP_STEP_M = 250;
const MAX_SNAP_SAMPLES = 2000;

/**
 * The outcome of one pair, kept in module scratch so the 1 Hz day loop allocates nothing on the fast
 * path: piece k runs from fraction pieceT[k] to pieceT[k + 1] of the line in jurisdiction pieceJ[k]
 * (−1 unknown) and measures pieceLen[k] metres along it.
 */
class Scratch {
  flags = 0;
  metres = 0;
  odometer = false;
  lineM = 0;
  count = 0;
  pieceJ = new Int32Array(64);
  pieceT = new Float64Array(65);
  pieceLen = new Float64Array(64);
  ts: number[] = [];

  push(j: number, t1: number): void {
    if (this.count > 0 && this.pieceJ[this.count - 1] === j) {
      this.pieceT[this.count] = t1;
      return;
    }
    if (this.count + 1 >= this.pieceJ.length) this.grow();
    this.pieceJ[this.count] = j;
    this.count++;
    this.pieceT[this.count] = t1;
  }

  private grow(): void {
    const n = this.pieceJ.length * 2;
    const j = new Int32Array(n);
    j.set(this.pieceJ);
    const t = new Float64Array(n + 1);
    t.set(this.pieceT);
    const l = new Float64Array(n);
    l.set(this.pieceLen);
    this.pieceJ = j;
    this.pieceT = t;
    this.pieceLen = l;
  }
}

const out = new Scratch();

function resolved(options: SplitOptions | undefined): Required<SplitOptions> {
  return options ? { ...DEFAULTS, ...options } : DEFAULTS;
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

/** Longitude of b as seen from a, so a pair across the antimeridian interpolates the short way. */
function unwrap(aLon: number, bLon: number): number {
  if (bLon - aLon > 180) return bLon - 360;
  if (aLon - bLon > 180) return bLon + 360;
  return bLon;
}

const wrap = (lon: number): number => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);

/** Jurisdiction index at fraction t of the line, snapped within snapM; −1 when unknown. */
function snappedAt(index: BoundaryIndex, a: TrackFix, bLon: number, b: TrackFix, t: number, snapM: number): number {
  const lat = lerp(a.lat, b.lat, t);
  const lon = wrap(lerp(a.lon, bLon, t));
  const j = index.locate(lat, lon);
  if (j >= 0 || snapM <= 0) return j;
  return index.nearest(lat, lon, snapM)?.index ?? -1;
}

/**
 * Splits a stretch in no polygon (t0…t1, between two edge crossings) by the snapping rule: sampled at
 * both ends and every SNAP_STEP_M between, then each change bisected to a metre.
 */
function splitUnmapped(index: BoundaryIndex, a: TrackFix, bLon: number, b: TrackFix, t0: number, t1: number, o: Required<SplitOptions>): void {
  const lengthM = out.lineM * (t1 - t0);
  const samples = Math.min(MAX_SNAP_SAMPLES, Math.max(1, Math.ceil(lengthM / SNAP_STEP_M)));
  // The ends sit on the boundary they cross: sample a centimetre inside.
  const inset = Math.min((t1 - t0) / 4, 0.01 / Math.max(out.lineM, 1e-9));
  const sampleT = (i: number): number => (i === 0 ? t0 + inset : i === samples ? t1 - inset : t0 + ((t1 - t0) * i) / samples);
  let prevT = sampleT(0);
  let prevJ = snappedAt(index, a, bLon, b, prevT, o.snapM);
  for (let i = 1; i <= samples; i++) {
    const t = sampleT(i);
    const j = snappedAt(index, a, bLon, b, t, o.snapM);
    if (j !== prevJ) {
      let lo = prevT;
      let hi = t;
      while ((hi - lo) * out.lineM > 1) {
        const mid = (lo + hi) / 2;
        if (snappedAt(index, a, bLon, b, mid, o.snapM) === prevJ) lo = mid;
        else hi = mid;
      }
      out.push(prevJ, (lo + hi) / 2);
      prevJ = j;
    }
    prevT = t;
  }
  out.push(prevJ, t1);
}

/** Fills `out` for the pair a → b. */
function splitCore(a: TrackFix, b: TrackFix, o: Required<SplitOptions>): void {
  const { index } = bundledBoundaries();
  const bLon = unwrap(a.lon, b.lon);
  const dt = b.time - a.time;
  const lineM = lineLengthM(a.lat, a.lon, b.lat, bLon);
  let flags = 0;
  if (dt <= 0) flags |= F_ORDER;
  if (lineM >= o.minJumpM && (dt <= 0 || (lineM / dt) * 3600 > o.maxSpeedKmh)) flags |= F_IMPOSSIBLE;
  const moving = a.speedKmh >= o.movingKmh || b.speedKmh >= o.movingKmh || lineM > o.stationaryM;
  if (moving && (dt > o.maxGapMs || lineM > o.maxGapM)) flags |= F_INTERPOLATED;
  let metres = lineM;
  let odometer = false;
  if (a.odometerM != null && b.odometerM != null) {
    const d = b.odometerM - a.odometerM;
    if (d >= 0 && (dt > 0 ? (d / dt) * 3600 <= o.maxSpeedKmh : d < o.minJumpM)) {
      metres = d;
      odometer = true;
    } else {
      flags |= F_ODOMETER;
    }
  }
  out.lineM = lineM;
  out.metres = metres;
  out.odometer = odometer;
  out.count = 0;
  out.pieceT[0] = 0;

  const ja = index.locate(a.lat, a.lon);
  const jb = index.locate(b.lat, b.lon);
  if (ja >= 0 && ja === jb) {
    const key = index.uniformCellKey(a.lat, a.lon);
    if (key >= 0 && key === index.uniformCellKey(b.lat, b.lon)) {
      out.push(ja, 1); // fast path: one cell that no border crosses
      out.pieceLen[0] = lineM;
      out.flags = flags;
      return;
    }
  }
  if ((ja < 0 && index.nearest(a.lat, a.lon, o.snapM) === null) || (jb < 0 && index.nearest(b.lat, b.lon, o.snapM) === null)) flags |= F_UNKNOWN;

  const ts = out.ts;
  ts.length = 0;
  if (lineM > 0) index.crossings(a.lat, a.lon, b.lat, bLon, ts);
  ts.sort((x, y) => x - y);
  let t0 = 0;
  for (let k = 0; k <= ts.length; k++) {
    const t1 = k < ts.length ? ts[k]! : 1;
    if (k < ts.length && (t1 - t0) * lineM < 0.01) continue; // the same crossing twice (shared edge)
    const mid = (t0 + t1) / 2;
    const j = index.locate(lerp(a.lat, b.lat, mid), wrap(lerp(a.lon, bLon, mid)));
    if (j >= 0 || o.snapM <= 0) out.push(j, t1);
    else splitUnmapped(index, a, bLon, b, t0, t1, o);
    t0 = t1;
  }
  for (let k = 0; k < out.count; k++) {
    const p0 = out.pieceT[k]!;
    const p1 = out.pieceT[k + 1]!;
    out.pieceLen[k] = out.count === 1 ? lineM : lineLengthM(lerp(a.lat, b.lat, p0), lerp(a.lon, bLon, p0), lerp(a.lat, b.lat, p1), lerp(a.lon, bLon, p1));
  }
  out.flags = flags;
}

const codeOf = (j: number): string => (j >= 0 ? indexedJurisdictions()[j]!.code : UNKNOWN);

/** Piece k's share of the pair's distance: proportional to its length along the line. */
function pieceMetres(k: number): number {
  if (out.count === 1) return out.metres;
  let sum = 0;
  for (let i = 0; i < out.count; i++) sum += out.pieceLen[i]!;
  return sum > 0 ? (out.metres * out.pieceLen[k]!) / sum : out.metres / out.count;
}

function crossingsOf(a: TrackFix, b: TrackFix): BorderCrossing[] {
  const crossings: BorderCrossing[] = [];
  if (out.count < 2) return crossings;
  const bLon = unwrap(a.lon, b.lon);
  let sum = 0;
  for (let i = 0; i < out.count; i++) sum += out.pieceLen[i]!;
  let along = 0;
  for (let k = 1; k < out.count; k++) {
    along += out.pieceLen[k - 1]!;
    // Time and odometer by distance along the line (constant speed between the fixes); place on the line.
    const share = sum > 0 ? along / sum : 0;
    const t = out.pieceT[k]!;
    crossings.push({
      time: Math.round(lerp(a.time, b.time, share)),
      lat: lerp(a.lat, b.lat, t),
      lon: wrap(lerp(a.lon, bLon, t)),
      odometerM: a.odometerM != null ? a.odometerM + out.metres * share : null,
      from: codeOf(out.pieceJ[k - 1]!),
      to: codeOf(out.pieceJ[k]!),
    });
  }
  return crossings;
}

function flagList(flags: number): SegmentFlag[] {
  const list: SegmentFlag[] = [];
  for (const [bit, name] of FLAG_NAMES) if (flags & bit) list.push(name);
  return list;
}

function piecesOf(): DistancePiece[] {
  const pieces: DistancePiece[] = [];
  for (let k = 0; k < out.count; k++) pieces.push({ code: codeOf(out.pieceJ[k]!), metres: pieceMetres(k) });
  return pieces;
}

/**
 * Splits the line between two consecutive fixes of a vehicle at every state or province border it
 * crosses (edge intersection, exact on the bundled boundaries; a long gap through a third jurisdiction
 * is split at each border). The distance is the odometer difference when both fixes carry a plausible
 * one, else the ellipsoidal length of the line, shared among the pieces by their lengths. Stretches in no
 * polygon go to the jurisdiction within 2 km, else to {@link UNKNOWN}. Pure; about 0.2 µs when both fixes
 * sit in one border-free cell, a few µs at a border.
 */
export function splitPair(a: TrackFix, b: TrackFix, options?: SplitOptions): PairSplit {
  splitCore(a, b, resolved(options));
  return { metres: out.metres, source: out.odometer ? 'odometer' : 'gps', pieces: piecesOf(), crossings: crossingsOf(a, b), flags: flagList(out.flags) };
}

/** Empty running totals for a vehicle and period. */
export function emptyDistances(): JurisdictionDistances {
  return { byJurisdiction: {}, totalMetres: 0, crossings: [], flagged: [] };
}

function addMetres(totals: JurisdictionDistances, code: string, metres: number, interpolated: boolean): void {
  const row = (totals.byJurisdiction[code] ??= { metres: 0, interpolatedMetres: 0 });
  row.metres += metres;
  if (interpolated) row.interpolatedMetres += metres;
  totals.totalMetres += metres;
}

function addFlagged(totals: JurisdictionDistances, a: TrackFix, b: TrackFix, flags: SegmentFlag[], metres: number, pieces: DistancePiece[]): void {
  const last = totals.flagged[totals.flagged.length - 1];
  if (last && last.to === a && last.flags.join() === flags.join()) {
    last.to = b;
    last.metres += metres;
    for (const p of pieces) {
      const same = last.pieces.find((q) => q.code === p.code);
      if (same) same.metres += p.metres;
      else last.pieces.push({ ...p });
    }
    return;
  }
  totals.flagged.push({ from: a, to: b, flags, metres, pieces: pieces.map((p) => ({ ...p })) });
}

/**
 * Folds one pair's split into running totals (mutates and returns `totals`): the incremental step the
 * API runs per stored position. Pass the same fix objects the split was made from: consecutive flagged
 * pairs merge when one's `to` is the next one's `from`.
 */
export function addPair(totals: JurisdictionDistances, a: TrackFix, b: TrackFix, split: PairSplit): JurisdictionDistances {
  const interpolated = split.flags.includes('interpolated');
  for (const p of split.pieces) if (p.metres > 0) addMetres(totals, p.code, p.metres, interpolated);
  for (const c of split.crossings) totals.crossings.push(c);
  if (split.flags.length) addFlagged(totals, a, b, split.flags, split.metres, split.pieces);
  return totals;
}

/**
 * Distance per jurisdiction, border crossings and flagged segments of a track (fixes in time order),
 * e.g. one vehicle's day. Same result as folding {@link splitPair} over every consecutive pair with
 * {@link addPair}, without building a PairSplit for the ordinary pairs.
 */
export function splitByJurisdiction(track: readonly TrackFix[], options?: SplitOptions): JurisdictionDistances {
  const o = resolved(options);
  const n = indexedJurisdictions().length;
  const metres = new Float64Array(n + 1);
  const interpolatedMetres = new Float64Array(n + 1);
  const totals = emptyDistances();
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1]!;
    const b = track[i]!;
    splitCore(a, b, o);
    const interpolated = (out.flags & F_INTERPOLATED) !== 0;
    for (let k = 0; k < out.count; k++) {
      const slot = out.pieceJ[k]! >= 0 ? out.pieceJ[k]! : n;
      const m = pieceMetres(k);
      metres[slot]! += m;
      if (interpolated) interpolatedMetres[slot]! += m;
    }
    if (out.count > 1) for (const c of crossingsOf(a, b)) totals.crossings.push(c);
    if (out.flags) addFlagged(totals, a, b, flagList(out.flags), out.metres, piecesOf());
  }
  for (let slot = 0; slot <= n; slot++) {
    if (metres[slot]! === 0 && interpolatedMetres[slot]! === 0) continue;
    totals.byJurisdiction[codeOf(slot < n ? slot : -1)] = { metres: metres[slot]!, interpolatedMetres: interpolatedMetres[slot]! };
    totals.totalMetres += metres[slot]!;
  }
  return totals;
}

/**
 * The fix at `time` between a and b (place, speed and odometer linear in time), to cut a pair at a day
 * boundary so each day's totals get their own part.
 */
export function interpolateFix(a: TrackFix, b: TrackFix, time: number): TrackFix {
  const t = b.time === a.time ? 0 : (time - a.time) / (b.time - a.time);
  const bLon = unwrap(a.lon, b.lon);
  return {
    time,
    lat: lerp(a.lat, b.lat, t),
    lon: wrap(lerp(a.lon, bLon, t)),
    speedKmh: lerp(a.speedKmh, b.speedKmh, t),
    odometerM: a.odometerM != null && b.odometerM != null ? lerp(a.odometerM, b.odometerM, t) : null,
  };
}
