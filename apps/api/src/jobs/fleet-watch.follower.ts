import { FleetWatch } from './fleet-watch.ts';
import { follower } from '../modules/positions/index.ts';

/**
 * The notification detectors behind ingest (decision 0130): the drivers whose positions were
 * committed are checked once automatic duty status has written their records. Its clock checks
 * are started by main.ts.
 */
export const fleetWatchFollower = follower('fleetWatch', ({ database, config, onError, idle }) => {
  const fleetWatch = new FleetWatch(database, { recordsSettled: () => idle('autoDuty'), onError: onError('fleet watch') });
  return {
    it: fleetWatch,
    // It follows with the daily statistics (issue 18): one setting measures ingest without both.
    follows: config.fleetStats,
    committed(rows, stored) {
      const drivers = new Map<string, Set<string>>();
      rows.forEach((row, i) => {
        if (!stored[i] || !row.driverId) return;
        let ids = drivers.get(row.organizationId);
        if (!ids) drivers.set(row.organizationId, (ids = new Set()));
        ids.add(row.driverId);
      });
      if (drivers.size) fleetWatch.poke(drivers);
    },
    idle: () => fleetWatch.idle(),
    close: () => fleetWatch.stop(),
  };
});
