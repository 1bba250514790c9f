import { describe, expect, it } from 'vitest';
import type { LatLon, RouteLeg, RoutingPort } from '@fleet/dispatch';
import { testConfig } from '../../config.ts';
import { CachedRouting, routingOf } from './routing.ts';

// The routing port by configuration (decision 0167): ROUTING_URL picks the OSRM adapter, else the
// built-in network labelled "estimated"; a service's legs are asked once per pair of points.

describe('routing port', () => {
  it('is the OSRM adapter with ROUTING_URL, the built-in network without', () => {
    expect(routingOf(testConfig()).kind).toBe('estimated');
    expect(routingOf(testConfig({ routingUrl: 'http://osrm.test:5000' })).kind).toBe('osrm');
  });

  it('asks the service once for a pair of points (within ~100 m), leg by leg', async () => {
    const asked: LatLon[][] = [];
    const port: RoutingPort = {
      kind: 'osrm',
      route: (points) => {
        asked.push(points);
        return Promise.resolve(points.slice(1).map((p, i): RouteLeg => ({ metres: 1000 * (i + 1), seconds: 60, line: [points[i]!, p] })));
      },
    };
    const cached = new CachedRouting(port);
    const a = { lat: 35, lon: -97 };
    const b = { lat: 36, lon: -96 };
    const c = { lat: 37, lon: -95 };
    expect((await cached.route([a, b, c])).map((l) => l.metres)).toEqual([1000, 1000]);
    expect(asked).toHaveLength(2);
    await cached.route([{ lat: 35.0002, lon: -97.0003 }, b]);
    await cached.route([b, c]);
    expect(asked).toHaveLength(2);
  });
});
