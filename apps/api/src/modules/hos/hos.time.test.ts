import { describe, expect, it } from 'vitest';
import { dayStartMs, exactZoneOffsetMs, logDateOf, zoneOffsetMs } from './hos.time.ts';

const ZONES = [
  'America/Chicago',
  'America/New_York',
  'America/Los_Angeles',
  'America/Phoenix',
  'America/St_Johns',
  'America/Toronto',
  'America/Regina',
  'Pacific/Honolulu',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'UTC',
];

describe('zone offsets by quarter hour', () => {
  it('answer exactly what Intl answers, every 3 minutes around DST changes and at random instants', () => {
    // Around the 2026 changes of North America (8 March, 1 November), Newfoundland's half-hour zone
    // included, and Lord Howe's half-hour shift (5 April, 4 October).
    const around = ['2026-03-08T00:00:00Z', '2026-11-01T00:00:00Z', '2026-04-04T12:00:00Z', '2026-10-03T12:00:00Z', '2026-04-05T12:00:00Z'];
    for (const zone of ZONES) {
      for (const iso of around) {
        const t0 = Date.parse(iso);
        for (let m = 0; m < 24 * 60; m += 3) {
          const ms = t0 + m * 60_000 + 17;
          expect(zoneOffsetMs(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toBe(exactZoneOffsetMs(ms, zone));
        }
      }
      let seed = 7;
      for (let k = 0; k < 500; k++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const ms = Date.parse('1990-01-01T00:00:00Z') + Math.floor((seed / 2147483648) * 50 * 365 * 86_400_000);
        expect(zoneOffsetMs(ms, zone), `${zone} ${ms}`).toBe(exactZoneOffsetMs(ms, zone));
      }
    }
  });

  it('gives log days of 23 and 25 hours on the DST changes of the home zone', () => {
    expect(dayStartMs('2026-03-09', 'America/Chicago', '00:00') - dayStartMs('2026-03-08', 'America/Chicago', '00:00')).toBe(23 * 3_600_000);
    expect(dayStartMs('2026-11-02', 'America/Chicago', '00:00') - dayStartMs('2026-11-01', 'America/Chicago', '00:00')).toBe(25 * 3_600_000);
    expect(logDateOf(Date.parse('2026-11-01T05:30:00Z'), 'America/Chicago', '00:00')).toBe('2026-11-01');
  });
});
