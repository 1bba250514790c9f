import type { LatLon } from './distance.ts';

const RAD = Math.PI / 180;
/** Metres per pixel at zoom 0 on the equator for 512 px tiles (MapLibre), halved per zoom level. */
const M_PER_PX_Z0 = 78_271.517;

/** Ground size of one screen pixel at `zoom` and latitude `lat`, in metres. */
export function metresPerPixel(zoom: number, lat: number): number {
  return (M_PER_PX_Z0 * Math.cos(lat * RAD)) / 2 ** zoom;
}

/**
 * The Douglas-Peucker step both passes share: the point strictly between `first` and `last` farthest
 * from the chord joining them (planar metres), or -1 when none is farther than `floorD2`. Its squared
 * distance goes to `out[0]` (a buffer the caller reuses: no allocation per segment).
 */
function farthestFromChord(xs: Float64Array, ys: Float64Array, first: number, last: number, floorD2: number, out: Float64Array): number {
  const ax = xs[first]!;
  const ay = ys[first]!;
  const dx = xs[last]! - ax;
  const dy = ys[last]! - ay;
  const len2 = dx * dx + dy * dy;
  let maxD = floorD2;
  let index = -1;
  for (let i = first + 1; i < last; i++) {
    let px = xs[i]! - ax;
    let py = ys[i]! - ay;
    if (len2 > 0) {
      const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      px -= t * dx;
      py -= t * dy;
    }
    const d = px * px + py * py;
    if (d > maxD) {
      maxD = d;
      index = i;
    }
  }
  out[0] = maxD;
  return index;
}

/**
 * Douglas-Peucker simplification. Returns the indexes of the points to keep (always the first and
 * the last), so callers keep their own per-point data (time, speed) without copying objects.
 * Iterative with an explicit stack: a day of 1 Hz points (86,400) would overflow recursion depth
 * on a straight road. Distances are computed on a local equirectangular projection, which is
 * exact enough at the few-metre tolerances a map needs.
 */
export function simplifyIndexes(points: readonly LatLon[], toleranceM: number): number[] {
  const n = points.length;
  if (n <= 2) return points.map((_, i) => i);
  const lat0 = points[0]!.lat * RAD;
  const kx = 111_319.49 * Math.cos(lat0);
  const ky = 110_574.0;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = points[i]!.lon * kx;
    ys[i] = points[i]!.lat * ky;
  }
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const tol2 = toleranceM * toleranceM;
  const farthest = new Float64Array(1);
  const stack: number[] = [0, n - 1];
  while (stack.length) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    const index = farthestFromChord(xs, ys, first, last, -1, farthest);
    const maxD = farthest[0]!;
    if (index >= 0 && maxD > tol2) {
      keep[index] = 1;
      stack.push(first, index, index, last);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}

/**
 * Douglas-Peucker significance of every point: the largest tolerance (metres) at which the point
 * would still be kept (ends: Infinity; points exactly on a line: 0). One pass answers every zoom
 * and any cap: a point is kept at tolerance `t` exactly when its significance exceeds `t`.
 */
export function significance(points: readonly LatLon[]): Float64Array {
  const lat = new Float64Array(points.length);
  const lon = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    lat[i] = points[i]!.lat;
    lon[i] = points[i]!.lon;
  }
  return significanceColumns(lat, lon);
}

/** significance() over latitude and longitude columns (no object per point). */
export function significanceColumns(lat: Float64Array, lon: Float64Array): Float64Array {
  const n = lat.length;
  const sig = new Float64Array(n);
  if (n === 0) return sig;
  sig[0] = Infinity;
  sig[n - 1] = Infinity;
  if (n <= 2) return sig;
  const lat0 = lat[0]! * RAD;
  const kx = 111_319.49 * Math.cos(lat0);
  const ky = 110_574.0;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = lon[i]! * kx;
    ys[i] = lat[i]! * ky;
  }
  // An explicit stack of (first, last, parent significance): a day of 1 Hz points on a straight
  // road would overflow recursion. Typed, it needs no allocation per segment; 3 slots per level
  // and at most n levels.
  const stack = new Float64Array(3 * n + 3);
  const farthest = new Float64Array(1);
  let top = 0;
  stack[top++] = 0;
  stack[top++] = n - 1;
  stack[top++] = Infinity;
  while (top > 0) {
    const parent = stack[--top]!;
    // `| 0`: the stack is a Float64Array, and a loop over a double index reads typed arrays more
    // slowly than over a small integer (V8); the values are whole numbers, so nothing else changes.
    const last = stack[--top]! | 0;
    const first = stack[--top]! | 0;
    const index = farthestFromChord(xs, ys, first, last, 0, farthest);
    if (index < 0) continue;
    const maxD = farthest[0]!;
    const s = Math.min(Math.sqrt(maxD), parent);
    sig[index] = s;
    stack[top++] = first;
    stack[top++] = index;
    stack[top++] = s;
    stack[top++] = index;
    stack[top++] = last;
    stack[top++] = s;
  }
  return sig;
}

/** Indexes whose significance exceeds `toleranceM`, at most `maxPoints` of them (the most significant), in order. */
export function selectBySignificance(sig: Float64Array, toleranceM: number, maxPoints: number): { indexes: number[]; capped: boolean } {
  let count = 0;
  for (const s of sig) if (s > toleranceM) count++;
  let threshold = toleranceM;
  let capped = false;
  if (count > maxPoints) {
    capped = true;
    const sorted = Float64Array.from(sig).sort();
    // The maxPoints-th largest value; strictly above it keeps fewer than maxPoints.
    threshold = sorted[sorted.length - maxPoints]!;
    const above = sorted.filter((v) => v > threshold).length;
    let ties = maxPoints - above;
    const out: number[] = [];
    for (let i = 0; i < sig.length; i++) {
      const v = sig[i]!;
      if (v > threshold || (v === threshold && ties-- > 0)) out.push(i);
    }
    return { indexes: out, capped };
  }
  const out: number[] = [];
  for (let i = 0; i < sig.length; i++) if (sig[i]! > threshold) out.push(i);
  return { indexes: out, capped };
}

/**
 * Simplifies for display at `zoom` (tolerance: one pixel) and caps the result at `maxPoints`
 * (keeping the most significant points), so a month of history can never flood the browser.
 */
export function simplifyForZoom(points: readonly LatLon[], zoom: number, maxPoints: number): number[] {
  if (points.length === 0) return [];
  return selectBySignificance(significance(points), metresPerPixel(zoom, points[0]!.lat), maxPoints).indexes;
}
