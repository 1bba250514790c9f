import { TripsStops } from './trips-stops.service.ts';
import { follower, queueFollowing } from '../positions/index.ts';

/** Trips and stops per vehicle (decision 0163). */
export const tripsStopsFollower = follower('tripsStops', ({ database, config, onError, info }) => {
  const tripsStops = new TripsStops(database.db, { onError: onError('trips and stops'), shared: database.kind !== 'pglite' });
  if (!config.tripsStops) return queueFollowing(tripsStops, false);
  return {
    ...queueFollowing(tripsStops, true),
    catchUp: () => {
      const started = Date.now();
      return tripsStops
        .catchUp()
        .then((n) => n && info(`trips and stops: ${n} vehicles brought up to their latest position in ${((Date.now() - started) / 1000).toFixed(1)} s`))
        .catch(onError('trips and stops catch-up'));
    },
  };
});
