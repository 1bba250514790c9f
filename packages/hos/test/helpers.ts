import type { DutyPeriod, DutyStatus, HosOptions, RulesetId, Special, Violation } from '../src/index.ts';

const H = 3_600_000;

/** Local wall time in America/Chicago during June 2026 (CDT, UTC-5) → ISO instant with offset. */
export function cdt(local: string): string {
  return `${local}:00-05:00`;
}

/** The UTC ISO form the engine answers with, for a CDT wall time like '2026-06-01T14:00'. */
export function utc(local: string): string {
  return new Date(cdt(local)).toISOString();
}

type Part = [DutyStatus | `${DutyStatus}:${Special}`, number];

/**
 * A log from consecutive parts of [status, hours], starting at a CDT wall time.
 * Example: log('2026-06-01T06:00', ['ON', 1], ['D', 4.5], ['OFF:PC', 0.5]).
 */
export function log(startLocal: string, ...parts: Part[]): DutyPeriod[] {
  let t = Date.parse(cdt(startLocal));
  return parts.map(([what, hours]) => {
    const [status, special] = what.split(':') as [DutyStatus, Special | undefined];
    const start = new Date(t).toISOString();
    t += Math.round(hours * H);
    const p: DutyPeriod = { status, start, end: new Date(t).toISOString() };
    if (special) p.special = special;
    return p;
  });
}

export function opts(ruleset: RulesetId, extra: Partial<HosOptions> = {}): HosOptions {
  return { ruleset, timeZone: 'America/Chicago', ...extra };
}

/** Violations as compact tuples [rule, startLocal, endLocal] for readable assertions. */
export function brief(violations: Violation[]): Array<[string, string, string]> {
  const local = (iso: string): string => new Date(Date.parse(iso) - 5 * H).toISOString().slice(0, 16);
  return violations.map((v) => [v.rule, local(v.start), local(v.end)]);
}

export const hours = (h: number): number => Math.round(h * H);
