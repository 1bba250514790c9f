import { describe, expect, it } from 'vitest';
import type { Availability } from '@fleet/api-contract';
import { formatAgo, formatHoursMinutes } from './clock-format.ts';
import { fullLengths, levelOf, liveClocks } from './live-clocks.ts';

const H = 3_600_000;
const AT = Date.parse('2026-06-01T12:00:00Z');

const row = (over: Partial<Availability>): Availability => ({
  driver: { id: 'd', firstName: 'Ann', lastName: 'Lee' },
  vehicle: null,
  ruleset: 'US_PROPERTY_70_8',
  timeZone: 'America/Chicago',
  status: 'D',
  special: null,
  since: '2026-06-01T10:00:00Z',
  strict: { driveMs: 2 * H, windowMs: 5 * H, breakMs: 1 * H, cycleMs: 30 * H },
  provisional: { driveMs: 2 * H, windowMs: 7 * H, breakMs: 1 * H, cycleMs: 30 * H },
  cycleUsedMs: 40 * H,
  restartCompleteAt: new Date(AT + 34 * H).toISOString(),
  availableDriveMs: 1 * H,
  ...over,
});

describe('the local countdown', () => {
  it('runs every clock of a driving driver, never below zero, and keeps the smallest as the time to drive', () => {
    const live = liveClocks(row({}), AT, AT + 90 * 60_000);
    expect(live.strict).toEqual({ driveMs: 0.5 * H, windowMs: 3.5 * H, breakMs: 0, cycleMs: 28.5 * H });
    expect(live.provisional.windowMs).toBe(5.5 * H);
    expect(live.availableDriveMs).toBe(0);
    expect(live.cycleUsedMs).toBe(41.5 * H);
    expect(live.restartCompleteAt).toBe(AT + 35.5 * H);
  });

  it('runs the window and the cycle, not the driving or break time, of a driver on duty', () => {
    const live = liveClocks(row({ status: 'ON' }), AT, AT + H);
    expect(live.strict).toEqual({ driveMs: 2 * H, windowMs: 4 * H, breakMs: 1 * H, cycleMs: 29 * H });
    expect(live.availableDriveMs).toBe(1 * H);
  });

  it('leaves the clocks of a driver off duty, and their restart, as fetched', () => {
    const r = row({ status: 'OFF', restartCompleteAt: '2026-06-02T08:00:00Z' });
    const live = liveClocks(r, AT, AT + 2 * H);
    expect(live.strict).toEqual(r.strict);
    expect(live.restartCompleteAt).toBe(Date.parse('2026-06-02T08:00:00Z'));
    expect(live.cycleUsedMs).toBe(40 * H);
  });

  it('keeps a missing break rule missing and ignores a clock behind the fetch instant', () => {
    const live = liveClocks(row({ strict: { driveMs: H, windowMs: H, breakMs: null, cycleMs: H } }), AT, AT - 5000);
    expect(live.strict.breakMs).toBeNull();
    expect(live.availableDriveMs).toBe(H);
  });
});

describe('levels and words', () => {
  it('are green from 2 h, amber under 2 h and red under 30 min', () => {
    expect(levelOf(2 * H)).toBe('ok');
    expect(levelOf(2 * H - 1)).toBe('low');
    expect(levelOf(30 * 60_000)).toBe('low');
    expect(levelOf(30 * 60_000 - 1)).toBe('critical');
  });

  it('write durations as H:MM and ages in words', () => {
    expect(formatHoursMinutes(5_400_000)).toBe('1:30');
    expect(formatHoursMinutes(59_999)).toBe('0:00');
    expect(formatHoursMinutes(-5)).toBe('0:00');
    expect(formatHoursMinutes(70 * H)).toBe('70:00');
    expect(formatAgo(30_000)).toBe('just now');
    expect(formatAgo(25 * 60_000)).toBe('25 min ago');
    expect(formatAgo(3 * H + 5 * 60_000)).toBe('3 h 5 min ago');
    expect(formatAgo(52 * H)).toBe('2 d 4 h ago');
  });

  it('size the bars by each ruleset’s limits', () => {
    expect(fullLengths('US_PROPERTY_70_8')).toEqual({ driveMs: 11 * H, windowMs: 14 * H, breakMs: 8 * H, cycleMs: 70 * H });
    expect(fullLengths('US_PASSENGER_60_7')).toMatchObject({ driveMs: 10 * H, windowMs: 15 * H, cycleMs: 60 * H });
    expect(fullLengths('CA_SOUTH_CYCLE_2')).toMatchObject({ driveMs: 13 * H, cycleMs: 120 * H });
    expect(fullLengths('CA_INTRASTATE')).toMatchObject({ driveMs: 12 * H, windowMs: 16 * H, cycleMs: 80 * H });
    expect(fullLengths('FL_INTRASTATE_70_7')).toEqual({ driveMs: 12 * H, windowMs: 16 * H, breakMs: 8 * H, cycleMs: 70 * H });
    expect(fullLengths('AK_PASSENGER_80_8')).toEqual({ driveMs: 15 * H, windowMs: 20 * H, breakMs: 8 * H, cycleMs: 80 * H });
    expect(fullLengths('MX_NOM_087')).toEqual({ driveMs: 14 * H, windowMs: 14 * H, breakMs: 5 * H, cycleMs: 168 * H });
  });
});
