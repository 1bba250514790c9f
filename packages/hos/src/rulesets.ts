import type { RulesetId, ViolationRule } from './types.ts';
import { RESTART_MS } from './ruleset-facts.ts';

const H = 3_600_000;
const MIN = 60_000;

/** How two rest periods pair into the equivalent of a full rest (sleeper-berth split). */
export type SplitRule =
  /** US property (P8): both ≥ 2 h of rest, one contains ≥ 7 h consecutive SB, together ≥ 10 h. */
  | { kind: 'property'; minMs: number; longSbMs: number; totalMs: number }
  /** Both in the berth, each ≥ minSbMs consecutive SB, SB together ≥ totalSbMs (B4, Texas, C7). */
  | { kind: 'sb'; minSbMs: number; totalSbMs: number };

/** Canada (s. 29 / s. 54): the cycle in force from `from` after a declared switch (cycle-switch.ts). */
export interface CycleSwitch {
  from: number;
  /** Where the hours were set back to zero (the end of the qualifying rest); -Infinity if not. */
  zeroFrom: number;
  cycle: RulesetConfig['cycle'];
  onDutyBefore24OffMs: number | null;
}

/** Everything that differs between rulesets, as data: one engine judges them all. */
export interface RulesetConfig {
  id: RulesetId;
  /** Consecutive off-duty (OFF/SB) that ends a shift and restarts its limits. */
  resetMs: number;
  /** Driving allowed in a shift. */
  driveMs: number;
  /** Elapsed shift window (excluding paired rest periods); null where the rule counts on-duty instead. */
  elapsedMs: number | null;
  elapsedRule: ViolationRule;
  /** Cumulative on-duty (ON + D) allowed in a shift; null where none. */
  onDutyMs: number | null;
  split: SplitRule | null;
  /** 30-minute break after 8 h of driving (US property, P4). */
  breakRule: boolean;
  cycle: { days: number; limitMs: number; restartMs: number | null };
  /** Extra time allowed when adverse driving conditions are claimed (P13). */
  adverse: { driveMs: number; elapsedMs: number; onDutyMs: number };
  /** The 16-hour short-haul exception (P16) exists for this ruleset. */
  sixteenHour: boolean;
  /** The non-CDL short-haul exception (P15, §395.1(e)(2)) exists for this ruleset. */
  nonCdlShortHaul: boolean;
  /** Canada's day rules and 24-hour-off rules (C1, C3, C5). */
  canada: {
    dailyDriveMs: number;
    dailyOnDutyMs: number;
    dailyOffMs: number;
    /** C5: ≥ 24 consecutive h off in any period of this many days. */
    off24Days: number;
    /** Cycle 2: after this much on-duty time, no driving until 24 consecutive h off. */
    onDutyBefore24OffMs: number | null;
    /** C7 (s. 19): the sleeper-berth split of a team of drivers. */
    teamSplit: SplitRule;
    /** C6 (s. 16): most daily off-duty time day 1 may defer, and driving allowed over days 1 and 2. */
    deferMaxMs: number;
    deferTwoDayDriveMs: number;
  } | null;
  /** Set per call when a Canadian driver declared cycle switches (cycle-switch.ts), in time order. */
  switches?: CycleSwitch[];
  /**
   * A break rule of the ruleset's own instead of P4's (Mexico, NOM-087: 30 min for each 5 h of
   * driving): the break is due after `afterDrivingMs` of driving and, with `restOnly`, only off-duty
   * or sleeper-berth time is a break. The US short-haul exemptions do not lift it. Needs breakRule.
   */
  ownBreak?: { afterDrivingMs: number; restOnly: boolean };
  /** The oilfield provisions (§395.1(d), `exemptions.oilfield`) exist for this ruleset. */
  oilfield?: boolean;
}

export const BREAK_AFTER_DRIVING_MS = 8 * H;
export const BREAK_MS = 30 * MIN;
export const SIXTEEN_HOUR_WINDOW_MS = 16 * H;
export const OFF24_MS = 24 * H;
/** P15 (§395.1(e)(2)): days of any 7 consecutive days on which driving past the 14th hour is allowed. */
export const NON_CDL_LONG_DAYS = 2;
export const NON_CDL_PERIOD_DAYS = 7;

const usProperty = (id: RulesetId, days: number, limitH: number): RulesetConfig => ({
  id,
  resetMs: 10 * H,
  driveMs: 11 * H,
  elapsedMs: 14 * H,
  elapsedRule: 'WINDOW_LIMIT',
  onDutyMs: null,
  split: { kind: 'property', minMs: 2 * H, longSbMs: 7 * H, totalMs: 10 * H },
  breakRule: true,
  cycle: { days, limitMs: limitH * H, restartMs: RESTART_MS[id] },
  adverse: { driveMs: 2 * H, elapsedMs: 2 * H, onDutyMs: 0 },
  sixteenHour: true,
  nonCdlShortHaul: true,
  canada: null,
  oilfield: true,
});

const usPassenger = (id: RulesetId, days: number, limitH: number): RulesetConfig => ({
  id,
  resetMs: 8 * H,
  driveMs: 10 * H,
  elapsedMs: null,
  elapsedRule: 'WINDOW_LIMIT',
  onDutyMs: 15 * H,
  split: { kind: 'sb', minSbMs: 2 * H, totalSbMs: 8 * H },
  breakRule: false,
  // B3: no 34-hour restart for passenger carriers (RESTART_MS is null).
  cycle: { days, limitMs: limitH * H, restartMs: RESTART_MS[id] },
  adverse: { driveMs: 2 * H, elapsedMs: 0, onDutyMs: 0 },
  sixteenHour: false,
  nonCdlShortHaul: false,
  canada: null,
});

const canadaSouth = (id: RulesetId, cycle: 1 | 2): RulesetConfig => ({
  id,
  resetMs: 8 * H,
  driveMs: 13 * H,
  elapsedMs: 16 * H,
  elapsedRule: 'SHIFT_ELAPSED_LIMIT',
  onDutyMs: 14 * H,
  split: { kind: 'sb', minSbMs: 2 * H, totalSbMs: 10 * H },
  breakRule: false,
  cycle: cycle === 1 ? { days: 7, limitMs: 70 * H, restartMs: RESTART_MS[id] } : { days: 14, limitMs: 120 * H, restartMs: RESTART_MS[id] },
  // SOR/2005-313 s. 76(2): adverse driving conditions extend the 13 h of driving (ss. 12 and 13), the
  // driving, on-duty and elapsed time each by at most 2 h; the day's off-duty time shrinks by as much
  // (day-findings.ts).
  adverse: { driveMs: 2 * H, elapsedMs: 2 * H, onDutyMs: 2 * H },
  sixteenHour: false,
  nonCdlShortHaul: false,
  canada: {
    dailyDriveMs: 13 * H,
    dailyOnDutyMs: 14 * H,
    dailyOffMs: 10 * H,
    off24Days: 14,
    onDutyBefore24OffMs: cycle === 2 ? 70 * H : null,
    teamSplit: { kind: 'sb', minSbMs: 4 * H, totalSbMs: 8 * H },
    deferMaxMs: 2 * H,
    deferTwoDayDriveMs: 26 * H,
  },
});

/** A sleeper-berth rule no rest period meets: north of 60° the regulation gives no split (see canadaNorth). */
const NO_SPLIT: SplitRule = { kind: 'sb', minSbMs: Infinity, totalSbMs: Infinity };

/**
 * Canada north of latitude 60° (SOR/2005-313 ss. 37-54; s. 37: ss. 39 to 54 apply to driving north of
 * 60°N). s. 39(1): no driving after 15 h of driving or 18 h of on-duty time unless 8 consecutive hours
 * off are taken first; s. 39(2): no driving once 20 h have elapsed since the end of the last period
 * of ≥ 8 consecutive hours off. s. 51: cycle 1, 80 h in any 7 days; s. 52: cycle 2, 120 h in any 14
 * days, and no driving after 80 h without 24 consecutive hours off; s. 53: 36 h (cycle 1) or 72 h
 * (cycle 2) off set the hours back to zero. Ss. 38 and 40 are repealed (SOR/2019-165): no day limits
 * (13 h / 14 h / 10 h off, ss. 12-14) and no deferral (s. 16) north of 60°, so those are switched off
 * here; the regulation's sleeper-berth split (ss. 18-19) is for south of 60° and is off too. The 24 h
 * off in every 14 days of s. 25 is kept: its north-of-60 section was not among the texts we read
 * (decision 0309). Adverse driving conditions, s. 76(3): the 15 h of driving extended by at most 2 h;
 * on-duty and elapsed time are not extended north of 60°.
 */
const canadaNorth = (id: RulesetId, cycle: 1 | 2): RulesetConfig => ({
  id,
  resetMs: 8 * H,
  driveMs: 15 * H,
  elapsedMs: 20 * H,
  elapsedRule: 'SHIFT_ELAPSED_LIMIT',
  onDutyMs: 18 * H,
  split: null,
  breakRule: false,
  cycle: cycle === 1 ? { days: 7, limitMs: 80 * H, restartMs: RESTART_MS[id] } : { days: 14, limitMs: 120 * H, restartMs: RESTART_MS[id] },
  adverse: { driveMs: 2 * H, elapsedMs: 0, onDutyMs: 0 },
  sixteenHour: false,
  nonCdlShortHaul: false,
  canada: {
    dailyDriveMs: Infinity,
    dailyOnDutyMs: Infinity,
    dailyOffMs: 0,
    off24Days: 14,
    onDutyBefore24OffMs: cycle === 2 ? 80 * H : null,
    teamSplit: NO_SPLIT,
    deferMaxMs: 0,
    deferTwoDayDriveMs: Infinity,
  },
});

// F.S. 316.302(2)(b)-(c), for a commercial motor vehicle driven solely in intrastate commerce and
// not carrying placarded hazardous materials (placarded loads follow the federal rulesets): 12 h
// driving after 10 consecutive hours off, no driving after the 16th hour after coming on duty, 70 h
// in 7 days or 80 h in 8 days if the carrier operates every day, 34 consecutive hours off end the
// period. 316.302(2)(a) lifts §395.3 (so no 30-minute break); §395.1 still applies, so the
// sleeper-berth split of §395.1(g) pairs rest (the Highway Patrol's reading). Not implemented: the
// harvest-season exception of 316.302(2) (no weekly limit), farm labour and utility vehicles.
const florida = (id: RulesetId, days: number, limitH: number): RulesetConfig => ({
  id,
  resetMs: 10 * H,
  driveMs: 12 * H,
  elapsedMs: 16 * H,
  elapsedRule: 'WINDOW_LIMIT',
  onDutyMs: null,
  split: { kind: 'property', minMs: 2 * H, longSbMs: 7 * H, totalMs: 10 * H },
  breakRule: false,
  cycle: { days, limitMs: limitH * H, restartMs: RESTART_MS[id] },
  adverse: { driveMs: 2 * H, elapsedMs: 0, onDutyMs: 0 },
  sixteenHour: false,
  nonCdlShortHaul: false,
  canada: null,
});

// 49 CFR §395.1(h), which 17 AAC 25.220 adopts for intrastate drivers (it adopts §395.1 but not
// §395.3 or §395.5): property, (h)(1): no driving past 15 h after 10 consecutive hours off, nor
// after 20 h on duty following them; passenger, (h)(2): the same after 8 h off; 70 h in 7 days, or
// 80 h in 8 days if the carrier operates every day. No restart and no 30-minute break are named.
// Sleeper berth (the text of §395.1(h) on it was not found; inferred from the former federal rule it
// keeps): two berth periods of at least 2 h each, together the
// 10 h (property) or 8 h (passenger). Adverse conditions, (h)(1)-(2): "complete the run" has no
// fixed length, so the engine grants none.
const alaska = (id: RulesetId, kind: 'property' | 'passenger', days: number, limitH: number): RulesetConfig => ({
  id,
  resetMs: (kind === 'property' ? 10 : 8) * H,
  driveMs: 15 * H,
  elapsedMs: null,
  elapsedRule: 'WINDOW_LIMIT',
  onDutyMs: 20 * H,
  split: { kind: 'sb', minSbMs: 2 * H, totalSbMs: (kind === 'property' ? 10 : 8) * H },
  breakRule: false,
  cycle: { days, limitMs: limitH * H, restartMs: RESTART_MS[id] },
  adverse: { driveMs: 0, elapsedMs: 0, onDutyMs: 0 },
  sixteenHour: false,
  nonCdlShortHaul: false,
  canada: null,
});

export const RULESETS: Record<RulesetId, RulesetConfig> = {
  US_PROPERTY_70_8: usProperty('US_PROPERTY_70_8', 8, 70),
  US_PROPERTY_60_7: usProperty('US_PROPERTY_60_7', 7, 60),
  US_PASSENGER_70_8: usPassenger('US_PASSENGER_70_8', 8, 70),
  US_PASSENGER_60_7: usPassenger('US_PASSENGER_60_7', 7, 60),
  CA_SOUTH_CYCLE_1: canadaSouth('CA_SOUTH_CYCLE_1', 1),
  CA_SOUTH_CYCLE_2: canadaSouth('CA_SOUTH_CYCLE_2', 2),
  CA_NORTH_CYCLE_1: canadaNorth('CA_NORTH_CYCLE_1', 1),
  CA_NORTH_CYCLE_2: canadaNorth('CA_NORTH_CYCLE_2', 2),
  // 37 TAC §4.12: 12 h driving and 15 h on duty after 8 h off, 70 h in 7 days, 34-h restart,
  // sleeper berth split into two periods of ≥ 2 h.
  TX_INTRASTATE: {
    id: 'TX_INTRASTATE',
    resetMs: 8 * H,
    driveMs: 12 * H,
    elapsedMs: null,
    elapsedRule: 'WINDOW_LIMIT',
    onDutyMs: 15 * H,
    split: { kind: 'sb', minSbMs: 2 * H, totalSbMs: 8 * H },
    breakRule: false,
    cycle: { days: 7, limitMs: 70 * H, restartMs: RESTART_MS.TX_INTRASTATE },
    adverse: { driveMs: 2 * H, elapsedMs: 0, onDutyMs: 0 },
    sixteenHour: false,
    nonCdlShortHaul: false,
    canada: null,
  },
  // 13 CCR §1212.5 (truck): 12 h driving after 10 h off, no driving after the 16th hour,
  // 80 h in 8 days, 34-h restart. The regulation gives no sleeper-berth split for this row.
  CA_INTRASTATE: {
    id: 'CA_INTRASTATE',
    resetMs: 10 * H,
    driveMs: 12 * H,
    elapsedMs: 16 * H,
    elapsedRule: 'WINDOW_LIMIT',
    onDutyMs: null,
    split: null,
    breakRule: false,
    cycle: { days: 8, limitMs: 80 * H, restartMs: RESTART_MS.CA_INTRASTATE },
    adverse: { driveMs: 2 * H, elapsedMs: 0, onDutyMs: 0 },
    sixteenHour: false,
    nonCdlShortHaul: false,
    canada: null,
  },
  FL_INTRASTATE_70_7: florida('FL_INTRASTATE_70_7', 7, 70),
  FL_INTRASTATE_80_8: florida('FL_INTRASTATE_80_8', 8, 80),
  AK_PROPERTY_70_7: alaska('AK_PROPERTY_70_7', 'property', 7, 70),
  AK_PROPERTY_80_8: alaska('AK_PROPERTY_80_8', 'property', 8, 80),
  AK_PASSENGER_70_7: alaska('AK_PASSENGER_70_7', 'passenger', 7, 70),
  AK_PASSENGER_80_8: alaska('AK_PASSENGER_80_8', 'passenger', 8, 80),
  // NOM-087-SCT-2-2017 (autotransporte de carga), 4.6 a): at most 14 h of driving, then a pause of
  // at least 8 continuous hours; a pause of 30 min after up to 5 h of driving (the NOM lets it be
  // spread over 5.5 h by the route: not modelled, the 30 min must be consecutive), and a pause is
  // neither driving nor work, so only OFF/SB time counts. The NOM splits no rest and sets no weekly
  // cycle: the cycle is the whole 7 days (168 h), which a log cannot exceed, and has no restart.
  // The passenger services' rules (a relief driver past 9 h) are not implemented. Figures from the
  // SCT's and the press's accounts quoting 4.6 a); the Diario Oficial text was not found (decision 0312).
  MX_NOM_087: {
    id: 'MX_NOM_087',
    resetMs: 8 * H,
    driveMs: 14 * H,
    elapsedMs: null,
    elapsedRule: 'WINDOW_LIMIT',
    onDutyMs: null,
    split: null,
    breakRule: true,
    ownBreak: { afterDrivingMs: 5 * H, restOnly: true },
    cycle: { days: 7, limitMs: 7 * 24 * H, restartMs: RESTART_MS.MX_NOM_087 },
    adverse: { driveMs: 0, elapsedMs: 0, onDutyMs: 0 },
    sixteenHour: false,
    nonCdlShortHaul: false,
    canada: null,
  },
};
