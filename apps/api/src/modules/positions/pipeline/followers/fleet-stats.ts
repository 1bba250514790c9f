import { FleetStats } from '../../../fleet-stats/index.ts';
import { follower, queueFollowing } from '../follower.ts';

/** Daily vehicle statistics (decision 0131). */
export const fleetStatsFollower = follower('fleetStats', ({ database, config, onError }) =>
  queueFollowing(new FleetStats(database.db, { onError: onError('fleet statistics') }), config.fleetStats),
);
