import { describe, expect, it } from 'vitest';
import { adjustmentLines, hourLines, loadLines, milesTenths, NO_PAY, totalsOf, type LoadFacts } from './settlement-pay.ts';

// The pay arithmetic alone (issue 70): rounding where a driver checks it by hand, the hours a basis
// pays, a team share rounded once per line, and the totals' signs.

const H = 3_600_000;
const stop = (seq: number, kind: 'PICKUP' | 'DELIVERY', arrive: number | null, depart: number | null) => ({
  id: `s${seq}`,
  seq,
  kind,
  arrivedAt: arrive === null ? null : new Date(arrive),
  departedAt: depart === null ? null : new Date(depart),
  placeName: `Place ${seq + 1}`,
  address: null,
  latitude: 40,
  longitude: -90,
});

describe('settlement pay', () => {
  it('pays miles rounded to a tenth and a team share rounded once per line', () => {
    expect(milesTenths(1609.344 * 412.34)).toBe(4123);
    expect(milesTenths(1609.344 * 412.35)).toBe(4124);
    const load: LoadFacts = {
      id: 'l',
      number: 'L-1',
      lineHaulCents: 100_001,
      loadedM: 1609.344 * 100.05,
      stops: [stop(0, 'PICKUP', 0, H), stop(1, 'PICKUP', 2 * H, 3 * H), stop(2, 'DELIVERY', 5 * H, 8 * H + 60_000)],
      empty: null,
      sharePercent: 50,
    };
    const lines = loadLines(load, { ...NO_PAY, loadedMileMills: 555, lineHaulBp: 2500, extraStopCents: 2501, detentionCentsPerHour: 1999 }, () => '');
    const amount = (kind: string) => lines.find((l) => l.kind === kind)!.amountCents;
    // 100.1 mi × $0.555 = $55.5555, half: $27.78.
    expect(amount('LOADED_MILES')).toBe(2778);
    // 25% of $1,000.01 = $250.0025, half: $125.00.
    expect(amount('LINE_HAUL_PERCENT')).toBe(12500);
    // One stop beyond the first pick-up and the last delivery: $25.01, half: $12.51 (12.505 rounds up).
    expect(amount('EXTRA_STOPS')).toBe(1251);
    // The delivery: 181 min on site, 120 free, 61 min × $19.99/h = $20.32, half: $10.16.
    expect(amount('DETENTION')).toBe(1016);
    expect(lines.every((l) => l.sharePercent === 50)).toBe(true);
  });

  it('pays line 4 alone by default, driving too when the profile says so, to a hundredth of an hour', () => {
    const days = [{ date: '2026-11-02', onMs: 2.5 * H + 20_000, drivingMs: 4 * H }];
    expect(hourLines(days, { ...NO_PAY, hourlyCents: 2000 }).map((l) => [l.quantity, l.amountCents])).toEqual([[2.51, 5020]]);
    expect(hourLines(days, { ...NO_PAY, hourlyCents: 2000, hourlyBasis: 'ALL_ON_DUTY' }).map((l) => [l.quantity, l.amountCents])).toEqual([[6.51, 13020]]);
    expect(hourLines([{ date: '2026-11-03', onMs: 0, drivingMs: 9 * H }], { ...NO_PAY, hourlyCents: 2000 })).toEqual([]);
  });

  it('adds reimbursements, takes deductions, and nets them', () => {
    const lines = adjustmentLines([
      {
        id: 'a',
        type: 'DEDUCTION',
        category: 'LEASE',
        description: 'Lease',
        amountCents: 35_000,
        recurrence: 'EACH_SETTLEMENT',
        startsOn: '2026-11-01',
        endsOn: null,
      },
      { id: 'b', type: 'REIMBURSEMENT', category: 'TOLLS', description: 'Tolls', amountCents: 4_250, recurrence: 'ONCE', startsOn: '2026-11-02', endsOn: null },
    ]);
    expect(lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ['REIMBURSEMENT', 4_250],
      ['DEDUCTION', -35_000],
    ]);
    expect(totalsOf([...lines, { kind: 'LOADED_MILES', amountCents: 100_000 }])).toEqual({
      loadsCents: 100_000,
      detentionCents: 0,
      hourlyCents: 0,
      reimbursementCents: 4_250,
      deductionCents: 35_000,
      netCents: 69_250,
    });
  });
});
