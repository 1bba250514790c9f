// @vitest-environment node
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { FleetPerformance, PerformanceTotals } from '@fleet/api-contract';
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
});
