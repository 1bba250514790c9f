// @vitest-environment node
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { FleetPerformance, FuelEconomy, PerformanceTotals } from '@fleet/api-contract';
import { performanceCsv } from './fleet-performance-api.ts';

const totals: PerformanceTotals = {
  distanceM: 160_934.4,
  drivingMs: 7_200_000,
  idleMs: 0,
  utilizationPct: 8.3,
  avgSpeedKmh: 80.5,
  topSpeedKmh: 100,
  speedingEvents: 0,
  stops: 1,
  activeDays: 1,
  fuelLPer100Km: null,
  fuelSpan: null,
};

describe('performanceCsv', () => {
  it('writes group names a spreadsheet would run as formulas as text, and the figures as numbers', () => {
    const p: FleetPerformance = {
      from: '2026-06-01',
      to: '2026-06-02',
      days: 1,
      speedLimitKmh: 105,
      fleet: { ...totals, vehicles: 1 },
      vehicles: [{ ...totals, assetId: 'a1', unitNumber: '117', groups: ['=cmd', 'West'] }],
      groups: [{ ...totals, groupId: 'g1', name: '@East', vehicles: 1 }],
      perDay: [],
    };
    const rows = Papa.parse<string[]>(performanceCsv(p, 'IMPERIAL'), { skipEmptyLines: 'greedy' }).data;
    expect(rows[1]!.slice(0, 5)).toEqual(['Vehicle', '117', "'=cmd; West", '100', '2']);
    expect(rows[2]!.slice(0, 3)).toEqual(['Group', "'@East", '']);
  });

  it('takes fuel economy from the fuel economy answer: a vehicle its own, a group its vehicles together, the fleet the totals', () => {
    const p: FleetPerformance = {
      from: '2026-06-01',
      to: '2026-06-02',
      days: 2,
      speedLimitKmh: 105,
      fleet: { ...totals, vehicles: 3 },
      vehicles: [
        { ...totals, assetId: 'a1', unitNumber: '101', groups: ['West'] },
        { ...totals, assetId: 'a2', unitNumber: '102', groups: ['West'] },
        { ...totals, assetId: 'a3', unitNumber: '103', groups: [] },
      ],
      groups: [
        { ...totals, groupId: 'g1', name: 'West', vehicles: 2 },
        { ...totals, groupId: null, name: 'In no group', vehicles: 1 },
      ],
      perDay: [],
    };
    const figure = (fuelL: number, distanceM: number, basis: 'ENGINE' | 'PURCHASES') => ({
      basis,
      fuelL,
      distanceM,
      lPer100Km: fuelL / (distanceM / 100_000),
      from: '2026-06-01T05:00:00.000Z',
      to: '2026-06-02T20:00:00.000Z',
      fills: basis === 'PURCHASES' ? 3 : null,
    });
    const row = (id: string, economy: ReturnType<typeof figure> | null) => ({
      id,
      name: id,
      distanceM: 0,
      drivingMs: 0,
      economy,
      idleMs: 0,
      idleEvents: 0,
      idleFuelL: null,
      idleSharePct: null,
    });
    // 101: 100 L over 300 km (33.3 L/100 km, 7.06 mpg); 102: bought 200 L over 500 km; 103: no fuel data.
    const fuel: FuelEconomy = {
      from: p.from,
      to: p.to,
      groupBy: 'vehicle',
      median: { lPer100Km: 36.67, economyCount: 2, idleSharePct: null, idleShareCount: 0 },
      totals: { economy: { ...figure(300, 800_000, 'ENGINE'), basis: 'MIXED' }, distanceM: 0, idleMs: 0, idleFuelL: null, idleSharePct: null },
      rows: [row('a1', figure(100, 300_000, 'ENGINE')), row('a2', figure(200, 500_000, 'PURCHASES')), row('a3', null)],
    };
    const rows = Papa.parse<string[]>(performanceCsv(p, 'IMPERIAL', fuel), { skipEmptyLines: 'greedy' }).data;
    expect(rows[0]!.slice(-3)).toEqual(['Fuel economy (mpg)', 'Fuel used (gal)', 'Fuel economy basis']);
    expect(rows[1]!.slice(-3)).toEqual(['7.1', '26.4', 'Engine fuel counter']);
    expect(rows[2]!.slice(-3)).toEqual(['5.9', '52.8', 'Fuel bought between fills']);
    expect(rows[3]!.slice(-3)).toEqual(['', '', '']);
    // West: 300 L over 800 km (6.3 mpg), from both; in no group: 103 alone; the fleet: the totals.
    expect(rows[4]!.slice(-3)).toEqual(['6.3', '79.3', 'Engine counter and fills']);
    expect(rows[5]!.slice(-3)).toEqual(['', '', '']);
    expect(rows[6]!.slice(-3)).toEqual(['6.3', '79.3', 'Engine counter and fills']);
  });
});
