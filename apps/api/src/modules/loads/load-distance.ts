import { pathLengthM } from '@fleet/geo/distance';
import { highwayRoute } from '@fleet/geo/highways';

// `loaded_m` (decision 0166): the road distance from the first pick-up through every stop to the last
// delivery over the bundled road network, the built-in routing the planner labels "estimated". The
// planner's routing port (@fleet/dispatch) routes the same network; this module switches to it once
// it is merged, so plans and revenue agree on the distance.

export interface StopPoint {
  latitude: number;
  longitude: number;
}

/** Metres along the roads through the stops in order (0 for fewer than two). */
export function loadedMetres(stops: readonly StopPoint[]): number {
  let m = 0;
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    m += pathLengthM(highwayRoute({ lat: a.latitude, lon: a.longitude }, { lat: b.latitude, lon: b.longitude }));
  }
  return Math.round(m);
}
