import { describe, expect, it } from 'vitest';
import { EldInputError } from './errors.ts';
import { homeTerminalTime, utcOffsetHours } from './local-time.ts';

describe('home-terminal time', () => {
  it('gives the local date and time of an instant in the home terminal zone', () => {
    expect(homeTerminalTime('2026-06-01T11:30:00Z', 'America/Chicago')).toBe('2026-06-01T06:30:00');
    expect(homeTerminalTime(new Date('2026-01-15T05:59:59Z'), 'America/Chicago')).toBe('2026-01-14T23:59:59');
    expect(homeTerminalTime(Date.parse('2026-06-01T11:30:00.900Z'), 'America/Los_Angeles')).toBe('2026-06-01T04:30:00');
  });

  it('follows daylight saving time across the spring change', () => {
    // 2026-03-08 02:00 CST → 03:00 CDT in Chicago.
    expect(homeTerminalTime('2026-03-08T07:59:00Z', 'America/Chicago')).toBe('2026-03-08T01:59:00');
    expect(homeTerminalTime('2026-03-08T08:00:00Z', 'America/Chicago')).toBe('2026-03-08T03:00:00');
  });

  it('gives the offset from UTC in whole hours without sign, as the header writes it', () => {
    expect(utcOffsetHours('2026-06-01T12:00:00Z', 'America/Chicago')).toBe(5);
    expect(utcOffsetHours('2026-01-01T12:00:00Z', 'America/Chicago')).toBe(6);
    expect(utcOffsetHours('2026-06-01T12:00:00Z', 'America/New_York')).toBe(4);
    expect(utcOffsetHours('2026-06-01T12:00:00Z', 'Pacific/Honolulu')).toBe(10);
  });

  it('refuses a string without an offset, which would depend on the machine zone', () => {
    expect(() => homeTerminalTime('2026-06-01T11:30:00', 'America/Chicago')).toThrow(EldInputError);
  });

  it('refuses an unknown zone', () => {
    expect(() => homeTerminalTime('2026-06-01T11:30:00Z', 'America/Gotham')).toThrow(/not an IANA time zone/);
  });
});
