export * from './types.ts';
export { RESTART_MS, RULESET_LABELS } from './ruleset-facts.ts';
export { HosInputError } from './errors.ts';
export { auditLog, severityOf } from './audit.ts';
export { clocksAt } from './clocks.ts';
export { dailyTotals } from './daily-totals.ts';
export { periodsWithChanges, type LocalChange, type LocalPeriod } from './local-changes.ts';
export { auditAcrossBorders, clocksAcrossBorders, rulesetAt, ruleSpans, type RuleSegment } from './jurisdictions.ts';
export { CANADA_PERSONAL_USE_KM_PER_DAY, limitPersonalConveyance, type PersonalConveyanceDay, type PersonalConveyanceDistance } from './personal-conveyance.ts';
