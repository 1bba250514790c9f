import http from 'node:http';
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

/** Kept-alive connections to the server's own port: the demo's phones post every 10 s. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * Posts one fix to an OsmAnd endpoint over plain HTTP (`target` is its URL, e.g.
 * http://127.0.0.1:5055/; the demo posts to its own server). Through node:http rather than fetch:
 * fetch would load undici into the server for this alone, and allocates several times more a request.
 */
export function postFix(target: string, uniqueId: string, t: number, s: TruckState): Promise<number> {
  const sep = target.includes('?') ? '&' : '?';
  return new Promise((resolve, reject) => {
    const req = http.request(`${target}${sep}${osmandQuery(uniqueId, t, s)}`, { method: 'POST', agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}
