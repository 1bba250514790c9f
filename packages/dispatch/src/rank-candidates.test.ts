// Candidate ranking: feasible first, then deadhead, then time left to drive; each excluded driver's
// reason; the routed second pass for the best of the first.
import { distanceM } from '@fleet/geo/distance';
import type { DutyPeriodInput, HosOptions } from '@fleet/hos';
import { describe, expect, it } from 'vitest';
import { compareCandidates, DETOUR_FACTOR, rankCandidates, rankCandidatesRouted, type CandidateDriver, type LoadToPlan } from './rank-candidates.ts';
import { RoutingError } from './routing-error.ts';
import type { LatLon, RouteLeg, RoutingPort } from './types.ts';

const H = 3_600_000;
const US: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
const NOW = Date.parse('2026-06-01T08:00:00-05:00');
const ST_LOUIS = { lat: 38.627, lon: -90.1994 };
const KANSAS_CITY = { lat: 39.0997, lon: -94.5786 };

const load: LoadToPlan = {
  firstStop: ST_LOUIS,
  stops: [
    { stopId: 'p', kind: 'PICKUP', windowStart: NOW, windowEnd: NOW + 12 * H, serviceMinutes: 60 },
    { stopId: 'd', kind: 'DELIVERY', windowStart: NOW, windowEnd: NOW + 14 * H, serviceMinutes: 60 },
  ],
  loadLegs: [{ metres: 400_000, seconds: 5 * 3600, line: [ST_LOUIS, KANSAS_CITY] }],
};

function driver(id: string, origin: LatLon, periods: DutyPeriodInput[] = [{ status: 'OFF', start: NOW - 48 * H, end: NOW }]): CandidateDriver {
  return { driverId: id, origin, drivers: [{ driverId: id, options: US, periods }] };
}

/** A driver who drove 10 of their 11 hours this morning. */
const tired: DutyPeriodInput[] = [
  { status: 'OFF', start: NOW - 30 * H, end: NOW - 12 * H },
  { status: 'D', start: NOW - 12 * H, end: NOW - 7 * H },
  { status: 'OFF', start: NOW - 7 * H, end: NOW - 6 * H },
  { status: 'D', start: NOW - 6 * H, end: NOW - 1 * H },
  { status: 'OFF', start: NOW - 1 * H, end: NOW },
];

/** A driver who drove 5 h this morning, 6 h into their window. */
const halfDay: DutyPeriodInput[] = [
  { status: 'OFF', start: NOW - 30 * H, end: NOW - 6 * H },
  { status: 'D', start: NOW - 6 * H, end: NOW - 1 * H },
  { status: 'OFF', start: NOW - 1 * H, end: NOW },
];

describe('rankCandidates', () => {
  it('puts drivers who deliver on time first, then the nearer, then the one with more hours, with reasons for the rest', () => {
    const near = { lat: 38.7, lon: -90.3 };
    const nearer = { lat: 38.65, lon: -90.25 };
    const ranked = rankCandidates(
      NOW,
      load,
      [driver('far', { lat: 41.88, lon: -87.63 }), driver('tired', nearer, tired), driver('near', near), driver('same-place', near, halfDay)],
      { timeZone: 'America/Chicago' },
    );
    expect(ranked.map((r) => [r.driverId, r.feasible])).toEqual([
      ['near', true],
      ['same-place', true],
      ['far', true],
      ['tired', false],
    ]);
    // Same place: the one with more time left to drive first.
    expect(ranked[0]!.remainingDriveMs).toBe(11 * H);
    expect(ranked[1]!.remainingDriveMs).toBe(6 * H);
    const tiredOne = ranked[3]!;
    expect(tiredOne.reason).toBe('driving time runs out in Missouri; earliest delivery Tue, Jun 2, 12:04 AM CDT, 2 h 4 min late');
    expect(tiredOne.remainingDriveMs).toBe(1 * H);
    expect(ranked[0]).toMatchObject({ reason: null, deadheadEstimated: true });
    expect(ranked[0]!.deadheadMetres).toBeCloseTo(distanceM(near, ST_LOUIS) * DETOUR_FACTOR, 3);
    expect(ranked[0]!.lastStopEta).toBeGreaterThan(NOW);
  });

  it('orders ties by the last stop ETA and then the id, so pages are stable', () => {
    const base = { feasible: true, deadheadMetres: 10, deadheadEstimated: false, remainingDriveMs: H, reason: null, issue: null };
    const sorted = [
      { ...base, driverId: 'b', lastStopEta: 5 },
      { ...base, driverId: 'a', lastStopEta: 5 },
      { ...base, driverId: 'c', lastStopEta: null },
      { ...base, driverId: 'd', lastStopEta: 4 },
    ].sort(compareCandidates);
    expect(sorted.map((r) => r.driverId)).toEqual(['d', 'a', 'b', 'c']);
  });
});

describe('rankCandidatesRouted', () => {
  it('routes the deadhead of the best exactTop of the first pass only, and keeps the estimate where routing fails', async () => {
    const asked: LatLon[][] = [];
    const routing: RoutingPort = {
      kind: 'osrm',
      route(points: LatLon[]): Promise<RouteLeg[]> {
        asked.push(points);
        if (points[0]!.lat === 38.66) return Promise.reject(new RoutingError('down', 'TIMEOUT'));
        const metres = distanceM(points[0]!, points[1]!) * 1.5;
        return Promise.resolve([{ metres, seconds: metres / 20, line: points }]);
      },
    };
    const a = driver('a', { lat: 38.65, lon: -90.25 });
    const b = driver('b', { lat: 38.66, lon: -90.25 });
    const c = driver('c', { lat: 39.5, lon: -91 });
    const ranked = await rankCandidatesRouted(routing, NOW, load, [c, b, a], { exactTop: 2 });
    expect(asked.map((p) => p[0])).toEqual([a.origin, b.origin]);
    expect(asked.every((p) => p[1] === ST_LOUIS)).toBe(true);
    const byId = new Map(ranked.map((r) => [r.driverId, r]));
    expect(byId.get('a')).toMatchObject({ deadheadEstimated: false });
    expect(byId.get('a')!.deadheadMetres).toBeCloseTo(distanceM(a.origin, ST_LOUIS) * 1.5, 3);
    expect(byId.get('b')).toMatchObject({ deadheadEstimated: true });
    expect(byId.get('c')).toMatchObject({ deadheadEstimated: true });
    // Re-ranked on the routed figure: b's estimate (×1.2) is now shorter than a's routed leg (×1.5).
    expect(ranked.map((r) => r.driverId)).toEqual(['b', 'a', 'c']);
  });
});
