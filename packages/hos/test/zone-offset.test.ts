// The zone-offset memo (decision 0013) must answer exactly what the library answers, also in hours
// that contain an offset change, and must stay bounded.
import { tzOffset } from '@date-fns/tz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayStart, memoSize, offsetAt } from '../src/zone-offset.ts';

const H = 3_600_000;
const ZONES = ['America/Chicago', 'America/St_Johns', 'America/Santiago', 'Europe/London', 'Australia/Lord_Howe', 'Africa/Casablanca', 'Asia/Kolkata', 'UTC'];

describe('zone offset memo', () => {
  it('equals tzOffset at any instant, asked in any order (cached and uncached hours)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2040, 0, 1) })), { minLength: 1, maxLength: 50 }),
        (asks) => {
          for (const [zone, ms] of asks) {
            expect(offsetAt(zone, ms), `${zone} ${new Date(ms).toISOString()}`).toBe(tzOffset(zone, new Date(ms)));
            // Again: now possibly from the memo.
            expect(offsetAt(zone, ms)).toBe(tzOffset(zone, new Date(ms)));
          }
        },
      ),
      { numRuns: Number(process.env.HOS_PROPERTY_RUNS ?? 40) },
    );
  });

  it("is exact on both sides of a change inside an hour (St. John's changes at 02:00 local = :30 UTC)", () => {
    // 2026-03-08 02:00 NST (UTC-3:30) = 05:30Z: the UTC hour 05:00-06:00 holds the change.
    const before = Date.UTC(2026, 2, 8, 5, 29, 59, 999);
    const after = Date.UTC(2026, 2, 8, 5, 30);
    for (let r = 0; r < 2; r++) {
      expect(offsetAt('America/St_Johns', before)).toBe(-210);
      expect(offsetAt('America/St_Johns', after)).toBe(-150);
      expect(offsetAt('America/St_Johns', Date.UTC(2026, 2, 8, 5, 0))).toBe(-210);
    }
    // Chicago changes exactly on a UTC hour (08:00Z): the hours on each side are whole.
    expect(offsetAt('America/Chicago', Date.UTC(2026, 2, 8, 7, 59, 59, 999))).toBe(-360);
    expect(offsetAt('America/Chicago', Date.UTC(2026, 2, 8, 8))).toBe(-300);
  });

  it('an unknown zone gives NaN and is not cached', () => {
    const n = memoSize();
    expect(offsetAt('Nowhere/Atlantis', 0)).toBeNaN();
    expect(memoSize()).toBe(n);
  });

  it('day starts are remembered per zone, day and start time, and computed only once', () => {
    let computed = 0;
    const exact = (zone: string, day: number, startMin: number): number => {
      computed++;
      return day * 86_400_000 + startMin * 60_000 + (zone === 'A/B' ? 1 : 2);
    };
    const day = 20_000 + Math.floor(Math.random() * 1000);
    expect(dayStart('A/B', day, 90, exact)).toBe(day * 86_400_000 + 90 * 60_000 + 1);
    expect(dayStart('A/B', day, 90, exact)).toBe(day * 86_400_000 + 90 * 60_000 + 1);
    expect(dayStart('C/D', day, 90, exact)).toBe(day * 86_400_000 + 90 * 60_000 + 2);
    expect(dayStart('A/B', day, 120, exact)).toBe(day * 86_400_000 + 120 * 60_000 + 1);
    expect(computed).toBe(3);
    expect(dayStart('A/B', day, 0, () => NaN)).toBeNaN();
  });

  it('keeps at most 4096 hours and days', () => {
    for (let h = 0; h < 5000; h++) offsetAt('Asia/Kolkata', Date.UTC(2030, 0, 1) + h * H);
    expect(memoSize()).toBeGreaterThan(0);
    expect(memoSize()).toBeLessThanOrEqual(4096);
    expect(offsetAt('Asia/Kolkata', Date.UTC(2030, 0, 1))).toBe(330);
  });
});
