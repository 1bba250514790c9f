import { clocksAt, periodsWithChanges, type LocalChange } from '@fleet/hos';
import type { Availability, HosDriverStatus } from '@fleet/api-contract';
import type { OutboxRecord } from '../../../lib/outbox.ts';

// The phone's own clocks while duty-status changes wait to be sent (issue 44, decision 0184): the
// same engine the server runs, on the periods it last answered with, continued by those changes.

/**
 * The duty-status changes among the phone's records that the server's answer of `syncedAt` does not
 * hold yet, oldest first: waiting ones, and those sent after that answer was given.
 */
export function waitingChanges(records: readonly OutboxRecord[], syncedAt: number): LocalChange[] {
  return records
    .filter((r) => r.kind === 'STATUS' && (r.state === 'WAITING' || (r.state === 'SENT' && (r.sentAt ?? 0) > syncedAt)))
    .map((r) => {
      const body = r.body as { status: LocalChange['status']; special?: LocalChange['special'] };
      return { status: body.status, special: body.special ?? null, at: r.madeAt };
    })
    .sort((a, b) => a.at - b.at);
}

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
