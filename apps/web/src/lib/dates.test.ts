// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { adminUser } from '../test/fixtures.ts';
import { sessionStore } from './auth-store.ts';
import { dayStartIn, formatDate, formatDateTime, formatTime, fromZoneInput, todayIn, toZoneInput, viewerZone } from './dates.ts';

const signIn = (timeZone: string | null, orgZone?: string) => {
  const u = adminUser();
  sessionStore.set({ user: { ...u, timeZone, organization: { ...u.organization!, timeZone: orgZone } }, accessToken: 'a', refreshToken: 'r' });
};

afterEach(() => sessionStore.set({ user: null, accessToken: null, refreshToken: null }));

describe('the viewer’s zone (decision 0140)', () => {
  it('is the profile zone, else the organization’s, else UTC, never the browser’s', () => {
    signIn('Asia/Tokyo', 'America/Chicago');
    expect(viewerZone()).toBe('Asia/Tokyo');
    signIn(null, 'America/Chicago');
    expect(viewerZone()).toBe('America/Chicago');
    signIn('Not/AZone', 'America/Denver');
    expect(viewerZone()).toBe('America/Denver');
    sessionStore.set({ user: null, accessToken: null, refreshToken: null });
    expect(viewerZone()).toBe('UTC');
  });

  it('formats instants in it, with the zone said', () => {
    signIn(null, 'America/Chicago');
    expect(formatDateTime('2026-06-01T11:19:00Z')).toBe('06/01/26 6:19 AM CDT');
    expect(formatTime('2026-01-15T18:19:00Z')).toBe('12:19 PM CST');
    expect(formatDateTime('2026-06-01T11:19:00Z', 'Asia/Tokyo')).toBe('06/01/26 8:19 PM GMT+9');
    // An instant late in the evening is still that day in Chicago, the next in UTC.
    expect(formatDate('2026-06-02T03:00:00Z')).toBe('06/01/26');
    // A calendar day stays the day it names.
    expect(formatDate('2026-06-01')).toBe('06/01/26');
    expect(formatDate('2026-06-01T12:00:00')).toBe('06/01/26');
  });

  it('gives days and wall clocks of a zone as instants', () => {
    expect(dayStartIn('2026-06-01', 'America/Chicago')).toBe('2026-06-01T05:00:00.000Z');
    expect(dayStartIn('2026-06-02', 'Asia/Tokyo')).toBe('2026-06-01T15:00:00.000Z');
    expect(dayStartIn('2026-11-01', 'America/Chicago')).toBe('2026-11-01T05:00:00.000Z');
    expect(dayStartIn('2026-11-02', 'America/Chicago')).toBe('2026-11-02T06:00:00.000Z');
    expect(todayIn('Asia/Tokyo', new Date('2026-06-01T16:00:00Z'))).toBe('2026-06-02');
    expect(todayIn('America/Chicago', new Date('2026-06-01T16:00:00Z'))).toBe('2026-06-01');
    expect(toZoneInput('2026-06-01T11:19:00Z', 'America/Chicago')).toBe('2026-06-01T06:19');
    expect(fromZoneInput('2026-06-01T06:19', 'America/Chicago')).toBe('2026-06-01T11:19:00.000Z');
    expect(fromZoneInput('nonsense', 'America/Chicago')).toBeNull();
  });
});
