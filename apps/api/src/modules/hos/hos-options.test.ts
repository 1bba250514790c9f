import { describe, expect, it } from 'vitest';
import { engineOptions, isCdlClass, nonCdlShortHaul, type DriverHos } from './hos.repository.ts';

const driver = (over: Partial<DriverHos>): DriverHos => ({
  id: 'd',
  firstName: 'A',
  lastName: 'B',
  ruleset: 'US_PROPERTY_70_8',
  homeTimeZone: 'America/Chicago',
  shortHaul150: true,
  sixteenHour: false,
  oilfield: false,
  licenseClass: null,
  ...over,
});

describe('engine options from the driver record', () => {
  it.each([
    ['A', true],
    ['cdl-b', true],
    ['Class C', true],
    ['CDL Class A', true],
    ['NON_CDL', false],
    ['D', false],
    ['Class AB', false],
    ['', false],
  ])('licence class %j is a CDL: %s', (cls, cdl) => {
    expect(isCdlClass(cls)).toBe(cdl);
  });

  it('applies P15 only to a known non-CDL licence with short haul, and then drops the 16-hour exception', () => {
    expect(nonCdlShortHaul(driver({ licenseClass: 'NON_CDL' }))).toBe(true);
    expect(nonCdlShortHaul(driver({ licenseClass: null }))).toBe(false);
    expect(nonCdlShortHaul(driver({ licenseClass: 'NON_CDL', shortHaul150: false }))).toBe(false);
    expect(engineOptions(driver({ licenseClass: 'NON_CDL', sixteenHour: true }), '00:00').exemptions).toEqual({
      shortHaul150: true,
      sixteenHour: false,
      nonCdlShortHaul: true,
    });
    expect(engineOptions(driver({ licenseClass: 'A', sixteenHour: true }), '00:00').exemptions).toEqual({ shortHaul150: true, sixteenHour: true });
  });

  it('passes the oilfield exemption (49 CFR 395.1(d)) only for a driver who has it', () => {
    expect(engineOptions(driver({}), '00:00').exemptions).not.toHaveProperty('oilfield');
    expect(engineOptions(driver({ oilfield: true }), '00:00').exemptions).toEqual({ shortHaul150: true, sixteenHour: false, oilfield: true });
  });

  it('passes declared deferrals and team only when there are some', () => {
    const d = driver({ ruleset: 'CA_SOUTH_CYCLE_1' });
    expect(engineOptions(d, '00:00', { deferrals: [], teamDays: new Set() })).not.toHaveProperty('deferrals');
    expect(engineOptions(d, '00:00', { deferrals: ['2026-06-01'], teamDays: new Set() }, true)).toMatchObject({
      deferrals: [{ day: '2026-06-01' }],
      team: true,
    });
  });
});
