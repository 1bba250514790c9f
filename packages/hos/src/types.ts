/** Public types of the hours-of-service rules engine (issue 4 fixes these names and shapes). */
export type DutyStatus = 'OFF' | 'SB' | 'D' | 'ON';
/** PC = personal conveyance (status OFF), YM = yard moves (status ON), PASSENGER = team passenger-seat time (P19). */
export type Special = 'PC' | 'YM' | 'PASSENGER';
/** start/end: ISO-8601 instants with offset or Z; periods sorted, contiguous, non-overlapping. */
export interface DutyPeriod {
  status: DutyStatus;
  start: string;
  end: string;
  special?: Special;
}

export const RULESET_IDS = [
  'US_PROPERTY_70_8',
  'US_PROPERTY_60_7',
  'US_PASSENGER_70_8',
  'US_PASSENGER_60_7',
  'CA_SOUTH_CYCLE_1',
  'CA_SOUTH_CYCLE_2',
  'TX_INTRASTATE',
  'CA_INTRASTATE',
] as const;
export type RulesetId = (typeof RULESET_IDS)[number];
