import { describe, expect, it } from 'vitest';
import {
  distanceFromKm,
  distanceToKm,
  fuelEconomy,
  lengthForDisplay,
  lengthFromM,
  lengthMFromInput,
  lengthToM,
  odometerForDisplay,
  odometerKmFromInput,
  roundTo,
  speedFromKmh,
  speedToKmh,
  volumeFromL,
  volumeToL,
} from './units.ts';

describe('unit conversions', () => {
  it('use the exact international mile, foot and US gallon', () => {
    expect(distanceToKm(1, 'IMPERIAL')).toBe(1.609344);
    expect(distanceFromKm(1.609344, 'IMPERIAL')).toBe(1);
    expect(distanceToKm(250, 'IMPERIAL')).toBeCloseTo(402.336, 12);
    expect(lengthToM(1, 'IMPERIAL')).toBe(0.3048);
    expect(lengthToM(53, 'IMPERIAL')).toBeCloseTo(16.1544, 12);
    expect(lengthFromM(0.3048, 'IMPERIAL')).toBe(1);
    expect(volumeToL(1, 'IMPERIAL')).toBe(3.785411784);
    expect(volumeFromL(378.5411784, 'IMPERIAL')).toBeCloseTo(100, 12);
    expect(speedFromKmh(96.56064, 'IMPERIAL')).toBeCloseTo(60, 12);
    expect(speedToKmh(65, 'IMPERIAL')).toBeCloseTo(104.60736, 12);
  });

  it('leave metric values as they are for a metric organization', () => {
    expect(distanceFromKm(412.5, 'METRIC')).toBe(412.5);
    expect(distanceToKm(412.5, 'METRIC')).toBe(412.5);
    expect(speedFromKmh(88, 'METRIC')).toBe(88);
    expect(lengthFromM(16.15, 'METRIC')).toBe(16.15);
    expect(volumeFromL(40, 'METRIC')).toBe(40);
  });

  it('measure fuel economy in miles per US gallon or litres per 100 km', () => {
    // 1,000 mi on 150 gal.
    expect(fuelEconomy(1609.344, 567.8117676, 'IMPERIAL')).toBeCloseTo(6.6667, 4);
    expect(fuelEconomy(1609.344, 567.8117676, 'METRIC')).toBeCloseTo(35.2822, 4);
    // 6.5 mpg is 235.214583 / 6.5 L/100 km.
    const km = 6.5 * 1.609344;
    expect(fuelEconomy(km, 3.785411784, 'METRIC')).toBeCloseTo(235.214583 / 6.5, 5);
    expect(fuelEconomy(0, 10, 'IMPERIAL')).toBeNull();
    expect(fuelEconomy(100, 0, 'METRIC')).toBeNull();
  });

  it('round as shown', () => {
    expect(roundTo(16.1544, 2)).toBe(16.15);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(odometerForDisplay(663_049.7, 'IMPERIAL')).toBe(412_000);
    expect(odometerForDisplay(663_049.7, 'METRIC')).toBe(663_049.7);
    expect(lengthForDisplay(16.15, 'IMPERIAL')).toBe(53);
    expect(lengthForDisplay(16.15, 'METRIC')).toBe(16.15);
    expect(odometerKmFromInput(412_000, 'IMPERIAL')).toBe(663_049.728);
    expect(lengthMFromInput(53, 'IMPERIAL')).toBe(16.154);
  });
});

describe('typed values survive the API round trip', () => {
  // The API stores the metric value and answers odometers to 0.1 km and lengths to 0.01 m.
  const throughApi = (v: number, digits: number) => roundTo(v, digits);

  it('an odometer typed in miles with one decimal reads back exactly', () => {
    for (let tenths = 0; tenths <= 20_000; tenths += 7) {
      for (const whole of [0, 412_000, 1_234_567, 6_000_000]) {
        const typed = roundTo(whole + tenths / 10, 1);
        const km = throughApi(odometerKmFromInput(typed, 'IMPERIAL'), 1);
        expect(odometerForDisplay(km, 'IMPERIAL')).toBe(typed);
      }
    }
  });

  it('a trailer length typed in feet with one decimal reads back exactly, and metres to the centimetre', () => {
    for (let tenths = 0; tenths <= 1300; tenths++) {
      const ft = tenths / 10;
      expect(lengthForDisplay(throughApi(lengthMFromInput(ft, 'IMPERIAL'), 2), 'IMPERIAL')).toBe(ft);
      const m = tenths / 100;
      expect(lengthForDisplay(throughApi(lengthMFromInput(m, 'METRIC'), 2), 'METRIC')).toBe(m);
    }
  });
});
