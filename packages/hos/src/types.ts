/** Public types of the hours-of-service rules engine (issue 4 fixes these names and shapes). */
import type { RulesetId } from './ruleset-facts.ts';

/** Logged duty status: off duty, sleeper berth, driving, on duty not driving. */
export type DutyStatus = 'OFF' | 'SB' | 'D' | 'ON';
/**
 * PC = personal conveyance (status OFF), YM = yard moves (status ON), PASSENGER = team passenger-seat
 * time (P19), WAITING = waiting time at an oil or gas well site (status OFF, §395.1(d)(2): the
 * annotation that marks it; it counts only under `exemptions.oilfield`, otherwise it is plain OFF).
 */
export type Special = 'PC' | 'YM' | 'PASSENGER' | 'WAITING';
/**
 * One duty-status period. start/end: ISO-8601 instants with offset or Z; periods sorted, contiguous,
 * non-overlapping (anything else throws HosInputError).
 */
export interface DutyPeriod {
  status: DutyStatus;
  start: string;
  end: string;
  special?: Special;
}

/**
 * What the engine's functions accept: a duty period whose instants are ISO text (as DutyPeriod) or
 * epoch milliseconds. A caller that holds numbers saves the engine reading text (most of a call).
 */
export interface DutyPeriodInput {
  status: DutyStatus;
  start: string | number;
  end: string | number;
  special?: Special;
}

// The ruleset ids live with the rulesets' names (ruleset-facts.ts): one owner the contract imports alone.
export { RULESET_IDS, type RulesetId } from './ruleset-facts.ts';

/** Options of every engine call. */
export interface HosOptions {
  ruleset: RulesetId;
  /** Home-terminal IANA zone: log days and cycle days are counted in it. */
  timeZone: string;
  /** 'HH:mm' in timeZone: the carrier's 24-hour period starting time, default '00:00'. */
  cycleDayStart?: string;
  exemptions?: {
    /** 150 air-mile short-haul (P14): no 30-minute break rule. */
    shortHaul150?: boolean;
    /** 16-hour short-haul exception (P16) claimed for the shifts in range (US property only). */
    sixteenHour?: boolean;
    /** Intervals with adverse driving conditions claimed (P13). */
    adverseDriving?: Array<{ start: string; end: string }>;
    /**
     * Non-CDL 150 air-mile short-haul exception (P15, §395.1(e)(2)), US property only: no 30-minute
     * break and no sleeper-berth split; driving up to the 16th hour after coming on duty on at most
     * 2 days of any 7 consecutive days, otherwise up to the 14th. Not combinable with `sixteenHour`
     * (HosInputError); other rulesets ignore it.
     */
    nonCdlShortHaul?: boolean;
    /**
     * Oilfield operations (49 CFR §395.1(d)), US property only: (d)(1) any off-duty period of 24 or
     * more consecutive hours ends the 8-day period (the 70 h / 8 days ruleset; the text names no
     * 7-day period, so 60 h / 7 days keeps its 34 h); (d)(2) time logged OFF with special WAITING
     * (waiting at a well site) is off duty and is not counted in the 14-hour window. Other rulesets
     * ignore it.
     */
    oilfield?: boolean;
  };
  /**
   * Canada (C6, SOR/2005-313 s. 16): the log days (YYYY-MM-DD, named as `DailyTotal.date` names
   * them) the driver declared as "day 1" of an off-duty deferral; the next day is its "day 2". Day 1
   * needs 8 h off instead of 10; day 2 needs 10 h plus the time deferred, in total and added to its
   * consecutive off-duty period, and the two days at most 26 h of driving; rest touching the two
   * days is no sleeper-berth split period. A day 2 declared as a day 1, a repeated or invalid date
   * throws HosInputError. Other rulesets ignore it.
   */
  deferrals?: Array<{ day: string }>;
  /**
   * Canada (C7, s. 19): the driver is part of a team (a co-driver is on board) for the whole log:
   * sleeper-berth pairs are two berth periods of ≥ 4 h totalling ≥ 8 h instead of the single
   * driver's ≥ 2 h / 10 h. Other rulesets ignore it.
   */
  team?: boolean;
  /**
   * Canada (s. 29 south of 60°, s. 54 north): the driver's declared switches between cycle 1 and
   * cycle 2, each at an instant (ISO text or epoch ms) inside the off-duty period that allows it
   * (≥ 36 h off to go from cycle 1 to 2, ≥ 72 h from 2 to 1). A valid switch sets the hours back to
   * zero at the end of that period and the new cycle's limits apply from there; one after too little
   * rest still applies from its instant and is a `CYCLE_SWITCH` day finding. Other rulesets ignore it.
   */
  cycleSwitches?: Array<{ at: string | number; to: 1 | 2 }>;
  /**
   * Canada (SOR/2005-313 s. 76): emergencies the driver declared, each from `start` to the instant
   * `end` they reached safety (ISO text or epoch ms). Driving inside one is no violation of the
   * hours limits ("the requirements do not apply" while the driver reaches safety); driving past
   * `end` is judged as usual, so going on beyond the emergency is a violation. Other rulesets ignore
   * it (the US adverse-conditions extension is `exemptions.adverseDriving`).
   */
  emergencies?: Array<{ start: string | number; end: string | number }>;
}

export type ViolationRule =
  | 'DRIVING_LIMIT'
  | 'WINDOW_LIMIT'
  | 'BREAK_REQUIRED'
  | 'CYCLE_LIMIT'
  /** Cumulative on-duty limits (US passenger 15 h, Texas 15 h, Canada 14 h). */
  | 'ON_DUTY_LIMIT'
  /** Canada: 16 h elapsed in a work shift. */
  | 'SHIFT_ELAPSED_LIMIT'
  /** Canada day rules. */
  | 'DAILY_DRIVING_LIMIT'
  | 'DAILY_ON_DUTY_LIMIT'
  | 'DAILY_OFF_DUTY'
  /** Canada: 24 h off in every 14 days; cycle 2: 24 h off after 70 h on duty. */
  | 'CYCLE_OFF_DUTY_REQUIRED';

/** Severity by the violation's length: NOMINAL < 15 min, EGREGIOUS > 3 h, VIOLATION otherwise. */
export type Severity = 'NOMINAL' | 'VIOLATION' | 'EGREGIOUS';

/**
 * One violation. start/end (UTC ISO-8601, `Z`) bound the time the driver was driving while over the
 * limit: driving past a limit is the violation, other work after the limit is legal.
 */
export interface Violation {
  rule: ViolationRule;
  start: string;
  end: string;
  severity: Severity;
}

/** Rules judged on a whole log day rather than on driving (Canada, SOR/2005-313). */
export type DayFindingRule =
  /** s. 14: less than 10 h off duty in the day (2 h of it in blocks of ≥ 30 min), or a C6 deferral's amount. */
  | 'DAILY_OFF_DUTY'
  /** s. 29 / s. 54: a cycle switch declared after less than 36 h (from cycle 1) or 72 h (from cycle 2) off. */
  | 'CYCLE_SWITCH';

/**
 * A finding of one log day: the day fell short of a rule whatever the driver did in it (work after
 * the last driving included). Only Canadian rulesets produce them.
 */
export interface DayFinding {
  rule: DayFindingRule;
  /** The log day, YYYY-MM-DD in the home-terminal zone (as `DailyTotal.date`). */
  day: string;
  /** How much the day fell short, in ms (> 0). */
  shortMs: number;
}

export interface AuditResult {
  /** Sorted by start, then rule. Adjacent intervals of the same rule are merged. */
  violations: Violation[];
  /** Day-level findings, sorted by day (a cycle switch's first); empty for every non-Canadian ruleset. */
  dayFindings: DayFinding[];
}

/**
 * Remaining time (ms, never below 0) before each limit stops the driver from driving.
 * Each clock is independent: the time the driver may still drive is
 * `Math.min(driveMs, windowMs, breakMs ?? Infinity, cycleMs)`.
 */
export interface Clocks {
  /** Driving time left in the shift (Canada: also capped by the day's 13 h). */
  driveMs: number;
  /**
   * Shift time left: the elapsed window (US property 14 h, California 16 h, Canada 16 h) and/or the
   * cumulative on-duty limit (US passenger and Texas 15 h, Canada 14 h and the day's limits),
   * whichever is smaller.
   */
  windowMs: number;
  /** Driving left before a 30-minute break is due; null where no break rule applies. */
  breakMs: number | null;
  /** On-duty time left in the cycle (Canada: also 0 when 24 h off is required first). */
  cycleMs: number;
}

export interface ClocksResult {
  /** Counts only completed sleeper-berth pairs. */
  strict: Clocks;
  /** Assumes the most recent qualifying rest period will be paired by a later one. */
  provisional: Clocks;
  /** On-duty time counted in the current cycle (since the last restart, within the rolling days). */
  cycleUsedMs: number;
}

/** Time per logged duty status in one log day (24 h from cycleDayStart; 23 or 25 h on DST days). */
export interface DailyTotal {
  /** The log day, YYYY-MM-DD in timeZone. */
  date: string;
  /** Length of the log day in ms. */
  lengthMs: number;
  /** ms per logged status inside that day (PC and PASSENGER are OFF, YM is ON, as logged). */
  OFF: number;
  SB: number;
  D: number;
  ON: number;
}
