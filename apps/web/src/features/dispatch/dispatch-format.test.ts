import { describe, expect, it } from 'vitest';
import type { Load, LoadStop, PlanSegment } from '@fleet/api-contract';
import { formatMoney, formatPerDistance } from '../../lib/money.ts';
import {
  cityOf,
  dayHeading,
  etaVersusWindow,
  formatPlanMiles,
  formatWeight,
  freeAfterText,
  groupByDay,
  laneText,
  timelineLayout,
  weightToKg,
} from './dispatch-format.ts';

const stop = (windowStart: string, address: string | null = null): LoadStop => ({
  id: windowStart,
  seq: 0,
  kind: 'PICKUP',
  placeId: null,
  placeName: null,
  latitude: 41.8,
  longitude: -87.6,
  address,
  windowStart,
  windowEnd: windowStart,
  serviceMinutes: 60,
  arrivedAt: null,
  departedAt: null,
  arrivalSource: null,
  departureSource: null,
  eta: null,
  windowMet: null,
});
const load = (id: string, ...starts: string[]): Pick<Load, 'stops'> & { id: string } => ({ id, stops: starts.map((s) => stop(s)) });
const seg = (kind: PlanSegment['kind'], start: string, end: string): PlanSegment => ({ kind, start, end, miles: 0, driverId: null, stopId: null, note: null });

describe('the board by day', () => {
  it('puts a load on the day of its first pick-up in the viewer’s zone, not UTC’s', () => {
    // 03:00 UTC on the 25th is still the 24th in Chicago (21:00 CST).
    const groups = groupByDay(
      [load('late', '2026-11-25T03:00:00Z'), load('early', '2026-11-24T15:00:00Z'), load('next', '2026-11-25T15:00:00Z')],
      'America/Chicago',
    );
    expect(groups.map((g) => [g.day, g.loads.map((l) => l.id)])).toEqual([
      ['2026-11-24', ['early', 'late']],
      ['2026-11-25', ['next']],
    ]);
    // In Berlin the same three fall on the 24th, the 25th (04:00) and the 25th.
    expect(groupByDay([load('late', '2026-11-25T03:00:00Z'), load('early', '2026-11-24T15:00:00Z')], 'Europe/Berlin').map((g) => g.day)).toEqual([
      '2026-11-24',
      '2026-11-25',
    ]);
  });

  it('lists loads without stops last', () => {
    expect(groupByDay([load('none'), load('a', '2026-11-24T15:00:00Z')], 'UTC').map((g) => g.day)).toEqual(['2026-11-24', '']);
  });

  it('names today and tomorrow', () => {
    expect(dayHeading('2026-11-24', '2026-11-24')).toBe('Today, Tue, Nov 24');
    expect(dayHeading('2026-11-25', '2026-11-24')).toBe('Tomorrow, Wed, Nov 25');
    expect(dayHeading('2026-11-28', '2026-11-24')).toBe('Sat, Nov 28');
  });
});

describe('words of a load', () => {
  it('reads the city of an address and the lane', () => {
    expect(cityOf('1200 W 35th St, Chicago, IL 60609')).toBe('Chicago, IL');
    expect(cityOf('Joliet, IL')).toBe('Joliet, IL');
    expect(cityOf('  ')).toBeNull();
    expect(laneText({ stops: [stop('2026-11-24T15:00:00Z', '1 Main St, Chicago, IL 60601'), stop('2026-11-25T15:00:00Z', '9 Elm, Dallas, TX 75201')] })).toBe(
      'Chicago, IL → Dallas, TX',
    );
  });

  it('formats money, weight and distances in the organization’s units', () => {
    expect(formatMoney(2450, 'USD')).toBe('$2,450.00');
    expect(formatMoney(1234.5, 'CAD')).toBe('CA$1,234.50');
    expect(formatWeight(19050.88, 'IMPERIAL')).toBe('42,000 lb');
    expect(formatWeight(19050.88, 'METRIC')).toBe('19,051 kg');
    expect(formatWeight(null, 'METRIC')).toBe('—');
    expect(weightToKg(42000, 'IMPERIAL')).toBeCloseTo(19050.88, 2);
    expect(formatPlanMiles(100, 'IMPERIAL')).toBe('100 mi');
    expect(formatPlanMiles(100, 'METRIC')).toBe('161 km');
    // $1.50 a km is $2.41 a mile.
    expect(formatPerDistance(1.5, 'USD', 'IMPERIAL')).toBe('$2.41/mi');
    expect(formatPerDistance(1.5, 'USD', 'METRIC')).toBe('$1.50/km');
    expect(formatPerDistance(null, 'USD', 'METRIC')).toBe('—');
  });

  it('tells an ETA early, on time or late against its window', () => {
    expect(etaVersusWindow('2026-11-24T15:00:00Z', '2026-11-24T16:00:00Z', '2026-11-24T18:00:00Z')).toEqual({ state: 'early', minutes: 60 });
    expect(etaVersusWindow('2026-11-24T17:00:00Z', '2026-11-24T16:00:00Z', '2026-11-24T18:00:00Z')).toEqual({ state: 'on-time', minutes: 0 });
    expect(etaVersusWindow('2026-11-24T20:30:00Z', '2026-11-24T16:00:00Z', '2026-11-24T18:00:00Z')).toEqual({ state: 'late', minutes: 150 });
  });
});

describe('the plan timeline', () => {
  it('lays segments along the plan’s span and marks the viewer’s midnights', () => {
    const t = timelineLayout(
      [
        seg('DRIVE', '2026-11-24T12:00:00Z', '2026-11-24T20:00:00Z'),
        seg('BREAK', '2026-11-24T20:00:00Z', '2026-11-24T20:30:00Z'),
        seg('REST', '2026-11-24T20:30:00Z', '2026-11-25T06:30:00Z'),
        seg('STOP', '2026-11-25T06:30:00Z', '2026-11-25T12:00:00Z'),
      ],
      'America/Chicago',
    )!;
    expect(t.bars.map((b) => [b.segment.kind, +b.left.toFixed(2), +b.width.toFixed(2), b.minutes])).toEqual([
      ['DRIVE', 0, 33.33, 480],
      ['BREAK', 33.33, 2.08, 30],
      ['REST', 35.42, 41.67, 600],
      ['STOP', 77.08, 22.92, 330],
    ]);
    // Midnight in Chicago is 06:00 UTC: 18 of the 24 hours in.
    expect(t.days).toEqual([{ left: 75, day: '2026-11-25' }]);
  });

  it('keeps a very short segment visible and inside the axis', () => {
    const t = timelineLayout(
      [seg('DRIVE', '2026-11-24T00:00:00Z', '2026-11-25T00:00:00Z'), seg('STOP', '2026-11-25T00:00:00Z', '2026-11-25T00:01:00Z')],
      'UTC',
      1,
    )!;
    const last = t.bars[1]!;
    expect(last.width).toBe(1);
    expect(last.left + last.width).toBeLessThanOrEqual(100);
    expect(timelineLayout([], 'UTC')).toBeNull();
  });
});

describe('when a busy driver is free', () => {
  const after = {
    loadId: 'l',
    number: 'L-1064',
    loads: 1,
    freeAt: '2026-11-26T19:00:00Z',
    place: 'Minneapolis, MN',
    latitude: 44.98,
    longitude: -93.27,
    clocks: { driveMinutes: 0, windowMinutes: 0, breakMinutes: null, cycleMinutes: 0 },
  };
  it('says the load, the place and the time in the viewer’s zone with its abbreviation', () => {
    expect(freeAfterText(after, 'America/Chicago', new Date('2026-11-26T15:00:00Z'))).toBe('after L-1064, free in Minneapolis, MN at 1:00 PM CST');
    expect(freeAfterText(after, 'America/New_York', new Date('2026-11-26T15:00:00Z'))).toBe('after L-1064, free in Minneapolis, MN at 2:00 PM EST');
  });
  it('gives the day when it is not today, and how many loads come first', () => {
    expect(freeAfterText({ ...after, loads: 2 }, 'America/Chicago', new Date('2026-11-25T15:00:00Z'))).toBe(
      'after L-1064 (2 loads), free in Minneapolis, MN at Nov 26, 1:00 PM CST',
    );
  });
});
