import type { RulesetId } from '@fleet/hos';

/** What the engine needs of a driver: ruleset, home zone and exemptions (from the driver record). */
export interface DriverHos {
  id: string;
  firstName: string;
  lastName: string;
  ruleset: RulesetId;
  homeTimeZone: string;
  shortHaul150: boolean;
  sixteenHour: boolean;
  /** Oilfield operations (§395.1(d)). */
  oilfield: boolean;
  licenseClass: string | null;
}

/** A driver as the fleet reads list them: the engine's columns and the vehicle they are assigned to. */
export interface FleetDriver extends DriverHos {
  vehicle: { id: string; unitNumber: string; type: 'VEHICLE' | 'TRAILER' } | null;
}

/** What the driver's log rows add to the engine's options: declared deferral days (C6), co-driver days (C7). */
export interface LogFacts {
  deferrals: string[];
  teamDays: Set<string>;
  /** The driver's border crossings (issue 72), all of them, sorted by time; absent when none. */
  crossings?: CrossingFact[];
  /** The driver's declarations (issue 72: cycle switches, adverse conditions, emergencies), all of them, sorted by time; absent when none. */
  declarations?: DeclarationFact[];
  /** Personal-conveyance distances from the log's odometers (Canada's 75 km a day, decision 0319); absent when none. */
  pcDistances?: PcDistanceFact[];
}

/** One personal-conveyance stretch: from its PC event to the driver's next status, with the km the odometer moved. */
export interface PcDistanceFact {
  startMs: number;
  endMs: number;
  km: number;
}

/** A declaration on the log as the engine's options need it (decisions 0314, 0315). */
export interface DeclarationFact {
  kind: 'CYCLE_SWITCH' | 'ADVERSE_DRIVING' | 'EMERGENCY';
  atMs: number;
  /** An emergency's end; null for the other kinds. */
  untilMs: number | null;
  /** The cycle switched to; null for the other kinds. */
  cycle: 1 | 2 | null;
}

/** A crossing between the US and Canada, as the engine's rule segments need it (decision 0313). */
export interface CrossingFact {
  atMs: number;
  from: 'US' | 'CA';
  to: 'US' | 'CA';
}

/** One log day of a driver, as the routes `.../drivers/:driverId/logs/:logId` name it. */
export interface LogRef {
  orgId: string;
  driverId: string;
  logId: string;
}
