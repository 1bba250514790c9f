// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { playbackPosition, tripSpan } from './playback.ts';

const pt = (sec: number) => ({ time: new Date(Date.UTC(2026, 0, 1, 0, 0, sec)).toISOString(), latitude: 0, longitude: 0, speed: 50, course: 0, ignition: true });

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
