// Issue 72: a plan whose route crosses the US-Canada border takes its breaks by the rules in force on
// each side (decision 0313).
import { auditAcrossBorders, auditLog, type DutyPeriodInput, type HosOptions } from '@fleet/hos';
import { describe, expect, it } from 'vitest';
import { legCrossings } from './border-crossings.ts';
import { planDutyPeriods } from './duty-log.ts';
import { measure } from './leg-line.ts';
import { planTrip } from './plan-trip.ts';
import type { PlanDriver, PlanInput, RouteLeg } from './types.ts';

const MIN = 60_000;
const H = 60 * MIN;
const US: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
const NOW = Date.parse('2026-06-01T06:00:00-05:00');
const CHICAGO = { lat: 41.8781, lon: -87.6298 };
const DETROIT = { lat: 42.3314, lon: -83.0458 };
const WINDSOR = { lat: 42.28, lon: -83.0 };
const LONDON_ON = { lat: 42.9849, lon: -81.2453 };
const TORONTO = { lat: 43.6532, lon: -79.3832 };

/** Chicago to Toronto over the Detroit-Windsor crossing: 13 h of driving at a steady speed. */
const line = [CHICAGO, DETROIT, WINDSOR, LONDON_ON, TORONTO];
const toronto: RouteLeg = { metres: 13 * 3600 * 25, seconds: 13 * 3600, line };

const rested = (over: Partial<PlanDriver> = {}): PlanDriver => ({
  driverId: 'd1',
  options: US,
  periods: [{ status: 'OFF', start: NOW - 48 * H, end: NOW }],
  ...over,
});
const input = (drivers: PlanDriver[]): PlanInput => ({
  now: NOW,
  origin: CHICAGO,
  drivers,
  stops: [{ stopId: 's1', kind: 'DELIVERY', windowStart: NOW, windowEnd: NOW + 30 * 24 * H, serviceMinutes: 0 }],
  legs: [toronto],
  timeZone: 'America/Chicago',
});
const shape = (plan: ReturnType<typeof planTrip>) => plan.segments.map((s) => `${s.kind} ${+((s.end - s.start) / H).toFixed(2)}`);

describe('legCrossings', () => {
  it('finds the Detroit River on the way to Toronto, and nothing on a US-only line', () => {
    const c = legCrossings(measure(toronto));
    expect(c.map((x) => x.to)).toEqual(['CA']);
    const m = measure(toronto);
    const detroitShare = m.cum[1]! / m.cum[m.cum.length - 1]!;
    const windsorShare = m.cum[2]! / m.cum[m.cum.length - 1]!;
    expect(c[0]!.fraction).toBeGreaterThanOrEqual(detroitShare);
    expect(c[0]!.fraction).toBeLessThanOrEqual(windsorShare);
    expect(legCrossings(measure({ metres: 1, seconds: 1, line: [CHICAGO, DETROIT] }))).toEqual([]);
  });
});

describe('planTrip across the border', () => {
  it('a US driver with Canadian rules beyond the border: no 30-minute break or 10-hour rest in Canada', () => {
    const driver = rested({ rulesets: { US: 'US_PROPERTY_70_8', CA: 'CA_SOUTH_CYCLE_1' } });
    const plan = planTrip(input([driver]));
    const crossAt = NOW + Math.round(legCrossings(measure(toronto))[0]!.fraction * 13 * H);
    // Under 8 h to the border: no break is due on the US side; in Canada 13 h of driving is allowed.
    expect(crossAt - NOW).toBeLessThan(8 * H);
    expect(plan.segments.map((s) => s.kind)).toEqual(['DRIVE', 'DRIVE']);
    expect(plan.segments[0]!.end).toBe(crossAt);
    expect(plan.stops[0]!.eta).toBe(NOW + 13 * H);
    // Judged by the rules of each side, the plan is legal; by US rules alone it is not.
    const periods: DutyPeriodInput[] = [...driver.periods, ...planDutyPeriods(plan.segments, 'd1', false)];
    expect(auditAcrossBorders(periods, [{ from: crossAt, ruleset: 'CA_SOUTH_CYCLE_1' }], US).violations).toEqual([]);
    expect(auditLog(periods, US).violations.map((v) => v.rule)).toContain('DRIVING_LIMIT');
  });

  it('the same trip on US rules throughout takes the break and the rest', () => {
    const plan = planTrip(input([rested()]));
    expect(shape(plan)).toEqual(['DRIVE 8', 'BREAK 0.5', 'DRIVE 3', 'REST 10', 'DRIVE 2']);
  });

  it('a Canadian driver heading into the US from Toronto takes the US break after the border', () => {
    const ca: HosOptions = { ruleset: 'CA_SOUTH_CYCLE_1', timeZone: 'America/Toronto' };
    const back: RouteLeg = { ...toronto, line: [...line].reverse() };
    const driver = rested({ options: ca, rulesets: { US: 'US_PROPERTY_70_8', CA: 'CA_SOUTH_CYCLE_1' } });
    const plan = planTrip({ ...input([driver]), origin: TORONTO, legs: [back] });
    const kinds = plan.segments.map((s) => s.kind);
    // In the US after the crossing: 8 h of driving (counted from Toronto) needs the 30-minute break, 11 h the 10-hour rest.
    expect(kinds).toContain('BREAK');
    expect(kinds).toContain('REST');
    const crossAt = NOW + Math.round(legCrossings(measure(back))[0]!.fraction * 13 * H);
    expect(plan.segments.find((s) => s.kind === 'BREAK')!.start).toBeGreaterThanOrEqual(crossAt);
    const periods: DutyPeriodInput[] = [...driver.periods, ...planDutyPeriods(plan.segments, 'd1', false)];
    expect(auditAcrossBorders(periods, [{ from: crossAt, ruleset: 'US_PROPERTY_70_8' }], ca).violations).toEqual([]);
  });
});
