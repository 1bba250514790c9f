// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CHART_GAP_MS, playbackPosition, speedSeries, timeTicks, tripSpan } from './playback.ts';

const pt = (sec: number) => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, sec)).toISOString(),
  latitude: 0,
  longitude: 0,
  speed: 50,
  course: 0,
  ignition: true,
  odometer: null,
  odometerSource: null,
  engineHours: null,
  rpm: null,
});

describe('playbackPosition', () => {
  const track = [pt(0), pt(10), pt(20), pt(50)];

  it('moves by track time: 5 s into a 10 s segment is half way', () => {
    expect(playbackPosition(track, 0, 5)).toBeCloseTo(0.5);
  });

  it('crosses segments of different lengths', () => {
    expect(playbackPosition(track, 0, 25)).toBeCloseTo(2 + 5 / 30);
  });

  it('stops at the last point', () => {
    expect(playbackPosition(track, 0, 10_000)).toBe(3);
    expect(playbackPosition(track, 3, 1)).toBe(3);
  });

  it('plays a long gap as one minute so playback never stalls', () => {
    const gap = [pt(0), pt(3600)];
    expect(playbackPosition(gap, 0, 30)).toBeCloseTo(0.5);
  });

  it('handles an empty or one-point track', () => {
    expect(playbackPosition([], 0, 10)).toBe(0);
    expect(playbackPosition([pt(0)], 0, 10)).toBe(0);
  });
});

describe('tripSpan', () => {
  const track = [pt(0), pt(10), pt(20), pt(50), pt(80)];
  const at = (sec: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, sec)).toISOString();

  it('covers the fixes from the trip start to its end, inclusive', () => {
    expect(tripSpan(track, at(10), at(50))).toEqual({ from: 1, to: 3 });
    expect(tripSpan(track, at(5), at(55))).toEqual({ from: 1, to: 3 });
  });

  it('is null for a trip with no fix in the track', () => {
    expect(tripSpan(track, at(51), at(79))).toBeNull();
  });
});

describe('speedSeries', () => {
  it('puts each point at its time and breaks the line across a silence longer than the gap', () => {
    const track = [pt(0), pt(30), pt(60), pt(60 + CHART_GAP_MS / 1000 + 1), pt(120 + CHART_GAP_MS / 1000)];
    const s = speedSeries(track, (k) => k / 1.609344);
    expect(s.map((p) => p.i)).toEqual([0, 1, 2, -1, 3, 4]);
    expect(s[3]!.speed).toBeNull();
    expect(s[1]!.t - s[0]!.t).toBe(30_000);
    expect(s[0]!.speed).toBe(31);
  });
});

describe('timeTicks', () => {
  it('puts round times on the axis, no more than asked', () => {
    const from = Date.UTC(2026, 10, 27, 6, 32);
    const ticks = timeTicks(from, from + 80 * 60_000);
    expect(ticks.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(['06:40', '06:50', '07:00', '07:10', '07:20', '07:30', '07:40', '07:50']);
    expect(timeTicks(from, from + 24 * 3_600_000).length).toBeLessThanOrEqual(8);
    expect(timeTicks(from, from)).toEqual([]);
  });
});
