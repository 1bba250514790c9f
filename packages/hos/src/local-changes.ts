import type { DutyStatus, Special } from './types.ts';

// The driver's phone counts the clocks itself while it has no signal (issue 44, decision 0184): the
// periods the server last gave it, continued to now, with the duty-status changes the driver made
// since and has not yet been able to send. The engine (clocksAt) then runs on the phone as it runs on
// the server, so the numbers agree once the changes are sent.

/** A duty period in epoch milliseconds, as the driver-status answer carries them. */
export interface LocalPeriod {
  status: DutyStatus;
  start: number;
  end: number;
  special?: Special;
}

/** A duty-status change the phone recorded and has not yet sent. */
export interface LocalChange {
  status: DutyStatus;
  special?: Special | null;
  /** Epoch ms the driver made it. */
  at: number;
}

/**
 * The synced periods (the last ending at `syncedAt`, the instant they were computed at) continued to
 * `nowMs`, then cut at each change's time and followed by the change, which lasts until the next one
 * or `nowMs`. Changes at or before the start of the synced history, or after `nowMs`, are left out.
 */
export function periodsWithChanges(periods: readonly LocalPeriod[], syncedAt: number, changes: readonly LocalChange[], nowMs: number): LocalPeriod[] {
  const out = periods.map((p) => ({ ...p }));
  const last = out.at(-1);
  // The status running when the server answered still runs.
  if (last && last.end === syncedAt && nowMs > syncedAt) last.end = nowMs;
  const first = out[0]?.start ?? -Infinity;
  for (const c of [...changes].sort((x, y) => x.at - y.at)) {
    if (c.at <= first || c.at > nowMs) continue;
    while (out.length && out.at(-1)!.start >= c.at) out.pop();
    const cut = out.at(-1);
    if (cut && cut.end > c.at) cut.end = c.at;
    const period: LocalPeriod = { status: c.status, start: c.at, end: nowMs };
    if (c.special) period.special = c.special;
    out.push(period);
  }
  return out;
}
