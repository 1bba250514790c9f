import { describe, expect, it } from 'vitest';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import { dayDistance } from './hos-distance.ts';

const { DUTY_STATUS, INTERMEDIATE_LOG, CERTIFICATION } = HOS_EVENT_TYPES;

describe('a log day distance', () => {
  it('sums each vehicle last minus first and ignores certifications and replaced versions', () => {
    const d = dayDistance([
      { eventType: DUTY_STATUS, vehicleId: 'a', odometerM: 1_000 },
      { eventType: CERTIFICATION, vehicleId: 'a', odometerM: 1 },
      { eventType: INTERMEDIATE_LOG, vehicleId: 'a', odometerM: 51_000 },
      { eventType: DUTY_STATUS, recordStatus: HOS_RECORD_STATUSES.INACTIVE_CHANGED, vehicleId: 'a', odometerM: 999_999 },
      { eventType: DUTY_STATUS, vehicleId: 'b', odometerM: 700_000 },
      { eventType: DUTY_STATUS, vehicleId: 'b', odometerM: 720_000 },
    ]);
    expect(d).toEqual({ distanceM: 70_000, startM: 1_000, endM: 720_000 });
  });

  it('is unknown without readings', () => {
    expect(dayDistance([{ eventType: CERTIFICATION, vehicleId: null, odometerM: 5 }])).toEqual({ distanceM: null, startM: null, endM: null });
  });
});
