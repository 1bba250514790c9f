import { JURISDICTIONS } from '@fleet/api-contract/registry-reference';
import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import type { ClockName, LatLon, PlanIssue } from './types.ts';

// A plan's reason in words: which clock stops the driver, where, and the earliest arrival in the
// reader's zone ("cycle runs out in Missouri; earliest delivery Thu, Nov 26, 2:00 PM CST, 22 h late").

const NAMES = new Map<string, string>([...JURISDICTIONS.map(([code, name]): [string, string] => [code, name]), ['MX', 'Mexico']]);

/** The state, province or country at a point, as a postal code; null at sea or abroad. */
export function jurisdictionCodeAt(p: LatLon): string | null {
  return jurisdictionAt(p.lat, p.lon)?.code ?? null;
}

/** "Missouri" for "MO"; the code itself when unnamed. */
export function jurisdictionName(code: string): string {
  return NAMES.get(code) ?? code;
}

const CLOCK_WORDS: Record<ClockName, string> = {
  DRIVE: 'driving time runs out',
  WINDOW: 'duty window runs out',
  BREAK: 'a 30-minute break is due',
  CYCLE: 'cycle runs out',
};

/** Words for a clock running out, as the plan's notes and reasons use them. */
export function clockWords(clock: ClockName): string {
  return CLOCK_WORDS[clock];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Creating a formatter costs ~0.1 ms; one per zone is kept.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** "Thu, Nov 26, 2:00 PM CST" in `timeZone`, the zone named, as the screens write times. */
export function formatInstant(at: number, timeZone: string): string {
  return formatter(timeZone).format(at);
}

/** "22 h", "45 min", "3 h 20 min". */
export function formatDuration(durationMs: number): string {
  const minutes = Math.max(1, Math.round(durationMs / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 || h >= 10 ? `${Math.round(minutes / 60)} h` : `${h} h ${m} min`;
}

/** The issue in words, times in `timeZone` (IANA; the signed-in user's zone). */
export function formatPlanReason(issue: PlanIssue, timeZone = 'UTC'): string {
  const cause =
    issue.clock === null
      ? 'traffic-free drive time is too long'
      : `${CLOCK_WORDS[issue.clock]}${issue.jurisdiction ? ` in ${jurisdictionName(issue.jurisdiction)}` : ''}`;
  const what = issue.stopKind === 'PICKUP' ? 'pick-up' : 'delivery';
  if (issue.kind === 'NO_PLAN' || issue.eta === null) return `${cause}; no legal plan reaches the ${what} within the planning horizon`;
  return `${cause}; earliest ${what} ${formatInstant(issue.eta, timeZone)}, ${formatDuration(issue.lateMs)} late`;
}
