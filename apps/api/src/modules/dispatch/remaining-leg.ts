import type { LatLon, RouteLeg } from '@fleet/dispatch';

// The rest of a routed leg from where a vehicle is now (issue 33, decision 0167): live ETAs follow a
// truck along the leg routed once, instead of asking the routing port again at every fix.

const R = 6_371_008.8;
const RAD = Math.PI / 180;

/** Metres between two points (equirectangular: exact enough between a fix and a nearby vertex). */
export function metresBetween(a: LatLon, b: LatLon): number {
  const x = (b.lon - a.lon) * RAD * Math.cos(((a.lat + b.lat) / 2) * RAD);
  const y = (b.lat - a.lat) * RAD;
  return Math.sqrt(x * x + y * y) * R;
}

/** Metres from each vertex of the line to its end. */
const tails = new WeakMap<RouteLeg, Float64Array>();
function tailOf(leg: RouteLeg): Float64Array {
  let t = tails.get(leg);
  if (!t) {
    const n = leg.line.length;
    t = new Float64Array(n);
    for (let i = n - 2; i >= 0; i--) t[i] = t[i + 1]! + metresBetween(leg.line[i]!, leg.line[i + 1]!);
    tails.set(leg, t);
  }
  return t;
}

/**
 * The leg from `at` on: from the vertex nearest `at` to the end, with the time in proportion to the
 * distance. Null when `at` is farther than `offM` from the line (the vehicle left the route: route again).
 */
export function remainingLeg(leg: RouteLeg, at: LatLon, offM = 5000): RouteLeg | null {
  const line = leg.line;
  if (line.length < 2) return null;
  let best = -1;
  let bestM = Infinity;
  for (let i = 0; i < line.length; i++) {
    const m = metresBetween(at, line[i]!);
    if (m < bestM) {
      bestM = m;
      best = i;
    }
  }
  if (bestM > offM) return null;
  const tail = tailOf(leg);
  const lineM = tail[0]! || 1;
  const metres = Math.max(0, (leg.metres * tail[best]!) / lineM + bestM);
  return { metres, seconds: leg.metres > 0 ? (leg.seconds * metres) / leg.metres : 0, line: [at, ...line.slice(best)] };
}

/**
 * The leg with its line thinned to a vertex every `stepM` metres or more (its ends kept; distance and
 * time unchanged): what a running load keeps to follow its vehicle, a few KB where the road's line
 * is tens (a thousand running loads keep their legs in memory).
 */
export function thinLeg(leg: RouteLeg, stepM = 2000): RouteLeg {
  const line = leg.line;
  if (line.length <= 2) return leg;
  const out: LatLon[] = [line[0]!];
  let since = 0;
  for (let i = 1; i < line.length - 1; i++) {
    since += metresBetween(line[i - 1]!, line[i]!);
    if (since >= stepM) {
      out.push(line[i]!);
      since = 0;
    }
  }
  out.push(line[line.length - 1]!);
  return { metres: leg.metres, seconds: leg.seconds, line: out };
}
