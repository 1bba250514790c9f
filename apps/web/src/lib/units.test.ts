// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { vehicleInputSchema, trailerInputSchema } from '@fleet/api-contract/assets';
import {
  formatDistance,
  formatFuelEconomy,
  formatFuelEconomyLPer100Km,
  formatFuelVolume,
  formatLength,
  formatOdometer,
  formatShortDistance,
  formatSpeed,
  fuelEconomyIn,
  kmhFromSpeed,
  speedIn,
  unitLabels,
} from './units.ts';
import { lengthField, odometerField } from './unit-fields.ts';

describe('formatters', () => {
  it('show speeds in mph or km/h', () => {
    expect(formatSpeed(96.56064, 'IMPERIAL')).toBe('60 mph');
    expect(formatSpeed(88.4, 'METRIC')).toBe('88 km/h');
    expect(formatSpeed(null, 'IMPERIAL')).toBe('—');
    expect(speedIn(104.60736, 'IMPERIAL')).toBeCloseTo(65, 10);
    expect(speedIn(50, 'METRIC')).toBe(50);
  });

  it('show route distances (metres on the wire) in miles or kilometres with one decimal', () => {
    expect(formatDistance(16_093.44, 'IMPERIAL')).toBe('10.0 mi');
    expect(formatDistance(2_011_680, 'IMPERIAL')).toBe('1,250.0 mi');
    expect(formatDistance(20_000, 'METRIC')).toBe('20.0 km');
    expect(formatDistance(undefined, 'METRIC')).toBe('—');
  });

  it('show odometers (km on the wire) in whole miles or kilometres, tenths when there are any', () => {
    expect(formatOdometer(663_049.7, 'IMPERIAL')).toBe('412,000 mi');
    expect(formatOdometer(663_049.7, 'METRIC')).toBe('663,049.7 km');
    expect(formatOdometer(120_000, 'METRIC')).toBe('120,000 km');
    expect(formatOdometer(1.6, 'IMPERIAL')).toBe('1 mi');
    expect(formatOdometer(0, 'IMPERIAL')).toBe('0 mi');
    expect(formatOdometer(null, 'IMPERIAL')).toBe('—');
  });

  it('show trailer lengths (metres on the wire) in feet or metres', () => {
    expect(formatLength(16.15, 'IMPERIAL')).toBe('53 ft');
    expect(formatLength(14.63, 'IMPERIAL')).toBe('48 ft');
    expect(formatLength(12.8, 'IMPERIAL')).toBe('42 ft');
    expect(formatLength(16.15, 'METRIC')).toBe('16.15 m');
    expect(formatLength(null, 'METRIC')).toBe('—');
  });

  it('show a place-sized distance (metres on the wire) rounded to a unit that fits it', () => {
    expect(formatShortDistance(300, 'IMPERIAL')).toBe('984 ft');
    expect(formatShortDistance(10, 'IMPERIAL')).toBe('33 ft');
    expect(formatShortDistance(305, 'IMPERIAL')).toBe('0.19 mi');
    expect(formatShortDistance(2_414, 'IMPERIAL')).toBe('1.5 mi');
    expect(formatShortDistance(50_000, 'IMPERIAL')).toBe('31.1 mi');
    expect(formatShortDistance(300, 'METRIC')).toBe('300 m');
    expect(formatShortDistance(123.4, 'METRIC')).toBe('123 m');
    expect(formatShortDistance(1_250, 'METRIC')).toBe('1.25 km');
    expect(formatShortDistance(50_000, 'METRIC')).toBe('50 km');
    expect(formatShortDistance(null, 'METRIC')).toBe('—');
  });

  it('show fuel in US gallons or litres, and economy in mpg or L/100 km', () => {
    expect(formatFuelVolume(378.5411784, 'IMPERIAL')).toBe('100.0 gal');
    expect(formatFuelVolume(474.25, 'METRIC')).toBe('474.3 L');
    expect(formatFuelEconomy(1609.344, 567.8117676, 'IMPERIAL')).toBe('6.7 mpg');
    expect(formatFuelEconomy(1609.344, 567.8117676, 'METRIC')).toBe('35.3 L/100 km');
    expect(formatFuelEconomy(0, 40, 'METRIC')).toBe('—');
    expect(formatFuelVolume(null, 'IMPERIAL')).toBe('—');
  });

  it('show fleet performance economy (L/100 km on the wire) in mpg or L/100 km', () => {
    expect(formatFuelEconomyLPer100Km(35.1, 'IMPERIAL')).toBe('6.7 mpg');
    expect(formatFuelEconomyLPer100Km(35.1, 'METRIC')).toBe('35.1 L/100 km');
    expect(fuelEconomyIn(23.52, 'IMPERIAL')).toBe(10);
    expect(fuelEconomyIn(null, 'IMPERIAL')).toBeNull();
    expect(formatFuelEconomyLPer100Km(0, 'IMPERIAL')).toBe('—');
  });

  it('read a typed whole mph back to the km/h it shows again', () => {
    for (let mph = 13; mph <= 124; mph++) expect(Math.round(speedIn(Math.round(kmhFromSpeed(mph, 'IMPERIAL')), 'IMPERIAL'))).toBe(mph);
    expect(Math.round(kmhFromSpeed(65, 'IMPERIAL'))).toBe(105);
    expect(kmhFromSpeed(90, 'METRIC')).toBe(90);
  });

  it('name the units of each system', () => {
    expect(unitLabels('IMPERIAL')).toEqual({ distance: 'mi', speed: 'mph', length: 'ft', volume: 'gal', economy: 'mpg' });
    expect(unitLabels('METRIC')).toEqual({ distance: 'km', speed: 'km/h', length: 'm', volume: 'L', economy: 'L/100 km' });
  });
});

describe('form fields typed in the organization units', () => {
  const odometer = (km: number | null, units: 'IMPERIAL' | 'METRIC') => odometerField(vehicleInputSchema.shape.odometerKm, km, units);

  it('show the stored odometer in the unit and read a typed one back to km', () => {
    const f = odometer(663_049.7, 'IMPERIAL');
    expect(f.shown).toBe('412000');
    expect(f.schema.parse('250000')).toBe(402_336);
    expect(f.schema.parse('100.5')).toBe(161.739);
    expect(odometer(663_049.7, 'METRIC').shown).toBe('663049.7');
    expect(odometer(663_049.7, 'METRIC').schema.parse('500000')).toBe(500_000);
    expect(odometer(null, 'IMPERIAL').shown).toBe('');
  });

  it('give an odometer left as shown back exactly, however it rounds', () => {
    // 160,000.0 km is 99,419.39 mi: shown as 99419.4, which typed back is 160,000.015 km.
    const f = odometer(160_000, 'IMPERIAL');
    expect(f.shown).toBe('99419.4');
    expect(f.schema.parse('99419.4')).toBe(160_000);
    expect(f.schema.parse(' 99419.4 ')).toBe(160_000);
    expect(f.schema.parse('99419.5')).toBe(160_000.176);
  });

  it('keep the contract checks on the converted value', () => {
    const f = odometer(null, 'IMPERIAL');
    expect(f.schema.parse(null)).toBeNull();
    expect(f.schema.safeParse('abc').error?.issues[0]?.message).toBe('Odometer must be a number');
    expect(f.schema.safeParse('-1').error?.issues[0]?.message).toBe('Odometer cannot be negative');
    // The limit is 10,000,000 km, which is 6,213,711.9 mi.
    expect(f.schema.safeParse('6213711').success).toBe(true);
    expect(f.schema.safeParse('6213712').error?.issues[0]?.message).toBe('Odometer is too large');
  });

  it('read a trailer length in feet or metres', () => {
    const ft = lengthField(trailerInputSchema.shape.lengthM, 16.15, 'IMPERIAL');
    expect(ft.shown).toBe('53');
    expect(ft.schema.parse('53')).toBe(16.15);
    expect(ft.schema.parse('48')).toBe(14.63);
    expect(ft.schema.safeParse('140').error?.issues[0]?.message).toBe('Length is too large');
    const m = lengthField(trailerInputSchema.shape.lengthM, 16.15, 'METRIC');
    expect(m.shown).toBe('16.15');
    expect(m.schema.parse('14.63')).toBe(14.63);
  });
});
