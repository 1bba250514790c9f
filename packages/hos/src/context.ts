import { buildDayGrid, checkZone, parseDayStart, type DayGrid } from './days.ts';
import { readSwitches, type SwitchClaim } from './cycle-switch-claims.ts';
import { NO_DAYS, readDeferrals } from './deferral-days.ts';
import { HosInputError } from './errors.ts';
import { parseInstant } from './instant.ts';
import { OFF24_MS, RULESETS, type RulesetConfig } from './rulesets.ts';
import type { RawLog } from './raw-log.ts';
import { parseLog, type Timeline } from './timeline.ts';
import type { DutyPeriodInput, HosOptions } from './types.ts';
import type { Workspace } from './workspace.ts';

const DAY = 86_400_000;

/** Validated options of one call. */
export interface Settings {
  cfg: RulesetConfig;
  zone: string;
  dayStartMin: number;
  breakRule: boolean;
  sixteenHour: boolean;
  /** Adverse-condition intervals, sorted by start. */
  adverse: Array<{ start: number; end: number }>;
  /** P15 non-CDL short-haul exception applies (US property). */
  nonCdl: boolean;
  /** C6: epoch days (home-terminal dates) declared as day 1 of a deferral; empty outside Canada. */
  deferDays: ReadonlySet<number>;
  /** s. 29 / s. 54: declared cycle switches, sorted; empty outside Canada. */
  switches: readonly SwitchClaim[];
  /** §395.1(d)(2): well-site waiting time (special WAITING) is left out of the 14-hour window. */
  waiting: boolean;
  /** s. 76: declared emergencies, sorted by start; empty outside Canada. */
  emergencies: ReadonlyArray<{ start: number; end: number }>;
}

const NO_EXEMPTIONS: NonNullable<HosOptions['exemptions']> = Object.freeze({});
const NO_CLAIMS: ReadonlyArray<{ start: string; end: string }> = Object.freeze([]);
const byStart = (a: { start: number }, b: { start: number }): number => a.start - b.start;

export function readOptions(options: HosOptions): Settings {
  if (options === null || typeof options !== 'object') throw new HosInputError('options are required', null, 'options');
  let cfg = Object.hasOwn(RULESETS, options.ruleset) ? RULESETS[options.ruleset] : undefined;
  if (!cfg) throw new HosInputError(`unknown ruleset ${JSON.stringify(options.ruleset)}`, null, 'ruleset');
  checkZone(options.timeZone);
  const dayStartMin = parseDayStart(options.cycleDayStart);
  const ex = options.exemptions ?? NO_EXEMPTIONS;
  const claims = ex.adverseDriving ?? NO_CLAIMS;
  const adverse: Settings['adverse'] = [];
  for (let i = 0; i < claims.length; i++) {
    const a = claims[i];
    const start = parseInstant(String(a?.start));
    const end = parseInstant(String(a?.end));
    if (Number.isNaN(start)) throw new HosInputError('adverse-driving start is not an ISO-8601 instant', null, `exemptions.adverseDriving[${i}].start`);
    if (Number.isNaN(end) || end < start)
      throw new HosInputError('adverse-driving end is not an instant after its start', null, `exemptions.adverseDriving[${i}].end`);
    adverse.push({ start, end });
  }
  if (adverse.length > 1) adverse.sort(byStart);
  const emergencies = readEmergencies(options.emergencies, cfg.canada !== null);
  const deferrals = readDeferrals(options.deferrals);
  const switches = readSwitches(options.cycleSwitches, cfg.canada !== null);
  if (options.team !== undefined && typeof options.team !== 'boolean') throw new HosInputError('team must be a boolean', null, 'team');
  const nonCdlClaim = ex.nonCdlShortHaul === true;
  if (nonCdlClaim && ex.sixteenHour === true) {
    // P15 / P16: a driver using §395.1(e)(2) is not eligible for §395.1(o).
    throw new HosInputError('the non-CDL short-haul exception cannot be combined with the 16-hour exception', null, 'exemptions.nonCdlShortHaul');
  }
  const nonCdl = cfg.nonCdlShortHaul && nonCdlClaim;
  // P15: no sleeper-berth split under (e)(2); C7: a team pairs berth periods by s. 19.
  if (nonCdl) cfg = { ...cfg, split: null };
  else if (options.team === true && cfg.canada) cfg = { ...cfg, split: cfg.canada.teamSplit };
  const oilfield = cfg.oilfield === true && ex.oilfield === true;
  // §395.1(d)(1): "any period of 8 consecutive days may end with ... 24 or more successive hours" off.
  if (oilfield && cfg.cycle.days === 8) cfg = { ...cfg, cycle: { ...cfg.cycle, restartMs: OFF24_MS } };
  return {
    cfg,
    zone: options.timeZone,
    dayStartMin,
    // P14 / P15: the short-haul exceptions have no 30-minute break.
    // A ruleset's own break rule (Mexico) is no US rule: the US exemptions leave it.
    breakRule: cfg.breakRule && (cfg.ownBreak !== undefined || (ex.shortHaul150 !== true && !nonCdl)),
    // P16 exists for US property carriers only; elsewhere the claim has no effect.
    sixteenHour: cfg.sixteenHour && ex.sixteenHour === true,
    adverse,
    nonCdl,
    deferDays: cfg.canada && deferrals.size > 0 ? deferrals : NO_DAYS,
    switches,
    waiting: oilfield && cfg.elapsedMs !== null,
    emergencies,
  };
}

const NO_EMERGENCIES: ReadonlyArray<{ start: number; end: number }> = Object.freeze([]);

/** s. 76: the declared emergencies, checked and sorted (none when the ruleset is not Canadian). */
function readEmergencies(list: HosOptions['emergencies'], canada: boolean): ReadonlyArray<{ start: number; end: number }> {
  if (list === undefined || list.length === 0) return NO_EMERGENCIES;
  if (!Array.isArray(list)) throw new HosInputError('emergencies must be an array', null, 'emergencies');
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    const start = typeof e?.start === 'number' ? e.start : parseInstant(String(e?.start));
    const end = typeof e?.end === 'number' ? e.end : parseInstant(String(e?.end));
    if (!Number.isFinite(start)) throw new HosInputError('emergency start is not an instant', null, `emergencies[${i}].start`);
    if (!Number.isFinite(end) || end <= start) throw new HosInputError('emergency end is not an instant after its start', null, `emergencies[${i}].end`);
    out.push({ start, end });
  }
  if (!canada) return NO_EMERGENCIES;
  return out.sort(byStart);
}

/** Everything one evaluation needs. */
export interface Context {
  set: Settings;
  cfg: RulesetConfig;
  tl: Timeline;
  grid: DayGrid;
}

/**
 * Day grid covering the timeline (or only its last `recentDays` days) up to `until`; Canada also
 * needs the 14 days before.
 */
export function gridFor(set: Settings, tl: Timeline, until: number, recentDays?: number): DayGrid {
  let first = tl.n > 0 ? tl.start[0]! : until;
  if (recentDays !== undefined) first = Math.max(first, until - recentDays * DAY);
  const back = set.cfg.canada ? (set.cfg.canada.off24Days + 1) * DAY : 0;
  return buildDayGrid(set.zone, set.dayStartMin, first - back, Math.max(first, until));
}

export function parseInput(periods: readonly DutyPeriodInput[], options: HosOptions, ws: Workspace): { raw: RawLog; set: Settings } {
  const set = readOptions(options);
  return { raw: parseLog(periods, ws), set };
}
