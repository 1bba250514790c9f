import type { DutyStatus } from '@fleet/hos';

// Pure parts of the Canadian roadside view (issue 72, decision 0316).

/**
 * When the driver's last cycle reset was complete at `atMs`: the latest stretch of consecutive
 * off-duty time (OFF or SB, personal conveyance included) at least `restartMs` long, counted as
 * complete `restartMs` after it began (SOR/2005-313 s. 28: 36 h resets cycle 1, 72 h cycle 2).
 * Null without a restart rule or when no such stretch is in `periods`; a gap between periods (time
 * not on the records) ends a stretch.
 */
export function lastResetAt(periods: ReadonlyArray<{ status: DutyStatus; start: number; end: number }>, atMs: number, restartMs: number | null): number | null {
  if (restartMs === null) return null;
  let start: number | null = null;
  let end = 0;
  for (let i = periods.length - 1; i >= 0; i--) {
    const p = periods[i]!;
    if (p.start >= atMs) continue;
    const off = p.status === 'OFF' || p.status === 'SB';
    const pEnd = Math.min(p.end, atMs);
    if (off && start !== null && pEnd >= start) {
      start = p.start;
      continue;
    }
    if (start !== null && end - start >= restartMs) return start + restartMs;
    start = off ? p.start : null;
    end = pEnd;
  }
  return start !== null && end - start >= restartMs ? start + restartMs : null;
}
