// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { addDays, formatEngineHours, formatHours, fromLocalInput, toLocalInput, todayIn } from './log-format.ts';

describe('log formatting', () => {
  it('prints durations as H:MM, rounding to the minute', () => {
    expect(formatHours(0)).toBe('0:00');
    expect(formatHours(9_000_000)).toBe('2:30');
    expect(formatHours(24 * 3_600_000)).toBe('24:00');
    expect(formatHours(59_700)).toBe('0:01');
  });

  it('steps calendar dates across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('names today in the zone given', () => {
    const at = new Date('2026-10-21T03:00:00Z');
    expect(todayIn('America/Chicago', at)).toBe('2026-10-20');
    expect(todayIn('Europe/Berlin', at)).toBe('2026-10-21');
  });

  it('reads a wall-clock time in a zone back to the instant, on both sides of a daylight-saving change', () => {
    expect(fromLocalInput('2026-10-20T06:00', 'America/Chicago')).toBe('2026-10-20T11:00:00.000Z');
    expect(fromLocalInput('2026-01-20T06:00', 'America/Chicago')).toBe('2026-01-20T12:00:00.000Z');
    expect(fromLocalInput('2026-11-01T05:00', 'America/Chicago')).toBe('2026-11-01T11:00:00.000Z');
    expect(fromLocalInput('nonsense', 'America/Chicago')).toBeNull();
    expect(toLocalInput('2026-10-20T11:00:00.000Z', 'America/Chicago')).toBe('2026-10-20T06:00');
  });

  it('keeps the seconds of a time shown for editing, so an unchanged time reads back as the same instant', () => {
    expect(toLocalInput('2026-10-12T11:00:30.000Z', 'America/Chicago')).toBe('2026-10-12T06:00:30');
    expect(fromLocalInput(toLocalInput('2026-10-12T11:00:30.000Z', 'America/Chicago'), 'America/Chicago')).toBe('2026-10-12T11:00:30.000Z');
  });
});

describe('formatEngineHours (decision 0155)', () => {
  it('tenths rounded down as the ELD keeps them, a dash without engine data', () => {
    expect(formatEngineHours(4000.25)).toBe('4,000.2 h');
    expect(formatEngineHours(12)).toBe('12.0 h');
    expect(formatEngineHours(null)).toBe('—');
  });
});
