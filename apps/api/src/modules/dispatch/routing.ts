import { builtInRouting, osrmRouting, type LatLon, type RouteLeg, type RoutingPort } from '@fleet/dispatch';
import type { Config } from '../../config.ts';

// The routing port chosen by configuration (issue 33, decision 0167): a routing service with the
// OSRM HTTP API at ROUTING_URL, else the built-in road network ("estimated"). Legs between the same
// two points are asked once: a load's stops do not move, and candidates and live ETAs reuse them.

/** Points closer than this (degrees, about 100 m) share a cached leg. */
const GRID = 1e-3;
const keyOf = (p: LatLon) => `${Math.round(p.lat / GRID)},${Math.round(p.lon / GRID)}`;

export class CachedRouting implements RoutingPort {
  private readonly legs = new Map<string, RouteLeg>();
  constructor(
    private readonly port: RoutingPort,
    private readonly maxLegs = 20_000,
  ) {}

  get kind(): RoutingPort['kind'] {
    return this.port.kind;
  }

  /** Legs between consecutive points; only the pairs not seen before are asked of the port, a leg each. */
  async route(points: LatLon[]): Promise<RouteLeg[]> {
    const out: Array<RouteLeg | undefined> = [];
    const missing: number[] = [];
    for (let i = 1; i < points.length; i++) {
      const leg = this.legs.get(`${keyOf(points[i - 1]!)}>${keyOf(points[i]!)}`);
      out.push(leg);
      if (!leg) missing.push(i);
    }
    for (const i of missing) {
      const [leg] = await this.port.route([points[i - 1]!, points[i]!]);
      if (!leg) throw new Error('The routing service answered no leg');
      if (this.legs.size >= this.maxLegs) this.legs.delete(this.legs.keys().next().value!);
      this.legs.set(`${keyOf(points[i - 1]!)}>${keyOf(points[i]!)}`, leg);
      out[i - 1] = leg;
    }
    return out as RouteLeg[];
  }
}

const ports = new WeakMap<Config, RoutingPort>();

/**
 * The configured routing port, one per configuration (its cache shared by plans, candidates and live
 * ETAs). The built-in router keeps its own cache of legs; a routing service's answers are cached here.
 */
export function routingOf(config: Config): RoutingPort {
  let r = ports.get(config);
  if (!r) ports.set(config, (r = config.routingUrl ? new CachedRouting(osrmRouting(config.routingUrl)) : builtInRouting()));
  return r;
}
