import { distanceM } from '@fleet/geo/distance';
import type { LatLon, RouteLeg } from './types.ts';

/** A leg's line with cumulative lengths, to find the point a fraction of the way along it. */
export interface MeasuredLine {
  points: readonly LatLon[];
  /** cum[i]: metres from the first point to points[i]. */
  cum: Float64Array;
}

export function measure(leg: RouteLeg): MeasuredLine {
  const points = leg.line;
  const cum = new Float64Array(points.length);
  for (let i = 1; i < points.length; i++) cum[i] = cum[i - 1]! + distanceM(points[i - 1]!, points[i]!);
  return { points, cum };
}

/** The point `fraction` (0..1) of the way along the line, by length; the first point of an empty one. */
export function pointAlong(line: MeasuredLine, fraction: number): LatLon {
  const { points, cum } = line;
  const n = points.length;
  if (n === 0) return { lat: 0, lon: 0 };
  const total = cum[n - 1]!;
  if (n === 1 || total === 0 || fraction <= 0) return points[0]!;
  if (fraction >= 1) return points[n - 1]!;
  const target = total * fraction;
  // Binary search for the piece holding the target length.
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! <= target) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  const span = cum[hi]! - cum[lo]!;
  const f = span > 0 ? (target - cum[lo]!) / span : 0;
  return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
}
