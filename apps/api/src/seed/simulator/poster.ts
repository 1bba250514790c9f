import { KNOTS_TO_KMH } from '@fleet/geo';
import type { TruckState } from './truck-plan.ts';

/** The OsmAnd query a Traccar Client (8.x) would send for this state: speed in knots, epoch seconds. */
export function osmandQuery(uniqueId: string, t: number, s: TruckState): string {
  const p = new URLSearchParams({
    id: uniqueId,
    timestamp: String(Math.floor(t / 1000)),
    lat: s.lat.toFixed(6),
    lon: s.lon.toFixed(6),
    speed: (s.speed / KNOTS_TO_KMH).toFixed(2),
    bearing: s.course.toFixed(1),
    altitude: '250',
    accuracy: '5',
    ignition: String(s.ignition),
    odometer: String(Math.round(s.odometer)),
  });
  return p.toString();
}

/** Posts one fix to an OsmAnd endpoint (`target` is its URL, e.g. http://127.0.0.1:5055/). */
export async function postFix(target: string, uniqueId: string, t: number, s: TruckState): Promise<number> {
  const sep = target.includes('?') ? '&' : '?';
  const res = await fetch(`${target}${sep}${osmandQuery(uniqueId, t, s)}`, { method: 'POST' });
  await res.arrayBuffer();
  return res.status;
}
