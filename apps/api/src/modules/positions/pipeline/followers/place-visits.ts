import { LoadStopsFromVisits } from '../../../loads/index.ts';
import { PlaceVisits } from '../../../places/index.ts';
import { follower, queueFollowing } from '../follower.ts';

/** Arrivals and departures at places, detention and their notifications (decision 0162). */
export const placeVisitsFollower = follower('placeVisits', ({ database, config, onError, info }) => {
  const placeVisits = new PlaceVisits(database.db, {
    onError: onError('place visits'),
    // PGlite is this process's own database: no other instance works its vehicles.
    shared: database.kind !== 'pglite',
  });
  // Load stops at places take their arrivals and departures from the visits (decision 0166).
  const loadStops = new LoadStopsFromVisits(database.db);
  placeVisits.onWritten(async (orgId, assetIds) => void (await loadStops.sync(orgId, assetIds)));
  const catchUp = () =>
    placeVisits
      .catchUp()
      .then((n) => n && info(`place visits: ${n} vehicles recomputed from positions stored before the start`))
      .catch(onError('place visits catch-up'));
  // It follows with the daily statistics (one setting measures ingest without the work behind it).
  return { ...queueFollowing(placeVisits, config.fleetStats), ...(config.fleetStats ? { catchUp } : {}) };
});
