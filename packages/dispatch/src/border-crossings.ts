import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import type { MeasuredLine } from './leg-line.ts';
import type { BorderSide } from './types.ts';

// Where a leg's road crosses between the US and Canada (issue 72, decision 0313): the planner
// switches a driver to the rules of the side entered there.

const countryAt = (lat: number, lon: number): BorderSide | null => {
  const c = jurisdictionAt(lat, lon)?.country;
  return c === 'US' || c === 'CA' ? c : null;
};

/** Bisections between two located points of different countries: 2^-12 of the piece (a few metres on a long one). */
const STEPS = 12;

/**
 * The fractions (0..1, by length) of the line where it crosses between the US and Canada, and the
 * country entered, in order. Points in neither (a river, a lake) are skipped: the crossing is put
 * between the located points around them.
 */
export function legCrossings(line: MeasuredLine): Array<{ fraction: number; to: BorderSide }> {
  const { points, cum } = line;
  const total = cum[points.length - 1] ?? 0;
  if (points.length < 2 || total <= 0) return [];
  const out: Array<{ fraction: number; to: BorderSide }> = [];
  let prev = -1;
  let prevCountry: BorderSide | null = null;
  for (let i = 0; i < points.length; i++) {
    const country = countryAt(points[i]!.lat, points[i]!.lon);
    if (!country) continue;
    if (prevCountry && country !== prevCountry) {
      // Bisect the straight line between the two located points for the boundary.
      const a = points[prev]!;
      const b = points[i]!;
      let lo = 0;
      let hi = 1;
      for (let k = 0; k < STEPS; k++) {
        const mid = (lo + hi) / 2;
        const c = countryAt(a.lat + (b.lat - a.lat) * mid, a.lon + (b.lon - a.lon) * mid);
        if (c === prevCountry) lo = mid;
        else if (c === country) hi = mid;
        else break;
      }
      const f = (lo + hi) / 2;
      out.push({ fraction: (cum[prev]! + (cum[i]! - cum[prev]!) * f) / total, to: country });
    }
    prev = i;
    prevCountry = country;
  }
  return out;
}
