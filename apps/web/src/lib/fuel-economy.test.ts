// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { economyVsMedian, formatHoursMinutes, idleVsMedian } from './fuel-economy.ts';

// Issue 68: a figure against the fleet's median in the organization's units, better or worse the
// right way round (more mpg is better; fewer L/100 km is better).

describe('economyVsMedian', () => {
  it('says more miles per gallon is better, in mpg', () => {
    // 36.2 L/100 km is 6.5 mpg; 39.2 is 6.0.
    expect(economyVsMedian(36.2, 39.2, 'IMPERIAL')).toEqual({ text: '+0.5 mpg', better: true });
    expect(economyVsMedian(39.2, 36.2, 'IMPERIAL')).toEqual({ text: '−0.5 mpg', better: false });
  });
  it('says fewer litres per 100 km is better, in L/100 km', () => {
    expect(economyVsMedian(36.2, 39.2, 'METRIC')).toEqual({ text: '−3.0 L/100 km', better: true });
    expect(economyVsMedian(39.2, 36.2, 'METRIC')).toEqual({ text: '+3.0 L/100 km', better: false });
  });
  it('is the same at the median as shown, and nothing without both', () => {
    expect(economyVsMedian(36.2, 36.21, 'IMPERIAL')).toEqual({ text: '±0.0 mpg', better: null });
    expect(economyVsMedian(null, 36.2, 'IMPERIAL')).toBeNull();
    expect(economyVsMedian(36.2, null, 'METRIC')).toBeNull();
  });
});

describe('idleVsMedian', () => {
  it('says more idling is worse, in points of engine time', () => {
    expect(idleVsMedian(15.2, 12.1)).toEqual({ text: '+3.1 pts', better: false });
    expect(idleVsMedian(8, 12.1)).toEqual({ text: '−4.1 pts', better: true });
    expect(idleVsMedian(null, 12.1)).toBeNull();
  });
});

it('writes idle time in hours and minutes', () => {
  expect(formatHoursMinutes(0)).toBe('0 h 00 m');
  expect(formatHoursMinutes(125 * 60_000)).toBe('2 h 05 m');
});
