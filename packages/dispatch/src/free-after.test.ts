// A driver on other loads (issue 46, decision 0187): planned from where and when those loads end,
// with the clocks the planner's own plan of them leaves; ranked on that.
import { auditLog, clocksAt, type HosOptions } from '@fleet/hos';
import { describe, expect, it } from 'vitest';
import { busyPoints, freeAfter, type BusyLoad } from './free-after.ts';
import { rankCandidates, type CandidateDriver, type LoadToPlan } from './rank-candidates.ts';
import type { LatLon, PlanDriver, RouteLeg } from './types.ts';

const H = 3_600_000;
const US: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
const NOW = Date.parse('2026-06-01T06:00:00-05:00');
const CHICAGO = { lat: 41.8781, lon: -87.6298 };
const MINNEAPOLIS = { lat: 44.9778, lon: -93.265 };
const MILWAUKEE = { lat: 43.0389, lon: -87.9065 };

/** A leg at 55 mph over `miles`. */
const leg = (from: LatLon, to: LatLon, miles: number): RouteLeg => ({ metres: miles * 1609.344, seconds: (miles / 55) * 3600, line: [from, to] });
const rested = (id: string): PlanDriver => ({ driverId: id, options: US, periods: [{ status: 'OFF', start: NOW - 48 * H, end: NOW }] });

/** On the road from Chicago to Minneapolis (410 miles, 7.5 h), delivering from 1 PM. */
const toMinneapolis: BusyLoad = {
  loadId: 'L-1064',
  drivers: [rested('busy')],
  stops: [{ stopId: 'd', kind: 'DELIVERY', windowStart: NOW + 7 * H, windowEnd: NOW + 12 * H, serviceMinutes: 60, ...MINNEAPOLIS }],
};

describe('freeAfter', () => {
  it('ends at the last stop when its service is done, with the driver’s log grown by the plan and their clocks there', () => {
    const legs = [[leg(CHICAGO, MINNEAPOLIS, 410)]];
    expect(busyPoints(CHICAGO, [toMinneapolis])).toEqual([[CHICAGO, MINNEAPOLIS]]);
    const free = freeAfter(NOW, rested('busy'), CHICAGO, [toMinneapolis], legs);
    // 7.45 h of driving with a 30-minute break after 8 h is not needed; then an hour unloading.
    expect(free.loadId).toBe('L-1064');
    expect(free.where).toEqual(MINNEAPOLIS);
    expect(free.at).toBeGreaterThan(NOW + 8 * H);
    expect(free.at).toBeLessThan(NOW + 9 * H);
    expect(free.finished).toBe(true);
    // The engine reads the clocks off the grown log: 11 h less the drive, 14 h less the shift.
    const c = clocksAt(free.driver.periods, free.at, US).strict;
    expect(free.clocks).toEqual(c);
    expect(free.clocks.driveMs).toBeLessThan(3.6 * H);
    expect(free.clocks.windowMs).toBeLessThan(6 * H);
    expect(
      auditLog(
        free.driver.periods.map((p) => ({ ...p })),
        US,
      ).violations,
    ).toEqual([]);
  });

  it('chains a second load from where the first ends', () => {
    const next: BusyLoad = {
      loadId: 'L-1065',
      drivers: [rested('busy')],
      stops: [
        { stopId: 'p2', kind: 'PICKUP', windowStart: NOW, windowEnd: NOW + 40 * H, serviceMinutes: 60, ...MINNEAPOLIS },
        { stopId: 'd2', kind: 'DELIVERY', windowStart: NOW, windowEnd: NOW + 60 * H, serviceMinutes: 60, ...MILWAUKEE },
      ],
    };
    const pts = busyPoints(CHICAGO, [toMinneapolis, next]);
    expect(pts[1]).toEqual([MINNEAPOLIS, MINNEAPOLIS, MILWAUKEE]);
    const legs = [[leg(CHICAGO, MINNEAPOLIS, 410)], [leg(MINNEAPOLIS, MINNEAPOLIS, 0), leg(MINNEAPOLIS, MILWAUKEE, 337)]];
    const free = freeAfter(NOW, rested('busy'), CHICAGO, [toMinneapolis, next], legs);
    expect(free.loadId).toBe('L-1065');
    expect(free.where).toEqual(MILWAUKEE);
    // 13.6 h of driving in all: a 10-hour rest in between.
    expect(free.at).toBeGreaterThan(NOW + 24 * H);
    expect(
      auditLog(
        free.driver.periods.map((p) => ({ ...p })),
        US,
      ).violations,
    ).toEqual([]);
  });
});

describe('ranking a driver on another load', () => {
  // A Chicago pick-up from 11:56 AM to 2 PM, delivered in Milwaukee by evening.
  const load: LoadToPlan = {
    firstStop: CHICAGO,
    stops: [
      { stopId: 'p', kind: 'PICKUP', windowStart: NOW + 6 * H, windowEnd: NOW + 8 * H, serviceMinutes: 60 },
      { stopId: 'd', kind: 'DELIVERY', windowStart: NOW + 6 * H, windowEnd: NOW + 14 * H, serviceMinutes: 60 },
    ],
    loadLegs: [leg(CHICAGO, MILWAUKEE, 92)],
  };
  const busy: CandidateDriver = {
    driverId: 'busy',
    origin: CHICAGO,
    drivers: [rested('busy')],
    busy: [toMinneapolis],
    busyLegs: [[leg(CHICAGO, MINNEAPOLIS, 410)]],
  };

  it('is not on time where they would be if free, and says where and when they are free', () => {
    const [asIfFree] = rankCandidates(NOW, load, [{ ...busy, busy: undefined, busyLegs: undefined }]);
    expect(asIfFree!.feasible).toBe(true);
    const [r] = rankCandidates(NOW, load, [busy], { timeZone: 'America/Chicago' });
    expect(r!.feasible).toBe(false);
    expect(r!.after?.loadId).toBe('L-1064');
    expect(r!.startsFrom).toEqual(MINNEAPOLIS);
    expect(r!.startsAt).toBeGreaterThan(NOW + 8 * H);
    expect(r!.reason).toMatch(/late/);
    // The deadhead is from Minneapolis; the clocks are those they will have there.
    expect(r!.deadheadMetres).toBeGreaterThan(400 * 1609);
    expect(r!.remainingDriveMs).toBe(Math.min(r!.after!.clocks.driveMs, r!.after!.clocks.windowMs, r!.after!.clocks.cycleMs));
    expect(r!.remainingDriveMs).toBeLessThan(3.6 * H);
  });
});
