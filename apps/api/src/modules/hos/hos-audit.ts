import {
  auditAcrossBorders,
  limitPersonalConveyance,
  rulesetAt,
  type DayFinding,
  type DutyPeriodInput,
  type HosOptions,
  type PersonalConveyanceDay,
  type Violation,
} from '@fleet/hos';
import { isCanadianRuleset } from '@fleet/api-contract';
import { VIOLATION_RULES } from '@fleet/api-contract';
import { engineOptions, isCanadian, type DriverHos, type LogFacts } from './hos.repository.ts';
import type { RulesetId } from '@fleet/hos/ruleset-facts';
import { ruleSegmentsOf } from './hos-crossings.ts';
import { logDateOf } from './hos.time.ts';
import type { MsPeriod } from './hos.periods.ts';

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
  logged: DutyPeriodInput[],
  d: DriverHos,
  periodStart: string,
  facts: LogFacts | undefined,
): { violations: Violation[]; dayFindings: DayFinding[]; personalConveyance: PersonalConveyanceDay[] } {
  if (logged.length === 0) return { violations: [], dayFindings: [], personalConveyance: [] };
  const { periods, days: personalConveyance } = pcLimited(logged, d, periodStart, facts);
  const { base, segments } = ruleSegmentsOf(d.ruleset, facts?.crossings ?? []);
  const audit = (team: boolean) => auditAcrossBorders(periods, segments, { ...engineOptions(d, periodStart, facts, team), ruleset: base });
  const { violations: solo, dayFindings } = audit(false);
  if (!facts?.teamDays.size || !(isCanadian(base) || segments.some((s) => isCanadian(s.ruleset)))) return { violations: solo, dayFindings, personalConveyance };
  const teamDay = (v: Violation) => facts.teamDays.has(logDateOf(Date.parse(v.start), d.homeTimeZone, periodStart));
  const team = audit(true).violations;
  const violations = [...solo.filter((v) => !teamDay(v)), ...team.filter(teamDay)].sort(
    (x, y) => Date.parse(x.start) - Date.parse(y.start) || ruleRank(x.rule) - ruleRank(y.rule),
  );
  return { violations, dayFindings, personalConveyance };
}

/**
 * Canada's personal-use limit (SOR/2005-313 s. 2(1)(e)(iii), decision 0319): for a driver on a
 * Canadian ruleset, the PC driving beyond 75 km in a log day is driving for the audit. The distances
 * are those of the PC periods in the log (a stretch whose start the log has cut off is left out).
 */
function pcLimited(periods: DutyPeriodInput[], d: DriverHos, periodStart: string, facts: LogFacts | undefined) {
  const list = facts?.pcDistances;
  if (!list?.length) return { periods, days: [] };
  const starts = new Set(periods.flatMap((p) => (p.special === 'PC' ? [Number(p.start)] : [])));
  const distances = list.filter((x) => starts.has(x.startMs)).map((x) => ({ start: x.startMs, end: x.endMs, km: x.km }));
  if (distances.length === 0) return { periods, days: [] };
  // Only the driver's own Canadian rules: on US rules the day's distance is shown, nothing changes.
  const ruleset = isCanadianRuleset(d.ruleset) ? d.ruleset : 'US_PROPERTY_70_8';
  return limitPersonalConveyance(periods, distances, { ruleset, timeZone: d.homeTimeZone, cycleDayStart: periodStart });
}

/**
 * The periods the clocks and the planner read: as for the audit, a Canadian driver's PC driving past
 * 75 km in a day is driving (decision 0319), so the hours left count it.
 */
export function clockPeriods(periods: MsPeriod[], d: DriverHos, periodStart: string, facts: LogFacts | undefined): MsPeriod[] {
  // Instants in, instants out: limitPersonalConveyance keeps the periods' numeric form.
  return pcLimited(periods, d, periodStart, facts).periods as MsPeriod[];
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

/**
 * The Canadian cycle a driver is on at `atMs` after the switches they declared (s. 29, decision
 * 0314): the last switch at or before it names the cycle, with the driver's own zone (south or north
 * of 60°). Other rulesets, or no switch yet: the driver's ruleset.
 */
export function cycleInForce(ruleset: RulesetId, facts: LogFacts | undefined, atMs: number): RulesetId {
  if (!isCanadianRuleset(ruleset)) return ruleset;
  let cycle: 1 | 2 | null = null;
  for (const x of facts?.declarations ?? []) if (x.kind === 'CYCLE_SWITCH' && x.cycle && x.atMs <= atMs) cycle = x.cycle;
  if (cycle === null) return ruleset;
  return ruleset.startsWith('CA_NORTH') ? (cycle === 1 ? 'CA_NORTH_CYCLE_1' : 'CA_NORTH_CYCLE_2') : cycle === 1 ? 'CA_SOUTH_CYCLE_1' : 'CA_SOUTH_CYCLE_2';
}
