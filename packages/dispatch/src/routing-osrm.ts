import { RoutingError } from './routing-error.ts';
import type { LatLon, RouteLeg, RoutingPort } from './types.ts';

// The routing adapter for any service speaking the OSRM HTTP route API (OSRM itself, Valhalla's
// OSRM-compatible output) at ROUTING_URL: one request per route, legs' distance and duration as
// answered, the full GeoJSON line cut into legs at the snapped waypoints.

export interface OsrmRoutingOptions {
  /** Abort a request after this long (default 10 s). */
  timeoutMs?: number;
  /** OSRM profile in the path (default 'driving'). */
  profile?: string;
}

/** The parts of an OSRM route response the adapter reads. */
interface OsrmResponse {
  code?: string;
  message?: string;
  routes?: Array<{
    geometry?: { type: string; coordinates: Array<[number, number]> };
    legs?: Array<{ distance: number; duration: number }>;
  }>;
  waypoints?: Array<{ location: [number, number] }>;
}

/** The index in coords nearest to `p` at or after `from` (waypoints come in order along the line). */
function nearestFrom(coords: ReadonlyArray<[number, number]>, p: [number, number], from: number): number {
  let best = from;
  let bestD = Infinity;
  const cos = Math.cos((p[1] * Math.PI) / 180);
  for (let i = from; i < coords.length; i++) {
    const dx = (coords[i]![0] - p[0]) * cos;
    const dy = coords[i]![1] - p[1];
    const d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Cuts the route's line into one line per leg at the waypoints; legs of a line too short get their two ends. */
export function splitLine(coords: ReadonlyArray<[number, number]>, waypoints: ReadonlyArray<[number, number]>): LatLon[][] {
  const cuts: number[] = [0];
  for (let w = 1; w < waypoints.length - 1; w++) cuts.push(nearestFrom(coords, waypoints[w]!, cuts[cuts.length - 1]!));
  cuts.push(coords.length - 1);
  const out: LatLon[][] = [];
  for (let l = 0; l + 1 < waypoints.length; l++) {
    const a = cuts[l]!;
    const b = cuts[l + 1]!;
    const piece = coords.slice(a, b + 1).map(([lon, lat]) => ({ lat, lon }));
    const start = { lat: waypoints[l]![1], lon: waypoints[l]![0] };
    const end = { lat: waypoints[l + 1]![1], lon: waypoints[l + 1]![0] };
    out.push(piece.length >= 2 ? piece : [start, end]);
  }
  return out;
}

/** Routing through an OSRM-compatible HTTP service; errors are RoutingError. */
export function osrmRouting(baseUrl: string, fetchImpl: typeof fetch = fetch, options: OsrmRoutingOptions = {}): RoutingPort {
  const base = baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const profile = options.profile ?? 'driving';
  return {
    kind: 'osrm',
    async route(points: LatLon[]): Promise<RouteLeg[]> {
      if (points.length < 2) return [];
      const coords = points.map((p) => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
      const url = `${base}/route/v1/${profile}/${coords}?overview=full&geometries=geojson&steps=false`;
      let res: Response;
      try {
        res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      } catch (e) {
        const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
        throw new RoutingError(
          timeout ? `routing service did not answer within ${timeoutMs} ms` : `routing service unreachable: ${String(e)}`,
          timeout ? 'TIMEOUT' : 'NETWORK',
          { cause: e },
        );
      }
      let body: OsrmResponse;
      try {
        body = (await res.json()) as OsrmResponse;
      } catch (e) {
        throw new RoutingError(`routing service answered HTTP ${res.status} without JSON`, `HTTP_${res.status}`, { cause: e });
      }
      if (body.code !== 'Ok') {
        throw new RoutingError(
          `routing service: ${body.code ?? `HTTP ${res.status}`}${body.message ? `: ${body.message}` : ''}`,
          body.code ?? `HTTP_${res.status}`,
        );
      }
      const route = body.routes?.[0];
      const legs = route?.legs ?? [];
      if (!route || legs.length !== points.length - 1)
        throw new RoutingError(`routing service answered ${legs.length} legs for ${points.length} points`, 'BAD_RESPONSE');
      const waypoints = body.waypoints?.length === points.length ? body.waypoints.map((w) => w.location) : points.map((p): [number, number] => [p.lon, p.lat]);
      const lines = splitLine(route.geometry?.coordinates ?? [], waypoints);
      return legs.map((leg, i) => ({ metres: leg.distance, seconds: leg.duration, line: lines[i]! }));
    },
  };
}
