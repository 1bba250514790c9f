import { describe, expect, it } from 'vitest';
import { baseJurisdictionZone, principalZone } from './jurisdiction-zones.ts';

describe('baseJurisdictionZone (decision 0189)', () => {
  it("is the base jurisdiction's principal zone", () => {
    expect(baseJurisdictionZone('IL', 'America/Chicago')).toBe('America/Chicago');
    expect(baseJurisdictionZone('IL', 'America/New_York')).toBe('America/Chicago');
    expect(principalZone('on')).toBe('America/Toronto');
  });

  it("keeps the carrier's own zone when a several-zone jurisdiction has it (El Paso in Texas)", () => {
    expect(baseJurisdictionZone('TX', 'America/Denver')).toBe('America/Denver');
    expect(baseJurisdictionZone('TX', 'America/Los_Angeles')).toBe('America/Chicago');
    // The same clock under another name counts as the same zone.
    expect(baseJurisdictionZone('KY', 'America/Indiana/Indianapolis')).toBe('America/Indiana/Indianapolis');
  });

  it("falls back to the carrier's own zone without a known base jurisdiction, else UTC", () => {
    expect(baseJurisdictionZone(null, 'America/Phoenix')).toBe('America/Phoenix');
    expect(baseJurisdictionZone('ZZ', null)).toBe('UTC');
  });
});
