import { builtInRouting } from '@fleet/dispatch';
import { LruMap } from '../../lib/lru-map.ts';

// `loaded_m` (decision 0166): the road distance from the first pick-up through every stop to the last
// delivery by the planner's built-in routing over the bundled road network (labelled "estimated"),
// so plans and revenue agree on a load's length. It stays the built-in router even where
// ROUTING_URL names a routing service: a load is saved without waiting on the network, and its
// revenue per mile does not change with the routing service's mood.

export interface StopPoint {
  latitude: number;
  longitude: number;
}

// Its own cache would keep each leg's whole road line (256 legs: 1.9 MB on the idle demo server) for
// a figure in metres: the metres are cached here, the lines not at all.
const routing = builtInRouting({ cacheSize: 0 });
const metresCache = new LruMap<number>(1024);

function legMetres(a: StopPoint, b: StopPoint): number {
  const key = `${a.latitude},${a.longitude};${b.latitude},${b.longitude}`;
  let m = metresCache.get(key);
  if (m === undefined) {
    m = routing.leg({ lat: a.latitude, lon: a.longitude }, { lat: b.latitude, lon: b.longitude }).metres;
    metresCache.set(key, m);
  }
  return m;
}

/** Metres along the roads through the stops in order (0 for fewer than two). */
export function loadedMetres(stops: readonly StopPoint[]): number {
  let m = 0;
  for (let i = 1; i < stops.length; i++) m += legMetres(stops[i - 1]!, stops[i]!);
  return Math.round(m);
}
