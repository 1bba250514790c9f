// Property test (issue 33): every plan the planner makes, appended to the drivers' logs and judged by
// the engine's `auditLog`, has no violation; ETAs never go back; windows are reported as they fall.
import fc from 'fast-check';
import { auditLog, RULESET_IDS, type DutyPeriodInput, type HosOptions } from '@fleet/hos';
import { describe, expect, it } from 'vitest';
import { planDutyPeriods } from './duty-log.ts';
import { planTrip } from './plan-trip.ts';
import type { LatLon, PlanDriver, PlanInput, PlanStop, RouteLeg } from './types.ts';

const MIN = 60_000;
const H = 60 * MIN;
const MILE = 1609.344;
const ZONES = ['America/Chicago', 'America/New_York', 'America/Los_Angeles', 'America/Toronto', 'America/Phoenix'];
/** Plans checked: issue 33 asks for thousands (3,000 take about 2 s here). */
const RUNS = 3000;

type Piece = { status: DutyPeriodInput['status']; special?: DutyPeriodInput['special']; minutes: number };

const pieceArb: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ status: fc.constant('D' as const), minutes: fc.integer({ min: 1, max: 9 * 60 }) }) },
  { weight: 3, arbitrary: fc.record({ status: fc.constant('ON' as const), minutes: fc.integer({ min: 1, max: 5 * 60 }) }) },
  { weight: 3, arbitrary: fc.record({ status: fc.constant('OFF' as const), minutes: fc.integer({ min: 1, max: 40 * 60 }) }) },
  { weight: 3, arbitrary: fc.record({ status: fc.constant('SB' as const), minutes: fc.integer({ min: 60, max: 11 * 60 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      status: fc.constant('OFF' as const),
      special: fc.constantFrom('PC' as const, 'PASSENGER' as const),
      minutes: fc.integer({ min: 1, max: 5 * 60 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ status: fc.constant('ON' as const), special: fc.constant('YM' as const), minutes: fc.integer({ min: 1, max: 90 }) }) },
);

/** Random pieces; half the logs also show a sleeper-berth split (7 or 8 h in the berth between driving). */
const piecesArb: fc.Arbitrary<Piece[]> = fc
  .record({
    pieces: fc.array(pieceArb, { maxLength: 40 }),
    split: fc.option(fc.record({ at: fc.nat(), berth: fc.constantFrom(7, 8), before: fc.integer({ min: 1, max: 600 }) })),
  })
  .map(({ pieces, split }) => {
    if (split === null) return pieces;
    const at = split.at % (pieces.length + 1);
    const shown: Piece[] = [
      { status: 'D', minutes: split.before },
      { status: 'SB', minutes: split.berth * 60 },
      { status: 'D', minutes: 60 },
    ];
    return [...pieces.slice(0, at), ...shown, ...pieces.slice(at)];
  });

const optionsArb: fc.Arbitrary<HosOptions> = fc.record({
  ruleset: fc.constantFrom(...RULESET_IDS),
  timeZone: fc.constantFrom(...ZONES),
  cycleDayStart: fc.constantFrom('00:00', '06:30', '18:00'),
  exemptions: fc
    .record({ shortHaul150: fc.boolean(), sixteenHour: fc.boolean(), nonCdlShortHaul: fc.boolean() })
    .map((e) => (e.sixteenHour ? { ...e, nonCdlShortHaul: false } : e)),
  team: fc.boolean(),
});

/** A driver's log ending exactly at `now`, 0-40 random periods (laid backwards from now). */
function logEndingAt(now: number, pieces: Piece[]): DutyPeriodInput[] {
  const out: DutyPeriodInput[] = [];
  let t = now;
  for (let i = pieces.length - 1; i >= 0; i--) {
    const p = pieces[i]!;
    const start = t - p.minutes * MIN;
    const q: DutyPeriodInput = { status: p.status, start, end: t };
    if (p.special) q.special = p.special;
    out.unshift(q);
    t = start;
  }
  return out;
}

const pointArb: fc.Arbitrary<LatLon> = fc
  .record({ lat: fc.integer({ min: 2600, max: 4900 }), lon: fc.integer({ min: -12300, max: -7000 }) })
  .map((p) => ({ lat: p.lat / 100, lon: p.lon / 100 }));

const stopArb = fc.record({
  kind: fc.constantFrom('PICKUP' as const, 'DELIVERY' as const),
  point: pointArb,
  /** Leg length to this stop, miles. */
  miles: fc.integer({ min: 0, max: 900 }),
  /** Average speed on the leg, m/s (35-70 mph). */
  speed: fc.integer({ min: 15, max: 31 }),
  /** Window start relative to now, hours; window length, hours. */
  opensIn: fc.integer({ min: -24, max: 24 * 6 }),
  windowHours: fc.integer({ min: 0, max: 48 }),
  serviceMinutes: fc.integer({ min: 0, max: 300 }),
});

const caseArb = fc.record({
  // 2026-01-05 .. 2026-11-20, whole minutes.
  nowMin: fc.integer({ min: 29_441_000, max: 29_870_000 }),
  origin: pointArb,
  logs: fc.array(fc.record({ pieces: piecesArb, options: optionsArb }), { minLength: 1, maxLength: 2 }),
  stops: fc.array(stopArb, { minLength: 1, maxLength: 6 }),
  arrivedAtFirst: fc.option(fc.integer({ min: 0, max: 600 }), { freq: 8 }),
  /** The log as the API may hand it over: ending at now, some minutes before (a gap), or running past now. */
  logEnd: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -600, max: 600 }) }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** The planner's input, and each driver's log up to now as it truly is (what the plan is appended to). */
function toInput(c: Case): { input: PlanInput; truth: DutyPeriodInput[][] } {
  const now = c.nowMin * MIN;
  const truth: DutyPeriodInput[][] = [];
  const drivers: PlanDriver[] = c.logs.map((l, i) => {
    const gap = Math.max(0, -c.logEnd) * MIN;
    const log = logEndingAt(now - gap, l.pieces);
    const given = log.map((p) => ({ ...p }));
    if (log.length && gap > 0) log.push({ status: 'OFF', start: now - gap, end: now });
    // A period still running when the log was read: the planner cuts it at now.
    if (given.length && c.logEnd > 0 && gap === 0) given[given.length - 1]!.end = now + c.logEnd * MIN;
    truth.push(log);
    return { driverId: `d${i}`, periods: given, options: l.options };
  });
  let from = c.origin;
  const legs: RouteLeg[] = [];
  const stops: PlanStop[] = c.stops.map((s, i) => {
    const metres = s.miles * MILE;
    legs.push({ metres, seconds: metres / s.speed, line: [from, s.point] });
    from = s.point;
    const windowStart = now + s.opensIn * H;
    const stop: PlanStop = { stopId: `s${i}`, kind: s.kind, windowStart, windowEnd: windowStart + s.windowHours * H, serviceMinutes: s.serviceMinutes };
    if (i === 0 && c.arrivedAtFirst !== null) stop.arrivedAt = now - c.arrivedAtFirst * MIN;
    return stop;
  });
  return { input: { now, origin: c.origin, drivers, stops, legs, timeZone: 'America/Chicago' }, truth };
}

// A few seconds alone; a fixed number of runs, so a loaded machine (the full run beside other work)
// only makes it slower: 120 s, not the project's 30.
describe('planTrip on random loads and drivers', { timeout: 120_000 }, () => {
  it('makes plans the engine finds legal, with monotone ETAs and windows reported as they fall', () => {
    let plans = 0;
    let infeasible = 0;
    let teams = 0;
    let splits = 0;
    const kinds = new Map<string, number>();
    const rulesets = new Set<string>();
    fc.assert(
      fc.property(caseArb, (c) => {
        const { input, truth } = toInput(c);
        const plan = planTrip(input);
        plans++;
        if (!plan.feasible) infeasible++;
        if (plan.segments.some((s) => s.split)) splits++;
        const team = input.drivers.length > 1;
        if (team) teams++;
        for (const s of plan.segments) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
        for (const d of input.drivers) rulesets.add(d.options.ruleset);
        // The timeline is contiguous from now.
        let t = input.now;
        for (const s of plan.segments) {
          expect(s.start).toBe(t);
          expect(s.end).toBeGreaterThan(s.start);
          t = s.end;
        }
        // Every driver's log with the plan appended: no violation in the planned time.
        for (const [i, d] of input.drivers.entries()) {
          const periods: DutyPeriodInput[] = [...truth[i]!, ...planDutyPeriods(plan.segments, d.driverId, team)];
          const planned = auditLog(periods, d.options).violations.filter((v) => Date.parse(v.end) > input.now);
          expect(planned, `${d.options.ruleset} ${JSON.stringify(d.options.exemptions)}`).toEqual([]);
        }
        // ETAs never go back; a window is met exactly when the ETA is not after its end.
        let last = -Infinity;
        for (const [i, s] of plan.stops.entries()) {
          expect(s.stopId).toBe(input.stops[i]!.stopId);
          expect(s.eta).toBeGreaterThanOrEqual(last);
          expect(s.windowMet).toBe(s.eta <= input.stops[i]!.windowEnd);
          last = s.eta;
        }
        const complete = plan.stops.length === input.stops.length;
        expect(plan.feasible).toBe(complete && plan.stops.every((s) => s.windowMet));
        expect(plan.reason === null).toBe(plan.feasible);
        if (complete) {
          // All the road is driven, and nothing more.
          const driven = plan.segments.filter((s) => s.kind === 'DRIVE' || s.kind === 'DEADHEAD').reduce((a, s) => a + s.metres, 0);
          const road = input.legs.reduce((a, l, i) => a + (i === 0 && input.stops[0]!.arrivedAt != null ? 0 : l.metres), 0);
          expect(driven).toBeCloseTo(road, 0);
        }
      }),
      { numRuns: RUNS, seed: 33_0165 },
    );
    expect(plans).toBe(RUNS);
    // The sample exercises both outcomes and teams.
    expect(infeasible).toBeGreaterThan(RUNS / 10);
    expect(plans - infeasible).toBeGreaterThan(RUNS / 10);
    expect(teams).toBeGreaterThan(RUNS / 10);
    // Every kind of segment and every ruleset is exercised.
    for (const k of ['DEADHEAD', 'DRIVE', 'BREAK', 'REST', 'STOP']) expect(kinds.get(k) ?? 0, k).toBeGreaterThan(RUNS / 100);
    // Restarts are rarer: waiting for hours to roll off wins when it gives a shift's driving sooner.
    expect(kinds.get('RESTART') ?? 0).toBeGreaterThan(RUNS / 300);
    expect(rulesets.size).toBe(RULESET_IDS.length);
    // Sleeper splits planned for drivers whose logs show them (and kept: the engine agreed).
    expect(splits).toBeGreaterThan(RUNS / 100);
  });
});
