import { builtInRouting } from '@fleet/dispatch';

// `loaded_m` (decision 0166): the road distance from the first pick-up through every stop to the last
// delivery by the planner's built-in routing over the bundled road network (labelled "estimated"),
// so plans and revenue agree on a load's length. It stays the built-in router even where
// ROUTING_URL names a routing service: a load is saved without waiting on the network, and its
// revenue per mile does not change with the routing service's mood.

export interface StopPoint {
  latitude: number;
  longitude: number;
}

const routing = builtInRouting();

/** Metres along the roads through the stops in order (0 for fewer than two). */
export function loadedMetres(stops: readonly StopPoint[]): number {
  let m = 0;
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    m += routing.leg({ lat: a.latitude, lon: a.longitude }, { lat: b.latitude, lon: b.longitude }).metres;
  }
  return Math.round(m);
}
