import { PlaceVisits } from './place-visits.service.ts';
import { follower, queueFollowing } from '../positions/index.ts';

/** Arrivals and departures at places, detention and their notifications (decision 0162). */
export const placeVisitsFollower = follower('placeVisits', ({ database, config, onError, info }) => {
  const placeVisits = new PlaceVisits(database.db, {
    onError: onError('place visits'),
    // PGlite is this process's own database: no other instance works its vehicles.
    shared: database.kind !== 'pglite',
  });
  const catchUp = () =>
    placeVisits
      .catchUp()
      .then((n) => n && info(`place visits: ${n} vehicles recomputed from positions stored before the start`))
      .catch(onError('place visits catch-up'));
  // It follows with the daily statistics (one setting measures ingest without the work behind it).
  return { ...queueFollowing(placeVisits, config.fleetStats), ...(config.fleetStats ? { catchUp } : {}) };
});
