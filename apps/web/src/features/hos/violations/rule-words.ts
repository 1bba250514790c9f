import type { HosViolation } from '@fleet/api-contract';

export type ViolationRule = HosViolation['rule'];
export type Severity = HosViolation['severity'];
export type RulesetId = HosViolation['ruleset'];

// The engine's rule names in a safety manager's words. The limits differ per ruleset
// (reference hos-rules.md 1.2-1.5), so a row names its driver's limit; the filter names the rule
// as it reads for US property carriers, the usual case, or for the rulesets that alone have it.

/** The filter's words for each rule, in the engine's order. */
export const RULE_FILTER_LABELS: Record<ViolationRule, string> = {
  DRIVING_LIMIT: '11-hour driving limit',
  WINDOW_LIMIT: '14-hour window',
  BREAK_REQUIRED: '30-minute break',
  CYCLE_LIMIT: '60/70-hour cycle limit',
  ON_DUTY_LIMIT: 'On-duty limit (15 h; Canada 14 h)',
  SHIFT_ELAPSED_LIMIT: '16-hour shift (Canada)',
  DAILY_DRIVING_LIMIT: '13-hour daily driving (Canada)',
  DAILY_ON_DUTY_LIMIT: '14-hour daily on-duty (Canada)',
  DAILY_OFF_DUTY: '10 hours off per day (Canada)',
  CYCLE_OFF_DUTY_REQUIRED: '24 hours off required (Canada)',
};

const canada = (r: RulesetId) => r === 'CA_SOUTH_CYCLE_1' || r === 'CA_SOUTH_CYCLE_2';
const canadaNorth = (r: RulesetId) => r === 'CA_NORTH_CYCLE_1' || r === 'CA_NORTH_CYCLE_2';
const passenger = (r: RulesetId) => r === 'US_PASSENGER_70_8' || r === 'US_PASSENGER_60_7';

const florida = (r: RulesetId) => r === 'FL_INTRASTATE_70_7' || r === 'FL_INTRASTATE_80_8';
const alaska = (r: RulesetId) => r === 'AK_PROPERTY_70_7' || r === 'AK_PROPERTY_80_8' || r === 'AK_PASSENGER_70_7' || r === 'AK_PASSENGER_80_8';

function drivingHours(r: RulesetId): number {
  if (passenger(r)) return 10;
  if (florida(r)) return 12;
  if (alaska(r)) return 15;
  if (r === 'MX_NOM_087') return 14;
  if (r === 'TX_INTRASTATE' || r === 'CA_INTRASTATE') return 12;
  if (canada(r)) return 13;
  if (canadaNorth(r)) return 15;
  return 11;
}

const CYCLE_WORDS: Record<RulesetId, string> = {
  US_PROPERTY_70_8: '70-hour/8-day',
  US_PROPERTY_60_7: '60-hour/7-day',
  US_PASSENGER_70_8: '70-hour/8-day',
  US_PASSENGER_60_7: '60-hour/7-day',
  CA_SOUTH_CYCLE_1: '70-hour/7-day',
  CA_SOUTH_CYCLE_2: '120-hour/14-day',
  CA_NORTH_CYCLE_1: '80-hour/7-day',
  CA_NORTH_CYCLE_2: '120-hour/14-day',
  TX_INTRASTATE: '70-hour/7-day',
  CA_INTRASTATE: '80-hour/8-day',
  FL_INTRASTATE_70_7: '70-hour/7-day',
  FL_INTRASTATE_80_8: '80-hour/8-day',
  AK_PROPERTY_70_7: '70-hour/7-day',
  AK_PROPERTY_80_8: '80-hour/8-day',
  AK_PASSENGER_70_7: '70-hour/7-day',
  AK_PASSENGER_80_8: '80-hour/8-day',
  MX_NOM_087: '168-hour/7-day',
};

/** The rule as it reads for the driver's ruleset, e.g. "11-hour driving limit" or "70-hour/8-day cycle limit". */
export function ruleLabel(rule: ViolationRule, ruleset: RulesetId): string {
  switch (rule) {
    case 'DRIVING_LIMIT':
      return `${drivingHours(ruleset)}-hour driving limit`;
    case 'WINDOW_LIMIT':
      return ruleset === 'CA_INTRASTATE' || florida(ruleset) ? '16-hour window' : '14-hour window';
    case 'CYCLE_LIMIT':
      return `${CYCLE_WORDS[ruleset]} cycle limit`;
    case 'ON_DUTY_LIMIT':
      return canada(ruleset)
        ? '14-hour on-duty limit'
        : canadaNorth(ruleset)
          ? '18-hour on-duty limit'
          : alaska(ruleset)
            ? '20-hour on-duty limit'
            : '15-hour on-duty limit';
    case 'SHIFT_ELAPSED_LIMIT':
      return canadaNorth(ruleset) ? '20-hour shift (Canada north of 60°)' : RULE_FILTER_LABELS[rule];
    case 'BREAK_REQUIRED':
      return ruleset === 'MX_NOM_087' ? '30-minute pause after 5 hours (NOM-087)' : RULE_FILTER_LABELS[rule];
    default:
      return RULE_FILTER_LABELS[rule];
  }
}

/** One sentence on what the rule forbids, for the rule's tooltip. */
export const RULE_HELP: Record<ViolationRule, string> = {
  DRIVING_LIMIT:
    'Drove past the most driving allowed after the required off-duty rest (11 h US property, 10 h passenger, 12 h Texas, California and Florida, 13 h Canada, 14 h Mexico, 15 h Alaska).',
  WINDOW_LIMIT: 'Drove after the shift window closed: 14 consecutive hours after coming on duty (16 h in California), counted whether on or off duty.',
  BREAK_REQUIRED: 'Drove more than 8 hours in total without a non-driving period of at least 30 consecutive minutes.',
  CYCLE_LIMIT: 'Drove after reaching the on-duty hours allowed in the rolling 7 or 8 days (14 in Canada cycle 2); a restart sets the cycle back to zero.',
  ON_DUTY_LIMIT: 'Drove after the on-duty hours allowed in the shift (15 h US passenger and Texas, 14 h Canada); off-duty time does not count.',
  SHIFT_ELAPSED_LIMIT: 'Canada: drove more than 16 hours after the end of the last 8 consecutive hours off duty.',
  DAILY_DRIVING_LIMIT: 'Canada: drove more than 13 hours in one day.',
  DAILY_ON_DUTY_LIMIT: 'Canada: drove after 14 hours on duty in one day.',
  DAILY_OFF_DUTY: 'Canada: took less than 10 hours off duty in one day.',
  CYCLE_OFF_DUTY_REQUIRED: 'Canada: drove without 24 consecutive hours off in the last 14 days, or, in cycle 2, after 70 hours on duty without 24 hours off.',
};

export const SEVERITY_LABELS: Record<Severity, string> = {
  NOMINAL: 'Nominal',
  VIOLATION: 'Violation',
  EGREGIOUS: 'Egregious',
};

/** The FMCSA's bands (reference E6), for the severity filter and badge tooltip. */
export const SEVERITY_HELP: Record<Severity, string> = {
  NOMINAL: 'Under 15 minutes over the limit',
  VIOLATION: 'From 15 minutes to 3 hours over the limit',
  EGREGIOUS: 'More than 3 hours over the limit',
};

export const SEVERITY_COLORS: Record<Severity, string> = {
  NOMINAL: 'yellow',
  VIOLATION: 'orange',
  EGREGIOUS: 'red',
};

export const RULESET_LABELS: Record<RulesetId, string> = {
  US_PROPERTY_70_8: 'US property 70/8',
  US_PROPERTY_60_7: 'US property 60/7',
  US_PASSENGER_70_8: 'US passenger 70/8',
  US_PASSENGER_60_7: 'US passenger 60/7',
  CA_SOUTH_CYCLE_1: 'Canada cycle 1',
  CA_SOUTH_CYCLE_2: 'Canada cycle 2',
  CA_NORTH_CYCLE_1: 'Canada north cycle 1',
  CA_NORTH_CYCLE_2: 'Canada north cycle 2',
  TX_INTRASTATE: 'Texas intrastate',
  CA_INTRASTATE: 'California intrastate',
  FL_INTRASTATE_70_7: 'Florida intrastate 70/7',
  FL_INTRASTATE_80_8: 'Florida intrastate 80/8',
  AK_PROPERTY_70_7: 'Alaska property 70/7',
  AK_PROPERTY_80_8: 'Alaska property 80/8',
  AK_PASSENGER_70_7: 'Alaska passenger 70/7',
  AK_PASSENGER_80_8: 'Alaska passenger 80/8',
  MX_NOM_087: 'Mexico NOM-087',
};

/**
 * A row of the list that is a finding of a whole log day (`shortMs` set): the day held less than the
 * rule asks whatever work took the time (Canada, SOR/2005-313 s. 14); Start and End are the day's bounds.
 */
export function dayFindingLabel(rule: ViolationRule): string {
  return rule === 'DAILY_OFF_DUTY' ? 'Less than 10 h off in the day (Canada)' : RULE_FILTER_LABELS[rule];
}
export const DAY_FINDING_HELP =
  'The log day held less than 10 hours off duty (2 of them beyond the 8 consecutive hours, in blocks of at least 30 minutes), whether driving or other work took the time. The row spans the day; its duration is how much the day fell short.';
