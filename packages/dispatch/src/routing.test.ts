// The routing adapters: the OSRM HTTP adapter against recorded responses (fixtures written by hand
// from the OSRM route API documentation: no OSRM server was reachable from the build machine), and the
// built-in adapter over the bundled road network.
import { readFileSync } from 'node:fs';
import { distanceM } from '@fleet/geo/distance';
import { describe, expect, it } from 'vitest';
import { builtInRouting, BUILT_IN_SPEED_MPS } from './routing-builtin.ts';
import { RoutingError } from './routing-error.ts';
import { osrmRouting, splitLine } from './routing-osrm.ts';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const CHICAGO = { lat: 41.8781, lon: -87.6298 };
const ST_LOUIS = { lat: 38.627, lon: -90.1994 };
const KANSAS_CITY = { lat: 39.0997, lon: -94.5786 };

/** A fetch that answers `body` with `status` and records the URLs asked. */
function recorded(body: string, status = 200): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  const f = (input: string | URL | Request): Promise<Response> => {
    urls.push(String(input));
    return Promise.resolve(new Response(body, { status, headers: { 'content-type': 'application/json' } }));
  };
  return { fetch: f as typeof fetch, urls };
}

describe('osrmRouting', () => {
  it('asks the route service once and answers each leg with its distance, duration and part of the line', async () => {
    const { fetch, urls } = recorded(fixture('osrm-route-chicago-stlouis-kansascity.json'));
    const legs = await osrmRouting('http://osrm.test:5000/', fetch).route([CHICAGO, ST_LOUIS, KANSAS_CITY]);
    expect(urls).toEqual([
      'http://osrm.test:5000/route/v1/driving/-87.629800,41.878100;-90.199400,38.627000;-94.578600,39.099700?overview=full&geometries=geojson&steps=false',
    ]);
    expect(legs.map((l) => [l.metres, l.seconds])).toEqual([
      [478893.4, 17228.9],
      [399811.2, 13874.1],
    ]);
    // The line is cut at the snapped St. Louis waypoint: the first leg ends there, the second starts there.
    expect(legs[0]!.line[0]).toEqual({ lat: 41.878114, lon: -87.629798 });
    expect(legs[0]!.line.at(-1)).toEqual({ lat: 38.627003, lon: -90.199404 });
    expect(legs[1]!.line[0]).toEqual({ lat: 38.627003, lon: -90.199404 });
    expect(legs[1]!.line.at(-1)).toEqual({ lat: 39.099792, lon: -94.578331 });
    expect(legs[0]!.line.length + legs[1]!.line.length).toBe(28 + 1);
  });

  it('answers a non-Ok code as a RoutingError carrying the code and message', async () => {
    const { fetch } = recorded(fixture('osrm-no-route.json'), 400);
    const err = await osrmRouting('http://osrm.test', fetch)
      .route([CHICAGO, { lat: 21.3, lon: -157.8 }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RoutingError);
    expect(err).toMatchObject({ code: 'NoRoute', message: 'routing service: NoRoute: Impossible route between points' });
    const bad = await osrmRouting('http://osrm.test', recorded(fixture('osrm-invalid-query.json'), 400).fetch)
      .route([CHICAGO, ST_LOUIS])
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ name: 'RoutingError', code: 'InvalidQuery' });
  });

  it('answers a non-JSON error page and an unreachable service as RoutingError', async () => {
    const html = await osrmRouting('http://osrm.test', recorded('<html>502 Bad Gateway</html>', 502).fetch)
      .route([CHICAGO, ST_LOUIS])
      .catch((e: unknown) => e);
    expect(html).toMatchObject({ name: 'RoutingError', code: 'HTTP_502' });
    const refused = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
    const down = await osrmRouting('http://osrm.test', refused)
      .route([CHICAGO, ST_LOUIS])
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ name: 'RoutingError', code: 'NETWORK' });
  });

  it('gives up after the timeout with a TIMEOUT RoutingError', async () => {
    // A service that never answers: the request only ends when the adapter's signal aborts it.
    const hanging = ((_url: string, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
      })) as typeof fetch;
    const started = Date.now();
    const err = await osrmRouting('http://osrm.test', hanging, { timeoutMs: 50 })
      .route([CHICAGO, ST_LOUIS])
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RoutingError', code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers a response with the wrong number of legs as BAD_RESPONSE', async () => {
    const body = JSON.parse(fixture('osrm-route-chicago-stlouis-kansascity.json')) as { routes: Array<{ legs: unknown[] }> };
    body.routes[0]!.legs.pop();
    const err = await osrmRouting('http://osrm.test', recorded(JSON.stringify(body)).fetch)
      .route([CHICAGO, ST_LOUIS, KANSAS_CITY])
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RoutingError', code: 'BAD_RESPONSE' });
  });

  it('splits a line without the waypoints on it into straight legs between the waypoints', () => {
    expect(
      splitLine(
        [],
        [
          [-87.6, 41.9],
          [-90.2, 38.6],
        ],
      ),
    ).toEqual([
      [
        { lat: 41.9, lon: -87.6 },
        { lat: 38.6, lon: -90.2 },
      ],
    ]);
  });
});

describe('builtInRouting', () => {
  it('routes over the bundled roads: longer than the straight line, time at the documented speed, labelled estimated', async () => {
    const routing = builtInRouting();
    expect(routing.kind).toBe('estimated');
    const [leg] = await routing.route([CHICAGO, ST_LOUIS]);
    const straight = distanceM(CHICAGO, ST_LOUIS);
    expect(leg!.metres).toBeGreaterThan(straight);
    expect(leg!.metres).toBeLessThan(straight * 1.4);
    expect(leg!.seconds).toBeCloseTo(leg!.metres / BUILT_IN_SPEED_MPS, 6);
    expect(leg!.line[0]).toEqual(CHICAGO);
    expect(leg!.line.at(-1)).toEqual(ST_LOUIS);
  });

  it('caches legs by rounded endpoints', async () => {
    const routing = builtInRouting();
    const a = routing.leg(CHICAGO, KANSAS_CITY);
    // 20 m away: the same rounded endpoints, the same leg object.
    expect(routing.leg({ lat: CHICAGO.lat + 0.0002, lon: CHICAGO.lon }, KANSAS_CITY)).toBe(a);
    expect(routing.leg(KANSAS_CITY, CHICAGO)).not.toBe(a);
    const [b, c] = await routing.route([CHICAGO, KANSAS_CITY, CHICAGO]);
    expect(b).toBe(a);
    expect(c!.metres).toBeGreaterThan(0);
  });
});
