import { useEffect, useState } from 'react';
import type { Availability } from '@fleet/api-contract';

export type Clocks = Availability['strict'];
export type ClockName = keyof Clocks;
export type RulesetId = Availability['ruleset'];

const H = 3_600_000;

/** Amber below this much time left, red below `CRITICAL_MS` (issue 15: under 2 h, under 30 min). */
export const LOW_MS = 2 * H;
export const CRITICAL_MS = 30 * 60_000;

export type ClockLevel = 'ok' | 'low' | 'critical';

/** The level a remaining time shows in; colour is never the only sign of it (the time is written too). */
export function levelOf(ms: number): ClockLevel {
  if (ms < CRITICAL_MS) return 'critical';
  if (ms < LOW_MS) return 'low';
  return 'ok';
}

export const LEVEL_COLORS: Record<ClockLevel, string> = { ok: 'teal', low: 'yellow', critical: 'red' };

/**
 * Hours of [driving, window, break, cycle] of the state and Mexican rulesets (packages/hos
 * rulesets.ts): Florida 12 h / 16 h, Alaska 15 h / 20 h on duty, Mexico 14 h (no shift limit: the
 * window is the driving time) with its pause after 5 h and a cycle of the whole week.
 */
const OTHER_LENGTHS: Partial<Record<RulesetId, readonly [number, number, number, number]>> = {
  FL_INTRASTATE_70_7: [12, 16, 8, 70],
  FL_INTRASTATE_80_8: [12, 16, 8, 80],
  AK_PROPERTY_70_7: [15, 20, 8, 70],
  AK_PROPERTY_80_8: [15, 20, 8, 80],
  AK_PASSENGER_70_7: [15, 20, 8, 70],
  AK_PASSENGER_80_8: [15, 20, 8, 80],
  MX_NOM_087: [14, 14, 5, 168],
};

/**
 * The full length of each clock per ruleset (reference hos-rules.md 1.2-1.5), so a bar shows how
 * much of it is left. An exemption can lengthen a clock (16-hour exception): bars then stay full.
 */
export function fullLengths(r: RulesetId): Record<ClockName, number> {
  const other = OTHER_LENGTHS[r];
  if (other) return { driveMs: other[0] * H, windowMs: other[1] * H, breakMs: other[2] * H, cycleMs: other[3] * H };
  const north = r.startsWith('CA_NORTH');
  const drive = r.startsWith('US_PASSENGER') ? 10 : r === 'TX_INTRASTATE' || r === 'CA_INTRASTATE' ? 12 : r.startsWith('CA_SOUTH') ? 13 : north ? 15 : 11;
  const window = r.startsWith('US_PASSENGER') || r === 'TX_INTRASTATE' ? 15 : r === 'CA_INTRASTATE' ? 16 : north ? 18 : 14;
  const cycle = r.endsWith('60_7')
    ? 60
    : r === 'CA_SOUTH_CYCLE_2' || r === 'CA_NORTH_CYCLE_2'
      ? 120
      : r === 'CA_INTRASTATE' || r === 'CA_NORTH_CYCLE_1'
        ? 80
        : 70;
  return { driveMs: drive * H, windowMs: window * H, breakMs: 8 * H, cycleMs: cycle * H };
}

/** What the row's clocks read `elapsedMs` after the instant they were computed at. */
export interface LiveAvailability {
  strict: Clocks;
  provisional: Clocks;
  cycleUsedMs: number;
  availableDriveMs: number;
  restartCompleteAt: number | null;
}

const down = (ms: number, by: number) => Math.max(0, ms - by);

function tick(c: Clocks, status: Availability['status'], e: number): Clocks {
  if (status === 'D')
    return { driveMs: down(c.driveMs, e), windowMs: down(c.windowMs, e), breakMs: c.breakMs === null ? null : down(c.breakMs, e), cycleMs: down(c.cycleMs, e) };
  // On duty, not driving: the shift and the cycle run, driving time does not.
  if (status === 'ON') return { ...c, windowMs: down(c.windowMs, e), cycleMs: down(c.cycleMs, e) };
  return c;
}

/**
 * The clocks of a driver who is driving or on duty, counted down locally from the fetched values;
 * off-duty clocks are left as fetched (a rest may reset them, which only the server can tell), and
 * the list asks the server again every minute anyway.
 */
export function liveClocks(row: Availability, atMs: number, nowMs: number): LiveAvailability {
  const e = Math.max(0, nowMs - atMs);
  const working = row.status === 'D' || row.status === 'ON';
  const strict = tick(row.strict, row.status, e);
  const provisional = tick(row.provisional, row.status, e);
  // Whoever works now would start the restart later: it completes as much later as they keep working.
  const restart = row.restartCompleteAt === null ? null : Date.parse(row.restartCompleteAt) + (working ? e : 0);
  return {
    strict,
    provisional,
    cycleUsedMs: row.cycleUsedMs + (working ? e : 0),
    availableDriveMs: Math.min(strict.driveMs, strict.windowMs, strict.breakMs ?? Infinity, strict.cycleMs),
    restartCompleteAt: restart,
  };
}

/** The current time, renewed every `everyMs`: the countdown's heartbeat. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
