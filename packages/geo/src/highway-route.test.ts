import { describe, expect, it } from 'vitest';
import { distanceM, pathLengthM } from './distance.ts';
import fc from 'fast-check';
import { highwayNetwork, highwayRoute, nearestNode, nearestNodePlain } from './highway-route.ts';
import { jurisdictionAt } from './jurisdictions.ts';

describe('highwayRoute', () => {
  it('finds the nearest junction as the plain exact search does, anywhere a truck or a typo can be', () => {
    const net = highwayNetwork();
    // North America and its waters, and far beyond (a fix at 0,0, Europe, Hawaii): the slack must hold at any distance.
    const anywhere = fc.record({ lat: fc.double({ min: -60, max: 80, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }) });
    const onTheRoad = fc.record({ lat: fc.double({ min: 25, max: 55, noNaN: true }), lon: fc.double({ min: -125, max: -65, noNaN: true }) });
    // (The plain search measures a junction 7,000 km away in 350 parts: the far points are fewer.)
    fc.assert(
      fc.property(onTheRoad, (p) => nearestNode(net, p) === nearestNodePlain(net, p)),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(anywhere, (p) => nearestNode(net, p) === nearestNodePlain(net, p)),
      { numRuns: 12 },
    );
    // Exactly on a junction, and halfway between two.
    for (let i = 0; i < net.adjacency.length; i += 97) {
      const p = { lat: net.nodes[2 * i + 1]!, lon: net.nodes[2 * i]! };
      expect(nearestNode(net, p)).toBe(nearestNodePlain(net, p));
      const q = { lat: (p.lat + net.nodes[2 * i + 3]!) / 2, lon: (p.lon + net.nodes[2 * i + 2]!) / 2 };
      expect(nearestNode(net, q)).toBe(nearestNodePlain(net, q));
    }
  });

  const oakland = { lat: 37.8044, lon: -122.2712 };
  const sacramento = { lat: 38.5816, lon: -121.4944 };

  it('runs from one point to the other over the bundled roads', () => {
    const route = highwayRoute(oakland, sacramento);
    expect(route[0]).toEqual(oakland);
    expect(route[route.length - 1]).toEqual(sacramento);
    expect(route.length).toBeGreaterThan(20);
    // I-80 is about 130 km; the straight line 110 km.
    const ratio = pathLengthM(route) / distanceM(oakland, sacramento);
    expect(ratio).toBeGreaterThan(1.05);
    expect(ratio).toBeLessThan(1.35);
    // No jumps: Natural Earth's longest straight step here is I-80 from Vacaville to Davis, 21.6 km.
    for (let i = 1; i < route.length; i++) expect(distanceM(route[i - 1]!, route[i]!)).toBeLessThan(25_000);
  });

  it('stays on land in the states between, and goes both ways', () => {
    const salt = { lat: 40.7608, lon: -111.891 };
    const cheyenne = { lat: 41.14, lon: -104.8202 };
    const east = highwayRoute(salt, cheyenne);
    const states = new Set(east.map((p) => jurisdictionAt(p.lat, p.lon)?.code));
    expect([...states].sort()).toEqual(['UT', 'WY']);
    expect(pathLengthM(highwayRoute(cheyenne, salt))).toBeCloseTo(pathLengthM(east), -2);
  });

  it('is one connected network', () => {
    const net = highwayNetwork();
    const seen = new Uint8Array(net.adjacency.length);
    const stack = [0];
    seen[0] = 1;
    while (stack.length) {
      const adj = net.adjacency[stack.pop()!]!;
      for (let k = 0; k < adj.length; k += 3) {
        if (!seen[adj[k]!]) {
          seen[adj[k]!] = 1;
          stack.push(adj[k]!);
        }
      }
    }
    expect(seen.every((v) => v === 1)).toBe(true);
  });
});
