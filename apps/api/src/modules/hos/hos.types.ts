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
}

/** One log day of a driver, as the routes `.../drivers/:driverId/logs/:logId` name it. */
export interface LogRef {
  orgId: string;
  driverId: string;
  logId: string;
}
