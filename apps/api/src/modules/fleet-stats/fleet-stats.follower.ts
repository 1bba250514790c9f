import { FleetStats } from './fleet-stats.service.ts';
import { follower, queueFollowing } from '../positions/index.ts';

/** Daily vehicle statistics (decision 0131). */
export const fleetStatsFollower = follower('fleetStats', ({ database, config, onError, info }) => {
  const fleetStats = new FleetStats(database.db, { onError: onError('fleet statistics') });
  return {
    ...queueFollowing(fleetStats, config.fleetStats),
    // Caught up even when it does not follow: the days it shows stay those of the stored positions.
    catchUp: () =>
      fleetStats
        .catchUp()
        .then((n) => n && info(`fleet statistics: ${n} vehicle days computed from stored positions`))
        .catch(onError('fleet statistics catch-up')),
  };
});
