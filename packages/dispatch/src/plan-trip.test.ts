// The planner's timeline rules, one case each (US property 70/8 in Chicago time unless a case says so;
// rule ids from shared/reference/hos-rules.md).
import { auditLog, type DutyPeriodInput, type HosOptions } from '@fleet/hos';
import { describe, expect, it } from 'vitest';
import { planDutyPeriods } from './duty-log.ts';
import { planTrip } from './plan-trip.ts';
import { formatDuration, formatPlanReason } from './reason.ts';
import type { LatLon, PlanDriver, PlanInput, PlannedSegment, PlanStop, RouteLeg } from './types.ts';

const MIN = 60_000;
const H = 60 * MIN;
const SPEED = 25; // m/s on the test legs
const US: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
const NOW = Date.parse('2026-06-01T08:00:00-05:00'); // a Monday
const ST_LOUIS = { lat: 38.627, lon: -90.1994 };
const KANSAS_CITY = { lat: 39.0997, lon: -94.5786 };
const DENVER = { lat: 39.7392, lon: -104.9903 };

/** A straight leg of `hours` at SPEED. */
function leg(hours: number, from: LatLon = ST_LOUIS, to: LatLon = KANSAS_CITY): RouteLeg {
  return { metres: hours * 3600 * SPEED, seconds: hours * 3600, line: [from, to] };
}

function stop(id: string, kind: PlanStop['kind'], windowStart: number, windowEnd: number, serviceMinutes = 0): PlanStop {
  return { stopId: id, kind, windowStart, windowEnd, serviceMinutes };
}

/** A driver rested for two days before NOW. */
function rested(driverId = 'd1', options: HosOptions = US): PlanDriver {
  return { driverId, options, periods: [{ status: 'OFF', start: NOW - 48 * H, end: NOW }] };
}

const far = NOW + 30 * 24 * H;

function input(drivers: PlanDriver[], stops: PlanStop[], legs: RouteLeg[], origin: LatLon = ST_LOUIS): PlanInput {
  return { now: NOW, origin, drivers, stops, legs, timeZone: 'America/Chicago' };
}

/** kind and hours of each segment, for readable expectations. */
function shape(segments: PlannedSegment[]): string[] {
  return segments.map((s) => `${s.kind} ${+((s.end - s.start) / H).toFixed(2)}`);
}

function legal(plan: ReturnType<typeof planTrip>, drivers: PlanDriver[]): void {
  for (const d of drivers) {
    const all: DutyPeriodInput[] = [...d.periods, ...planDutyPeriods(plan.segments, d.driverId, drivers.length > 1)];
    expect(auditLog(all, d.options).violations).toEqual([]);
  }
}

describe('planTrip: one driver', () => {
  it('drives 8 h, takes the 30-minute break (P4), drives to 11 h, rests 10 h (P3, P1), and goes on', () => {
    const drivers = [rested()];
    const plan = planTrip(input(drivers, [stop('s1', 'DELIVERY', NOW, far)], [leg(15)]));
    expect(shape(plan.segments)).toEqual(['DRIVE 8', 'BREAK 0.5', 'DRIVE 3', 'REST 10', 'DRIVE 4']);
    expect(plan.segments[1]!.clock).toBe('BREAK');
    expect(plan.segments[3]!.clock).toBe('DRIVE');
    expect(plan.stops).toEqual([{ stopId: 's1', eta: NOW + 25.5 * H, windowMet: true }]);
    expect(plan.feasible).toBe(true);
    expect(plan.reason).toBeNull();
    expect(plan.clocksAtDelivery).toMatchObject({ driveMs: 7 * H, windowMs: 10 * H, breakMs: 4 * H });
    legal(plan, drivers);
  });

  it('rests when the 14-hour window runs out before the 11 hours of driving (P2)', () => {
    // On duty 6 h before the trip (loading): the window ends 8 h into it.
    const drivers: PlanDriver[] = [
      {
        driverId: 'd1',
        options: US,
        periods: [
          { status: 'OFF', start: NOW - 40 * H, end: NOW - 6 * H },
          { status: 'ON', start: NOW - 6 * H, end: NOW },
        ],
      },
    ];
    const plan = planTrip(input(drivers, [stop('s1', 'DELIVERY', NOW, far)], [leg(10)]));
    expect(shape(plan.segments)).toEqual(['DRIVE 8', 'REST 10', 'DRIVE 2']);
    expect(plan.segments[1]!.clock).toBe('WINDOW');
    legal(plan, drivers);
  });

  it('takes a 34-hour restart when the cycle is out and a rest would not bring enough hours back (P5, P6)', () => {
    // 10 h on duty on each of the last 7 days: 70 h in 8 days.
    const periods: DutyPeriodInput[] = [];
    let t = NOW - 7 * 24 * H - 8 * H; // midnight, 7 days ago
    periods.push({ status: 'OFF', start: t - 24 * H, end: t });
    for (let d = 0; d < 7; d++) {
      periods.push({ status: 'ON', start: t, end: t + 10 * H }, { status: 'OFF', start: t + 10 * H, end: t + 24 * H });
      t += 24 * H;
    }
    periods.push({ status: 'OFF', start: t, end: NOW });
    const drivers: PlanDriver[] = [{ driverId: 'd1', options: US, periods }];
    const plan = planTrip(input(drivers, [stop('s1', 'DELIVERY', NOW, NOW + 4 * H)], [leg(5)]));
    // Off since 10:00 yesterday: 12 more hours make the 34.
    expect(shape(plan.segments)).toEqual(['RESTART 12', 'DRIVE 5']);
    expect(plan.segments[0]!.note).toBe('cycle restart: cycle runs out');
    expect(plan.feasible).toBe(false);
    expect(plan.issue).toMatchObject({ kind: 'LATE', clock: 'CYCLE', jurisdiction: 'MO', lateMs: 13 * H, rest: 'RESTART', restMs: 12 * H });
    expect(plan.reason).toBe('cycle runs out in Missouri; earliest delivery Tue, Jun 2, 1:00 AM CDT, 13 h late');
    legal(plan, drivers);
  });

  it('takes a 10-hour rest instead of a restart when the rest rolls enough hours off the cycle', () => {
    // 70 h used at 17:00 today, 14 of them on the oldest day, which drops off at midnight.
    const midnight = NOW - 8 * H;
    const now = midnight + 17 * H;
    const periods: DutyPeriodInput[] = [];
    let t = midnight - 7 * 24 * H;
    periods.push({ status: 'OFF', start: t - 24 * H, end: t });
    for (const h of [14, 8, 8, 8, 8, 7, 7]) {
      periods.push({ status: 'ON', start: t, end: t + h * H }, { status: 'OFF', start: t + h * H, end: t + 24 * H });
      t += 24 * H;
    }
    periods.push({ status: 'OFF', start: t, end: t + 7 * H }, { status: 'ON', start: t + 7 * H, end: now });
    const drivers: PlanDriver[] = [{ driverId: 'd1', options: US, periods }];
    const plan = planTrip({ ...input(drivers, [stop('s1', 'DELIVERY', now, far)], [leg(5)]), now });
    expect(shape(plan.segments)).toEqual(['REST 10', 'DRIVE 5']);
    expect(plan.segments[0]).toMatchObject({ kind: 'REST', clock: 'CYCLE', note: 'rest: cycle runs out' });
    expect(plan.remainingDriveMs).toBe(0);
    legal(plan, drivers);
  });

  it('waits for the oldest day to roll off at midnight when that comes before a restart would end', () => {
    // 70 h at 08:00 after 8 h on duty since midnight; the oldest day's 14 h drop off at midnight.
    const midnight = NOW - 8 * H;
    const periods: DutyPeriodInput[] = [];
    let t = midnight - 7 * 24 * H;
    periods.push({ status: 'OFF', start: t - 24 * H, end: t });
    for (const h of [14, 8, 8, 8, 8, 8, 8]) {
      periods.push({ status: 'ON', start: t, end: t + h * H }, { status: 'OFF', start: t + h * H, end: t + 24 * H });
      t += 24 * H;
    }
    periods.push({ status: 'ON', start: t, end: NOW });
    const drivers: PlanDriver[] = [{ driverId: 'd1', options: US, periods }];
    const plan = planTrip(input(drivers, [stop('s1', 'DELIVERY', NOW, far)], [leg(9)]));
    expect(shape(plan.segments)).toEqual(['REST 16', 'DRIVE 8', 'BREAK 0.5', 'DRIVE 1']);
    expect(plan.segments[0]).toMatchObject({ clock: 'CYCLE' });
    legal(plan, drivers);
  });

  it('waits off duty for a window to open (counted as rest), then works the stop on duty', () => {
    const drivers = [rested()];
    const stops = [stop('p', 'PICKUP', NOW + 5 * H, NOW + 7 * H, 90), stop('d', 'DELIVERY', NOW, far, 30)];
    const plan = planTrip(input(drivers, stops, [leg(1), leg(2)]));
    expect(shape(plan.segments)).toEqual(['DEADHEAD 1', 'REST 4', 'STOP 1.5', 'DRIVE 2', 'STOP 0.5']);
    expect(plan.segments[1]).toMatchObject({ stopId: 'p', clock: null, note: 'off duty: waiting for the appointment window' });
    expect(plan.segments[2]).toMatchObject({ stopId: 'p', driverId: 'd1', note: 'loading' });
    expect(plan.stops.map((s) => s.eta)).toEqual([NOW + 1 * H, NOW + 8.5 * H]);
    expect(plan.deadheadMetres).toBe(3600 * SPEED);
    expect(planDutyPeriods(plan.segments, 'd1', false).map((p) => p.status)).toEqual(['D', 'OFF', 'ON', 'D', 'ON']);
    legal(plan, drivers);
  });

  it('drives loaded from the start when the first stop left is a delivery; a stop already reached is not driven to', () => {
    const drivers = [rested()];
    const delivery = planTrip(input(drivers, [stop('d', 'DELIVERY', NOW, far)], [leg(1)]));
    expect(delivery.segments.map((s) => s.kind)).toEqual(['DRIVE']);
    expect(delivery.deadheadMetres).toBe(0);
    const atPickup: PlanStop = { ...stop('p', 'PICKUP', NOW - 2 * H, NOW + 2 * H, 60), arrivedAt: NOW - 30 * MIN };
    const plan = planTrip(input(drivers, [atPickup, stop('d', 'DELIVERY', NOW, far)], [leg(0), leg(1)]));
    expect(shape(plan.segments)).toEqual(['STOP 0.5', 'DRIVE 1']);
    expect(plan.stops[0]).toEqual({ stopId: 'p', eta: NOW - 30 * MIN, windowMet: true });
  });

  it('reports a missed window with the clock, the state and how late, in the reader zone', () => {
    const drivers = [rested()];
    const plan = planTrip({
      ...input(drivers, [stop('d', 'DELIVERY', NOW, NOW + 12 * H)], [leg(14, KANSAS_CITY, DENVER)], KANSAS_CITY),
      timeZone: 'America/Denver',
    });
    expect(plan.feasible).toBe(false);
    expect(plan.stops[0]!.windowMet).toBe(false);
    // The rest starts 11/14 of the way to Denver (the line is straight), in eastern Colorado.
    expect(plan.issue).toMatchObject({ clock: 'DRIVE', jurisdiction: 'CO', stopId: 'd', lateMs: 12.5 * H });
    expect(plan.reason).toBe('driving time runs out in Colorado; earliest delivery Tue, Jun 2, 7:30 AM MDT, 13 h late');
  });

  it('fills a gap before now with off-duty time and cuts a period running past now', () => {
    const drivers: PlanDriver[] = [
      {
        driverId: 'd1',
        options: US,
        periods: [
          { status: 'OFF', start: NOW - 30 * H, end: NOW - 12 * H },
          { status: 'D', start: NOW - 12 * H, end: NOW - 2 * H },
          { status: 'ON', start: NOW - 2 * H, end: NOW + 5 * H },
        ],
      },
    ];
    const given = input(drivers, [stop('d', 'DELIVERY', NOW, far)], [leg(3)]);
    const before = structuredClone(given);
    const plan = planTrip(given);
    // 10 h driven, 12 h into the window: one more hour of driving, then a rest.
    expect(shape(plan.segments)).toEqual(['DRIVE 1', 'REST 10', 'DRIVE 2']);
    expect(plan.remainingDriveMs).toBe(1 * H);
    // Pure: the caller's log is not touched, and the same input gives the same plan.
    expect(given).toEqual(before);
    expect(planTrip(given)).toEqual(plan);
  });

  it('plans other rulesets from the engine: US passenger (10 h driving after 8 h off) and Canada (13 h)', () => {
    for (const ruleset of ['US_PASSENGER_70_8', 'CA_SOUTH_CYCLE_1', 'TX_INTRASTATE', 'CA_INTRASTATE'] as const) {
      const drivers = [rested('d1', { ruleset, timeZone: 'America/Chicago' })];
      const plan = planTrip(input(drivers, [stop('d', 'DELIVERY', NOW, far)], [leg(30)]));
      const first = plan.segments.find((s) => s.kind === 'REST');
      expect(first, ruleset).toBeDefined();
      legal(plan, drivers);
    }
  });

  it('plans the Florida, Alaska and Mexican rulesets from the engine (issue 72), Mexico with its pause after 5 h of driving', () => {
    for (const ruleset of ['FL_INTRASTATE_70_7', 'AK_PROPERTY_80_8', 'AK_PASSENGER_70_7', 'MX_NOM_087'] as const) {
      const drivers = [rested('d1', { ruleset, timeZone: 'America/Chicago' })];
      const plan = planTrip(input(drivers, [stop('d', 'DELIVERY', NOW, far)], [leg(30)]));
      expect(
        plan.segments.find((s) => s.kind === 'REST'),
        ruleset,
      ).toBeDefined();
      legal(plan, drivers);
      if (ruleset === 'MX_NOM_087') {
        const firstStop = plan.segments.findIndex((s) => s.kind !== 'DRIVE');
        const before = plan.segments.slice(0, firstStop).reduce((sum, s) => sum + (s.end - s.start), 0);
        expect(before).toBeLessThanOrEqual(5 * H);
      }
    }
  });
});

describe('planTrip: sleeper-berth split', () => {
  // Yesterday: 10 h off, 6 h driving, 7 h in the berth, 3 h driving, then off until now: a 7/3 splitter.
  const t0 = NOW - 30 * H;
  const splitter: PlanDriver = {
    driverId: 'd1',
    options: US,
    periods: [
      { status: 'OFF', start: t0 - 10 * H, end: t0 },
      { status: 'D', start: t0, end: t0 + 6 * H },
      { status: 'SB', start: t0 + 6 * H, end: t0 + 13 * H },
      { status: 'D', start: t0 + 13 * H, end: t0 + 16 * H },
      { status: 'OFF', start: t0 + 16 * H, end: NOW },
    ],
  };
  // A pick-up 5 h away whose window opens 3 h after arrival, then 12 h to the delivery.
  const stops = [stop('p', 'PICKUP', NOW + 8 * H, far, 60), stop('d', 'DELIVERY', NOW, far)];

  it('plans 7/3 splits for a driver whose log shows them (P8, P9): the wait pairs with the berth', () => {
    const plan = planTrip(input([splitter], stops, [leg(5), leg(12)]));
    expect(shape(plan.segments)).toEqual(['DEADHEAD 5', 'REST 3', 'STOP 1', 'DRIVE 6', 'REST 7', 'DRIVE 5', 'REST 3', 'DRIVE 1']);
    expect(plan.segments.filter((s) => s.split).map((s) => [s.split, (s.end - s.start) / H, s.sleeper])).toEqual([
      ['SPLIT_7_3', 7, true],
      ['SPLIT_7_3', 3, false],
    ]);
    expect(planDutyPeriods(plan.segments, 'd1', false).filter((p) => p.status === 'SB')).toHaveLength(1);
    legal(plan, [splitter]);
    // The same trip for a driver who does not split: a 10-hour rest, no earlier.
    const plain = planTrip(input([rested()], stops, [leg(5), leg(12)]));
    expect(shape(plain.segments)).toEqual(['DEADHEAD 5', 'REST 3', 'STOP 1', 'DRIVE 5', 'REST 10', 'DRIVE 7']);
    expect(plain.stops[1]!.eta).toBeGreaterThanOrEqual(plan.stops[1]!.eta);
  });

  it('keeps full rests for a splitter when splitting would deliver later, and completes a pair after the last stop', () => {
    // Straight driving: a split gains nothing over 10 h off, and the 30-minute break is cheaper than a berth period.
    const plan = planTrip(input([splitter], [stop('d', 'DELIVERY', NOW, far)], [leg(20)]));
    expect(plan.segments.some((s) => s.split)).toBe(false);
    expect(shape(plan.segments)).toEqual(['DRIVE 8', 'BREAK 0.5', 'DRIVE 3', 'REST 10', 'DRIVE 8', 'BREAK 0.5', 'DRIVE 1']);
    // Ends in the middle of a pair: the short part is planned after the delivery.
    const short = planTrip(input([splitter], stops, [leg(5), leg(8)]));
    const last = short.segments.at(-1)!;
    expect(last).toMatchObject({ kind: 'REST', split: 'SPLIT_7_3', start: short.endsAt });
    expect(last.end - last.start).toBe(3 * H);
    expect(short.stops[1]!.eta).toBe(short.endsAt);
    legal(short, [splitter]);
  });
});

describe('planTrip: team drivers', () => {
  it('alternate at the wheel while the other is in the sleeper berth, and arrive well before a solo driver would', () => {
    const team = [rested('a'), rested('b')];
    const stops = [stop('d', 'DELIVERY', NOW, far)];
    const plan = planTrip(input(team, stops, [leg(40)]));
    const solo = planTrip(input([rested('a')], stops, [leg(40)]));
    expect(new Set(plan.segments.filter((s) => s.kind === 'DRIVE').map((s) => s.driverId))).toEqual(new Set(['a', 'b']));
    // Never a 10-hour stop: one driver's rest is the other's driving; the truck stops only for breaks.
    expect(plan.segments.filter((s) => s.kind !== 'DRIVE').map((s) => s.kind)).toEqual(['BREAK', 'BREAK', 'BREAK']);
    expect(plan.stops[0]!.eta).toBeLessThan(solo.stops[0]!.eta - 20 * H);
    expect(plan.driverIds).toEqual(['a', 'b']);
    expect(planDutyPeriods(plan.segments, 'b', true)[0]).toMatchObject({ status: 'SB', start: NOW });
    legal(plan, team);
  });

  it('rejects more than two drivers and legs that do not match the stops', () => {
    expect(() => planTrip(input([rested('a'), rested('b'), rested('c')], [stop('d', 'DELIVERY', NOW, far)], [leg(1)]))).toThrow(RangeError);
    expect(() => planTrip(input([rested()], [stop('d', 'DELIVERY', NOW, far)], []))).toThrow(RangeError);
  });
});

describe('reasons', () => {
  it('words durations and the no-plan case', () => {
    expect(formatDuration(45 * MIN)).toBe('45 min');
    expect(formatDuration(3 * H + 20 * MIN)).toBe('3 h 20 min');
    expect(formatDuration(22 * H + 10 * MIN)).toBe('22 h');
    expect(
      formatPlanReason({
        kind: 'NO_PLAN',
        stopId: 'd',
        stopKind: 'DELIVERY',
        eta: null,
        lateMs: 0,
        clock: 'CYCLE',
        jurisdiction: 'ON',
        clockAt: NOW,
        rest: 'RESTART',
        restMs: 36 * H,
      }),
    ).toBe('cycle runs out in Ontario; no legal plan reaches the delivery within the planning horizon');
    expect(
      formatPlanReason(
        { kind: 'LATE', stopId: 'p', stopKind: 'PICKUP', eta: NOW, lateMs: 2 * H, clock: null, jurisdiction: null, clockAt: null, rest: null, restMs: null },
        'Europe/Berlin',
      ),
    ).toBe('traffic-free drive time is too long; earliest pick-up Mon, Jun 1, 3:00 PM GMT+2, 2 h late');
  });
});
