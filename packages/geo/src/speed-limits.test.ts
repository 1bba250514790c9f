import { describe, expect, it } from 'vitest';
import { speedLimitAt } from './speed-limits.ts';

// Decision 0200: the limit is judged on the bundled roads only. Off them (in a town or in the country)
// a fix may be on an interstate the bundle lacks, so no limit is known there.

describe('speed limit at a fix', () => {
  it('is the state default for a rural interstate on a bundled road', () => {
    expect(speedLimitAt(37.9, -77.465, true)).toMatchObject({ kph: 88.514, roadClass: 'HIGHWAY_RURAL', jurisdiction: 'VA' });
  });

  it('is unknown off the bundled roads outside towns, where the rural default would call a truck on an unbundled interstate a speeder', () => {
    // Rural Illinois: the 55 mph rural default was applied here before.
    expect(speedLimitAt(40.5, -89.9, true)).toBeNull();
    expect(speedLimitAt(40.5, -89.9, false)).toBeNull();
  });

  it('is unknown outside the US and Canada', () => {
    expect(speedLimitAt(48.85, 2.35, true)).toBeNull();
  });
});
