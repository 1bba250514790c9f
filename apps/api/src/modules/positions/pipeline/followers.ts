import { autoDutyFollower } from './followers/auto-duty.ts';
import { engineEventsFollower } from './followers/engine-events.ts';
import { engineFaultsFollower } from './followers/engine-faults.ts';
import { fleetStatsFollower } from './followers/fleet-stats.ts';
import { fleetWatchFollower } from './followers/fleet-watch.ts';
import { iftaMilesFollower } from './followers/ifta-miles.ts';
import { liveEtasFollower } from './followers/live-etas.ts';
import { placeVisitsFollower } from './followers/place-visits.ts';
import { safetyEventsFollower } from './followers/safety-events.ts';
import { tripsStopsFollower } from './followers/trips-stops.ts';

/**
 * The followers of a commit: the work that follows committed positions, each in its own file under
 * followers/ (see follower.ts). Every commit is handed to them in this order, and the server closes
 * them in this order after the group commit. Adding one: a file declaring it with `follower(name,
 * start)`, and its line here. Only the app's wiring imports this list (the followers import the
 * pipeline's types, not the other way round).
 */
export const FOLLOWERS = [autoDutyFollower, engineEventsFollower, engineFaultsFollower, fleetWatchFollower, fleetStatsFollower, iftaMilesFollower, placeVisitsFollower, tripsStopsFollower, liveEtasFollower, safetyEventsFollower] as const;
