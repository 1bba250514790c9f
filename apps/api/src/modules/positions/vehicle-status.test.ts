import { describe, expect, it } from 'vitest';
import { telematicsSettings, vehicleStatus } from './vehicle-status.ts';

const now = new Date('2026-11-02T12:00:00Z');
const ago = (min: number) => new Date(now.getTime() - min * 60_000);
const s = { idleAfterMinutes: 5, offlineAfterMinutes: 60 };

describe('telematicsSettings', () => {
  it('reads the organization thresholds with defaults 5 and 60', () => {
    expect(telematicsSettings({})).toEqual({ idleAfterMinutes: 5, offlineAfterMinutes: 60 });
    expect(telematicsSettings({ telematics: { idleMinutes: 10, offlineMinutes: 30 } })).toEqual({ idleAfterMinutes: 10, offlineAfterMinutes: 30 });
    expect(telematicsSettings({ telematics: { idleMinutes: -1, offlineMinutes: 'x' } as never })).toEqual({ idleAfterMinutes: 5, offlineAfterMinutes: 60 });
    expect(telematicsSettings(null)).toEqual({ idleAfterMinutes: 5, offlineAfterMinutes: 60 });
  });
});

describe('vehicleStatus', () => {
  it('is MOVING at speed', () => {
    expect(vehicleStatus({ speed: 88, ignition: true, lastReportAt: ago(0), lastMovingAt: ago(0), stationarySince: null }, now, s).status).toBe('MOVING');
  });

  it('stays MOVING during a short halt, then IDLING with the engine on', () => {
    const base = { speed: 0, ignition: true, lastReportAt: ago(0), lastMovingAt: ago(2) };
    expect(vehicleStatus({ ...base, stationarySince: ago(2) }, now, s).status).toBe('MOVING');
    expect(vehicleStatus({ ...base, stationarySince: ago(6), lastMovingAt: ago(6) }, now, s)).toEqual({ status: 'IDLING', since: ago(6) });
  });

  it('is STOPPED with the ignition off', () => {
    expect(vehicleStatus({ speed: 0, ignition: false, lastReportAt: ago(1), lastMovingAt: ago(1), stationarySince: ago(1) }, now, s).status).toBe('STOPPED');
  });

  it('without ignition: IDLING after recent movement, STOPPED long after', () => {
    expect(vehicleStatus({ speed: 0, ignition: null, lastReportAt: ago(0), lastMovingAt: ago(10), stationarySince: ago(10) }, now, s).status).toBe('IDLING');
    expect(vehicleStatus({ speed: 0, ignition: null, lastReportAt: ago(0), lastMovingAt: ago(90), stationarySince: ago(90) }, now, s).status).toBe('STOPPED');
    expect(vehicleStatus({ speed: 0, ignition: null, lastReportAt: ago(0), lastMovingAt: null, stationarySince: ago(1) }, now, s).status).toBe('STOPPED');
  });

  it('is OFFLINE after the threshold whatever it last reported, and honours the setting', () => {
    const v = { speed: 90, ignition: true, lastReportAt: ago(61), lastMovingAt: ago(61), stationarySince: null };
    expect(vehicleStatus(v, now, s)).toEqual({ status: 'OFFLINE', since: ago(1) });
    expect(vehicleStatus(v, now, { ...s, offlineAfterMinutes: 120 }).status).toBe('MOVING');
  });
});
