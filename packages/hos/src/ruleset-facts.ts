// The rulesets' names and restart lengths, owned here once. This file imports nothing, so the contract,
// the API and the web read it as '@fleet/hos/ruleset-facts' without loading the engine; rulesets.ts
// builds the engine's limits from it.

/** Every ruleset the engine judges; see rulesets.ts for the limits of each. */
export const RULESET_IDS = [
  'US_PROPERTY_70_8',
  'US_PROPERTY_60_7',
  'US_PASSENGER_70_8',
  'US_PASSENGER_60_7',
  'CA_SOUTH_CYCLE_1',
  'CA_SOUTH_CYCLE_2',
  'CA_NORTH_CYCLE_1',
  'CA_NORTH_CYCLE_2',
  'TX_INTRASTATE',
  'CA_INTRASTATE',
  'FL_INTRASTATE_70_7',
  'FL_INTRASTATE_80_8',
  'AK_PROPERTY_70_7',
  'AK_PROPERTY_80_8',
  'AK_PASSENGER_70_7',
  'AK_PASSENGER_80_8',
  'MX_NOM_087',
] as const;
export type RulesetId = (typeof RULESET_IDS)[number];

/** Readable names of the rulesets, as forms, logs and the activity log print them. */
export const RULESET_LABELS: Readonly<Record<RulesetId, string>> = {
  US_PROPERTY_70_8: 'US property, 70 h / 8 days',
  US_PROPERTY_60_7: 'US property, 60 h / 7 days',
  US_PASSENGER_70_8: 'US passenger, 70 h / 8 days',
  US_PASSENGER_60_7: 'US passenger, 60 h / 7 days',
  CA_SOUTH_CYCLE_1: 'Canada south, cycle 1 (70 h / 7 days)',
  CA_SOUTH_CYCLE_2: 'Canada south, cycle 2 (120 h / 14 days)',
  CA_NORTH_CYCLE_1: 'Canada north of 60°, cycle 1 (80 h / 7 days)',
  CA_NORTH_CYCLE_2: 'Canada north of 60°, cycle 2 (120 h / 14 days)',
  TX_INTRASTATE: 'Texas intrastate (70 h / 7 days)',
  CA_INTRASTATE: 'California intrastate (80 h / 8 days)',
  FL_INTRASTATE_70_7: 'Florida intrastate (70 h / 7 days)',
  FL_INTRASTATE_80_8: 'Florida intrastate (80 h / 8 days)',
  AK_PROPERTY_70_7: 'Alaska property (70 h / 7 days)',
  AK_PROPERTY_80_8: 'Alaska property (80 h / 8 days)',
  AK_PASSENGER_70_7: 'Alaska passenger (70 h / 7 days)',
  AK_PASSENGER_80_8: 'Alaska passenger (80 h / 8 days)',
  MX_NOM_087: 'Mexico NOM-087 (cargo)',
};

const H = 3_600_000;
/** Consecutive off-duty time that restarts the cycle, per ruleset; null where there is no restart. */
export const RESTART_MS: Readonly<Record<RulesetId, number | null>> = {
  US_PROPERTY_70_8: 34 * H,
  US_PROPERTY_60_7: 34 * H,
  // B3: no 34-hour restart for passenger carriers.
  US_PASSENGER_70_8: null,
  US_PASSENGER_60_7: null,
  CA_SOUTH_CYCLE_1: 36 * H,
  CA_SOUTH_CYCLE_2: 72 * H,
  // SOR/2005-313 s. 53: north of 60° the same 36 h (cycle 1) and 72 h (cycle 2) as s. 28.
  CA_NORTH_CYCLE_1: 36 * H,
  CA_NORTH_CYCLE_2: 72 * H,
  TX_INTRASTATE: 34 * H,
  CA_INTRASTATE: 34 * H,
  // F.S. 316.302(2)(c): 34 consecutive hours off end the 7- or 8-day period.
  FL_INTRASTATE_70_7: 34 * H,
  FL_INTRASTATE_80_8: 34 * H,
  // 49 CFR 395.1(h) (adopted for intrastate by 17 AAC 25.220) names no restart for Alaska.
  AK_PROPERTY_70_7: null,
  AK_PROPERTY_80_8: null,
  AK_PASSENGER_70_7: null,
  AK_PASSENGER_80_8: null,
  // NOM-087-SCT-2-2017 has no weekly cycle, hence no restart.
  MX_NOM_087: null,
};
