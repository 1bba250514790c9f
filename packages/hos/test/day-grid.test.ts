// The day grid samples the zone database sparsely (packages/hos/src/days.ts); check it against the
// library's exact conversion of every single day, across DST changes in several zones.
import { TZDate } from '@date-fns/tz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDayGrid } from '../src/days.ts';
import { auditLog, dailyTotals, HosInputError } from '../src/index.ts';

const DAY = 86_400_000;
const ZONES = ['America/Chicago', 'America/St_Johns', 'America/Santiago', 'Europe/London', 'Australia/Lord_Howe', 'Africa/Casablanca', 'Asia/Kolkata', 'UTC'];

function exact(zone: string, day: number, startMin: number): number {
  const d = new Date(day * DAY);
  return +new TZDate(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), Math.floor(startMin / 60), startMin % 60, zone);
}

describe('day grid', () => {
  it('equals the exact start of every day, for any range, zone and day start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 0, 1) }),
        fc.integer({ min: 0, max: 200 * DAY }),
        fc.constantFrom(0, 90, 120, 150, 1080),
        (zone, from, span, startMin) => {
          const grid = buildDayGrid(zone, startMin, from, from + span);
          expect(grid.starts[0]!).toBeLessThanOrEqual(from);
          expect(grid.starts[1]!).toBeGreaterThan(from);
          expect(grid.starts[grid.starts.length - 1]!).toBeGreaterThanOrEqual(from + span);
          grid.starts.forEach((s, k) => expect(s).toBe(exact(zone, grid.firstDay + k, startMin)));
        },
      ),
      { numRuns: Number(process.env.HOS_PROPERTY_RUNS ?? 40) },
    );
  }, 120_000);

  it('an unknown zone is refused even when there is nothing to audit', () => {
    expect(() => auditLog([], { ruleset: 'US_PROPERTY_70_8', timeZone: 'Nowhere/Atlantis' })).toThrow(HosInputError);
    expect(() => dailyTotals([], { ruleset: 'US_PROPERTY_70_8', timeZone: 'Nowhere/Atlantis' })).toThrow(HosInputError);
  });
});
