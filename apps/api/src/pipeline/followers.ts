import type { Db } from '../db/client.ts';
import { fleetWatchFollower } from '../jobs/fleet-watch.follower.ts';
import { liveEtasFollower } from '../modules/dispatch/index.ts';
import { engineFaultsFollower } from '../modules/engine-faults/index.ts';
import { fleetStatsFollower } from '../modules/fleet-stats/index.ts';
import { autoDutyFollower, borderCrossingsFollower, engineEventsFollower } from '../modules/hos/index.ts';
import { fuelEventsFollower, iftaMilesFollower } from '../modules/ifta/index.ts';
import { LoadStopsFromVisits } from '../modules/loads/index.ts';
import { placeVisitsFollower, type PlaceVisits } from '../modules/places/index.ts';
import { tripsStopsFollower } from '../modules/reports/index.ts';
import { safetyEventsFollower } from '../modules/safety/index.ts';

/**
 * The followers of a commit: the work that follows committed positions, each declared in the module
 * whose facts it derives (`<x>.follower.ts`, see positions' follower.ts). Every commit is handed to
 * them in this order, and the server closes them in this order after the group commit. Adding one:
 * its module declares it with `follower(name, start)` and exports it from its index.ts, and it gets
 * its line here. The list lives above the modules (as Traccar keeps its handler chain in one place
 * above its handlers): the position pipeline imports none of them.
 */
export const FOLLOWERS = [
  autoDutyFollower,
  engineEventsFollower,
  engineFaultsFollower,
  fleetWatchFollower,
  fleetStatsFollower,
  iftaMilesFollower,
  placeVisitsFollower,
  tripsStopsFollower,
  liveEtasFollower,
  safetyEventsFollower,
  fuelEventsFollower,
  borderCrossingsFollower,
] as const;

/** Ties between followers of two modules, made here above both: load stops take their arrivals and departures from the place visits (decision 0166). */
export function tieFollowers(db: Db, started: { placeVisits: PlaceVisits }): void {
  const loadStops = new LoadStopsFromVisits(db);
  started.placeVisits.onWritten(async (orgId, assetIds) => void (await loadStops.sync(orgId, assetIds)));
}
