import { pathLengthM } from '@fleet/geo/distance';
import { highwayRoute } from '@fleet/geo/highways';
import type { LatLon, RouteLeg, RoutingPort } from './types.ts';

// The built-in routing adapter: the bundled road network (decision 0103), good enough for planning and
// labelled 'estimated'. Drive time is the length over an assumed average truck speed: the network has
// no speeds, and a loaded truck averages about 55 mph on interstates once stops for fuel are left
// out (those belong to the plan, not the leg).

/** Assumed average truck speed on the built-in network: 88.5 km/h (55 mph). */
export const BUILT_IN_SPEED_MPS = 88.5 / 3.6;
/** Legs are cached by endpoints rounded to 3 decimals (~100 m): candidates reuse the same legs. */
const ROUND = 1e3;

export interface BuiltInRoutingOptions {
  speedMps?: number;
  /**
   * Most legs kept (least recently used dropped first); default 256. A leg across states holds a few
   * hundred points (~40 KB): 256 legs stay near 10 MB of a server that idles under 200 MB.
   */
  cacheSize?: number;
}

export interface BuiltInRouting extends RoutingPort {
  readonly kind: 'estimated';
  /** One leg, synchronously (the cache first): for callers that route many legs in a loop. */
  leg(from: LatLon, to: LatLon): RouteLeg;
}

function key(a: LatLon, b: LatLon): string {
  return `${Math.round(a.lat * ROUND)},${Math.round(a.lon * ROUND)};${Math.round(b.lat * ROUND)},${Math.round(b.lon * ROUND)}`;
}

/** Routing over the bundled road network; metres by great-circle length of the road line, seconds estimated. */
export function builtInRouting(options: BuiltInRoutingOptions = {}): BuiltInRouting {
  const speed = options.speedMps ?? BUILT_IN_SPEED_MPS;
  const size = options.cacheSize ?? 256;
  const cache = new Map<string, RouteLeg>();
  const leg = (from: LatLon, to: LatLon): RouteLeg => {
    const k = key(from, to);
    const hit = cache.get(k);
    if (hit) {
      // Map order is insertion order: re-inserting marks the leg as recently used.
      cache.delete(k);
      cache.set(k, hit);
      return hit;
    }
    const line = from.lat === to.lat && from.lon === to.lon ? [from, to] : highwayRoute(from, to);
    const metres = pathLengthM(line);
    const made: RouteLeg = { metres, seconds: metres / speed, line };
    cache.set(k, made);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return made;
  };
  return {
    kind: 'estimated',
    leg,
    route(points: LatLon[]): Promise<RouteLeg[]> {
      const legs: RouteLeg[] = [];
      for (let i = 1; i < points.length; i++) legs.push(leg(points[i - 1]!, points[i]!));
      return Promise.resolve(legs);
    },
  };
}
