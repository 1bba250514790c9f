import { describe, expect, it } from 'vitest';
import { clocksAt } from '@fleet/hos';
import type { Availability, HosDriverStatus } from '@fleet/api-contract';
import type { OutboxRecord } from '../../../lib/outbox.ts';
import { waitingChanges } from './offline-clocks.ts';
import { clocksWithChanges } from './offline-engine.ts';

const H = 3_600_000;
const T0 = Date.parse('2026-11-20T06:00:00-06:00');
const engine: HosDriverStatus['engine'] = {
  at: T0 + 2 * H,
  periods: [
    { status: 'OFF', start: T0 - 12 * H, end: T0 },
    { status: 'D', start: T0, end: T0 + 2 * H },
  ],
  options: { ruleset: 'US_PROPERTY_70_8', timeZone: 'America/Chicago', cycleDayStart: '00:00' },
};
const synced = clocksAt(engine.periods, engine.at, engine.options);
const clocks = {
  status: 'D',
  special: null,
  since: new Date(T0).toISOString(),
  strict: synced.strict,
  provisional: synced.provisional,
  cycleUsedMs: synced.cycleUsedMs,
  availableDriveMs: 9 * H,
} as Availability;
const record = (over: Partial<OutboxRecord>): OutboxRecord => ({
  id: 'k',
  seq: 1,
  userId: 'u',
  kind: 'STATUS',
  madeAt: T0 + 3 * H,
  label: '',
  path: '',
  body: { status: 'SB' },
  uploads: [],
  state: 'WAITING',
  ...over,
});

describe("the driver's clocks with changes not yet sent", () => {
  it('take the status changes the last answer does not hold (waiting, or sent after it), in time order', () => {
    const changes = waitingChanges(
      [
        record({ id: 'b', madeAt: T0 + 4 * H, body: { status: 'ON', special: 'YM' } }),
        record({ id: 'a', madeAt: T0 + 3 * H }),
        record({ id: 'c', kind: 'DVIR' }),
        record({ id: 'd', state: 'REFUSED' }),
        record({ id: 'e', madeAt: T0 + 5 * H, state: 'SENT', sentAt: T0 + 5 * H + 1000, body: { status: 'OFF' } }),
        // Sent before the answer was given: the answer holds it.
        record({ id: 'f', madeAt: T0 + H, state: 'SENT', sentAt: T0 + H + 1000, body: { status: 'ON' } }),
      ],
      T0 + 2 * H,
    );
    expect(changes).toEqual([
      { status: 'SB', special: null, at: T0 + 3 * H },
      { status: 'ON', special: 'YM', at: T0 + 4 * H },
      { status: 'OFF', special: null, at: T0 + 5 * H },
    ]);
  });

  it('stop the drive clock at the change and show its status from its time', () => {
    const at = T0 + 5 * H;
    const c = clocksWithChanges({ clocks, engine }, [{ status: 'SB', at: T0 + 3 * H }], at);
    expect(c).toMatchObject({ status: 'SB', since: new Date(T0 + 3 * H).toISOString() });
    // Three hours of driving (the synced two, continued one) and none after the change: 8 h left.
    expect(c.strict.driveMs).toBe(8 * H);
    expect(c.availableDriveMs).toBe(Math.min(c.strict.driveMs, c.strict.windowMs, c.strict.breakMs ?? Infinity, c.strict.cycleMs));
    // With no change the drive clock keeps running to now.
    expect(clocksWithChanges({ clocks, engine }, [], at).strict.driveMs).toBe(6 * H);
  });
});
