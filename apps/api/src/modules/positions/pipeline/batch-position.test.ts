import { batchPositionSchema } from '@fleet/api-contract';
import { describe, expect, it } from 'vitest';
import { wellFormedPosition } from './batch-position.ts';

const base = { fixTime: '2026-11-02T08:00:00Z', latitude: 35, longitude: -97 };

describe('the batch fast check', () => {
  it('vouches only for positions the contract schema accepts', () => {
    const cases: unknown[] = [
      base,
      {
        ...base,
        fixTime: '2026-11-02T08:00:00.123+05:30',
        speed: 88,
        course: 360,
        altitude: -1000,
        accuracy: 0,
        odometer: 0,
        ignition: false,
        attributes: { a: 1 },
      },
      { ...base, speed: null, course: null, altitude: null, accuracy: null, odometer: null, ignition: null, extra: 'ignored' },
      { ...base, fixTime: '2024-02-29T00:00:00Z' },
      { ...base, fixTime: '2026-02-29T00:00:00Z' },
      { ...base, fixTime: '2026-04-31T00:00:00Z' },
      { ...base, fixTime: '2026-13-01T00:00:00Z' },
      { ...base, fixTime: '2026-11-02T24:00:00Z' },
      { ...base, fixTime: '2026-11-02T08:00:00' },
      { ...base, fixTime: '2026-11-02 08:00:00Z' },
      { ...base, fixTime: '2026-11-02T08:00Z' },
      { ...base, fixTime: 1762070400000 },
      { ...base, latitude: 90.0001 },
      { ...base, longitude: -180.5 },
      { ...base, latitude: '35' },
      { ...base, speed: -1 },
      { ...base, speed: 1000.5 },
      { ...base, course: 361 },
      { ...base, altitude: 20001 },
      { ...base, accuracy: -0.1 },
      { ...base, ignition: 'true' },
      { ...base, attributes: [] },
      { ...base, attributes: null },
      { latitude: 35, longitude: -97 },
      null,
      [base],
      'x',
    ];
    for (const c of cases) {
      const fast = wellFormedPosition(c);
      const schema = batchPositionSchema.safeParse(c).success;
      if (fast) expect(schema, JSON.stringify(c)).toBe(true);
    }
    // The common shapes take the fast path.
    expect(wellFormedPosition(cases[0])).not.toBeNull();
    expect(wellFormedPosition(cases[1])).not.toBeNull();
    expect(wellFormedPosition(cases[2])).not.toBeNull();
    expect(wellFormedPosition(cases[3])).not.toBeNull();
    expect(wellFormedPosition(cases[4])).toBeNull();
    expect(wellFormedPosition(cases[5])).toBeNull();
  });
});
