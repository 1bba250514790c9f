import { auditAcrossBorders, rulesetAt, type DayFinding, type DutyPeriodInput, type HosOptions, type Violation } from '@fleet/hos';
import { VIOLATION_RULES } from '@fleet/api-contract';
import { engineOptions, isCanadian, type DriverHos, type LogFacts } from './hos.repository.ts';
import { ruleSegmentsOf } from './hos-crossings.ts';
import { logDateOf } from './hos.time.ts';

const ruleRank = (r: string) => (VIOLATION_RULES as readonly string[]).indexOf(r);

/**
 * The engine's violations of one driver's periods with what the log rows declare: C6 deferrals,
 * the C7 team split per log day, and the border crossings (issue 72: from each crossing the rules
 * of the side entered, decision 0313). The engine takes `team` for a whole log, but a co-driver is
 * recorded per log day (`hos_logs.co_driver_id`), so when some days of a log judged by Canadian
 * rules have one the log is audited twice, solo and as a team, and each violation is taken from
 * the audit that matches the log day it starts in (decision 0094).
 */
export function violationsOf(periods: DutyPeriodInput[], d: DriverHos, periodStart: string, facts: LogFacts | undefined): Violation[] {
  return auditOf(periods, d, periodStart, facts).violations;
}

/**
 * violationsOf with the engine's day-level findings (Canada, s. 14; decision 0308). A day's off-duty
 * time does not depend on the sleeper-berth pairing, so the solo audit's findings stand for team days too.
 */
export function auditOf(
  periods: DutyPeriodInput[],
  d: DriverHos,
  periodStart: string,
  facts: LogFacts | undefined,
): { violations: Violation[]; dayFindings: DayFinding[] } {
  if (periods.length === 0) return { violations: [], dayFindings: [] };
  const { base, segments } = ruleSegmentsOf(d.ruleset, facts?.crossings ?? []);
  const audit = (team: boolean) => auditAcrossBorders(periods, segments, { ...engineOptions(d, periodStart, facts, team), ruleset: base });
  const { violations: solo, dayFindings } = audit(false);
  if (!facts?.teamDays.size || !(isCanadian(base) || segments.some((s) => isCanadian(s.ruleset)))) return { violations: solo, dayFindings };
  const teamDay = (v: Violation) => facts.teamDays.has(logDateOf(Date.parse(v.start), d.homeTimeZone, periodStart));
  const team = audit(true).violations;
  const violations = [...solo.filter((v) => !teamDay(v)), ...team.filter(teamDay)].sort(
    (x, y) => Date.parse(x.start) - Date.parse(y.start) || ruleRank(x.rule) - ruleRank(y.rule),
  );
  return { violations, dayFindings };
}

/**
 * The options for the clocks at an instant: the ruleset in force there (the side of the border the
 * driver is on), and a team when the log day holding it has a co-driver.
 */
export function optionsAt(atMs: number, d: DriverHos, periodStart: string, facts: LogFacts | undefined): HosOptions {
  const { base, segments } = ruleSegmentsOf(d.ruleset, facts?.crossings ?? []);
  const ruleset = segments.length ? rulesetAt(segments, atMs, base) : base;
  const team = isCanadian(ruleset) && !!facts?.teamDays.has(logDateOf(atMs, d.homeTimeZone, periodStart));
  return { ...engineOptions(d, periodStart, facts, team), ruleset };
}
