import { clocksAt, periodsWithChanges, type LocalChange } from '@fleet/hos';
import type { Availability, HosDriverStatus } from '@fleet/api-contract';

// The HoS engine's part of the phone's own clocks (offline-clocks.ts loads it when a change waits, issue 67).

/** The driver's clocks at `nowMs` with the changes not yet sent, shaped as the server's. */
export function clocksWithChanges(s: Pick<HosDriverStatus, 'clocks' | 'engine'>, changes: readonly LocalChange[], nowMs: number): Availability {
  const periods = periodsWithChanges(s.engine.periods, s.engine.at, changes, nowMs);
  const c = clocksAt(periods, nowMs, s.engine.options);
  const last = periods.at(-1);
  const strict = c.strict;
  return {
    ...s.clocks,
    status: last?.status ?? null,
    special: last?.special ?? null,
    since: last ? new Date(last.start).toISOString() : null,
    strict,
    provisional: c.provisional,
    cycleUsedMs: c.cycleUsedMs,
    availableDriveMs: Math.min(strict.driveMs, strict.windowMs, strict.breakMs ?? Infinity, strict.cycleMs),
  };
}
