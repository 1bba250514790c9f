import { describe, expect, it } from 'vitest';
import { clocksAt, periodsWithChanges, type HosOptions, type LocalPeriod } from '../src/index.ts';

const H = 3_600_000;
const T0 = Date.parse('2026-06-01T06:00:00-05:00');
const options: HosOptions = { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago' };
const ms = (p: { status: LocalPeriod['status']; start: number; end: number }) => p;

describe('periodsWithChanges (the phone counting the clocks offline)', () => {
  const synced = [ms({ status: 'OFF', start: T0 - 12 * H, end: T0 }), ms({ status: 'D', start: T0, end: T0 + 3 * H })];
  const syncedAt = T0 + 3 * H;

  it('continues the running status to now when nothing changed', () => {
    expect(periodsWithChanges(synced, syncedAt, [], T0 + 4 * H).at(-1)).toEqual({ status: 'D', start: T0, end: T0 + 4 * H });
  });

  it('cuts at each change and gives the same clocks as the log the server holds once the changes are sent', () => {
    const changes = [
      { status: 'SB' as const, at: T0 + 3.5 * H },
      { status: 'OFF' as const, special: 'PC' as const, at: T0 + 5 * H },
    ];
    const now = T0 + 6 * H;
    const local = periodsWithChanges(synced, syncedAt, changes, now);
    const server: LocalPeriod[] = [
      { status: 'OFF', start: T0 - 12 * H, end: T0 },
      { status: 'D', start: T0, end: T0 + 3.5 * H },
      { status: 'SB', start: T0 + 3.5 * H, end: T0 + 5 * H },
      { status: 'OFF', special: 'PC', start: T0 + 5 * H, end: now },
    ];
    expect(local).toEqual(server);
    expect(clocksAt(local, now, options)).toEqual(clocksAt(server, now, options));
    // Three and a half hours of driving and a 2.5 h break: 7.5 h of driving left.
    expect(clocksAt(local, now, options).strict.driveMs).toBe(7.5 * H);
  });

  it('replaces what the synced log held after a change made earlier than it, and leaves the input alone', () => {
    const copy = structuredClone(synced);
    const local = periodsWithChanges(synced, syncedAt, [{ status: 'ON', at: T0 + H }], T0 + 4 * H);
    expect(local).toEqual([
      { status: 'OFF', start: T0 - 12 * H, end: T0 },
      { status: 'D', start: T0, end: T0 + H },
      { status: 'ON', start: T0 + H, end: T0 + 4 * H },
    ]);
    expect(synced).toEqual(copy);
  });
});
