// Logs that cross a border (issue 72): the rules of where the truck is apply from each crossing.
// Built only on the public functions (auditLog, clocksAt): the engine judges one ruleset at a time,
// and this file judges each stretch of the log by the ruleset in force there (decision 0313).
import { auditLog } from './audit.ts';
import { clocksAt } from './clocks.ts';
import { HosInputError } from './errors.ts';
import { buildDayGrid, parseDayStart } from './days.ts';
import type { AuditResult, ClocksResult, DayFinding, DutyPeriodInput, HosOptions, RulesetId, Severity, Violation } from './types.ts';

/** From `from` on (ISO instant or epoch ms) until the next segment, the ruleset in force is `ruleset`. */
export interface RuleSegment {
  from: string | number;
  ruleset: RulesetId;
}

const NOMINAL_MS = 15 * 60_000;
const EGREGIOUS_MS = 3 * 3_600_000;
const severity = (ms: number): Severity => (ms < NOMINAL_MS ? 'NOMINAL' : ms > EGREGIOUS_MS ? 'EGREGIOUS' : 'VIOLATION');

interface Span {
  startMs: number;
  endMs: number;
  ruleset: RulesetId;
}

/**
 * The stretches of time each ruleset is in force: before the first segment `options.ruleset`,
 * then each segment until the next. Segments must be sorted by strictly increasing `from` (a
 * HosInputError otherwise); consecutive segments with the same ruleset are one stretch.
 */
export function ruleSpans(segments: readonly RuleSegment[], base: RulesetId): Span[] {
  const spans: Span[] = [{ startMs: -Infinity, endMs: Infinity, ruleset: base }];
  let last = -Infinity;
  segments.forEach((s, i) => {
    const at = typeof s.from === 'number' ? s.from : Date.parse(s.from);
    if (!Number.isFinite(at)) throw new HosInputError('not an instant', null, `segments[${i}].from`);
    if (at <= last) throw new HosInputError('segments must be sorted by strictly increasing from', null, `segments[${i}].from`);
    last = at;
    const prev = spans[spans.length - 1]!;
    if (prev.ruleset === s.ruleset) return;
    prev.endMs = at;
    spans.push({ startMs: at, endMs: Infinity, ruleset: s.ruleset });
  });
  return spans;
}

/** The ruleset in force at an instant. */
export function rulesetAt(segments: readonly RuleSegment[], at: string | number, base: RulesetId): RulesetId {
  const atMs = typeof at === 'number' ? at : Date.parse(at);
  const spans = ruleSpans(segments, base);
  for (let i = spans.length - 1; i >= 0; i--) if (spans[i]!.startMs <= atMs) return spans[i]!.ruleset;
  return base;
}

/**
 * Judges a log that crosses borders: the violations inside each stretch are those of that
 * stretch's ruleset judged over the whole log, so the days before a crossing count under the
 * rules of the side entered (a driver entering Canada must have met Canada's rules over the
 * previous days, and the reverse). A violation running over a crossing is cut at it, each piece
 * keeping its side's ruleset and a severity by its own length. Without a change of ruleset the
 * answer is exactly `auditLog(periods, options)`.
 */
export function auditAcrossBorders(periods: DutyPeriodInput[], segments: readonly RuleSegment[], options: HosOptions): AuditResult {
  const spans = ruleSpans(segments, options.ruleset);
  if (spans.length === 1) return auditLog(periods, { ...options, ruleset: spans[0]!.ruleset });
  const byRuleset = new Map<RulesetId, AuditResult>();
  const out: Array<Violation & { ruleset: RulesetId }> = [];
  const dayFindings = new Map<string, DayFinding>();
  const dayBounds = dayBoundsOf(periods, options);
  for (const span of spans) {
    let audit = byRuleset.get(span.ruleset);
    if (!audit) byRuleset.set(span.ruleset, (audit = auditLog(periods, { ...options, ruleset: span.ruleset })));
    // A day-level finding (Canada, s. 14) stands for a log day some of which was under this stretch's rules.
    for (const f of audit.dayFindings) {
      const [start, end] = dayBounds(f.day);
      if (start < span.endMs && end > span.startMs && !dayFindings.has(`${f.rule}|${f.day}`)) dayFindings.set(`${f.rule}|${f.day}`, f);
    }
    for (const v of audit.violations) {
      const s = Math.max(Date.parse(v.start), span.startMs);
      const e = Math.min(Date.parse(v.end), span.endMs);
      if (e <= s) continue;
      const cut = s !== Date.parse(v.start) || e !== Date.parse(v.end);
      out.push({
        rule: v.rule,
        start: new Date(s).toISOString(),
        end: new Date(e).toISOString(),
        severity: cut ? severity(e - s) : v.severity,
        ruleset: span.ruleset,
      });
    }
  }
  // Spans are in time order and each audit is sorted by start then rule: a stable sort by start keeps that.
  out.sort((x, y) => Date.parse(x.start) - Date.parse(y.start));
  return {
    violations: out.map(({ ruleset: _r, ...v }) => v),
    dayFindings: [...dayFindings.values()].sort((a, b) => a.day.localeCompare(b.day) || a.rule.localeCompare(b.rule)),
  };
}

/** The instants a log day (YYYY-MM-DD in the home zone, from the carrier's day start) runs between. */
function dayBoundsOf(periods: DutyPeriodInput[], options: HosOptions): (day: string) => [number, number] {
  const ms = (v: string | number) => (typeof v === 'number' ? v : Date.parse(v));
  const from = periods.length ? ms(periods[0]!.start) : 0;
  const to = periods.length ? ms(periods[periods.length - 1]!.end) : 0;
  const grid = buildDayGrid(options.timeZone, parseDayStart(options.cycleDayStart), from - 86_400_000, to + 86_400_000);
  return (day) => {
    const k = Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000) - grid.firstDay;
    const start = grid.starts[k];
    const end = grid.starts[k + 1];
    return start === undefined || end === undefined ? [-Infinity, Infinity] : [start, end];
  };
}

/** The clocks at `at` by the ruleset in force at that instant, counting the whole log before it. */
export function clocksAcrossBorders(periods: DutyPeriodInput[], at: string | number, segments: readonly RuleSegment[], options: HosOptions): ClocksResult {
  return clocksAt(periods, at, { ...options, ruleset: rulesetAt(segments, at, options.ruleset) });
}
