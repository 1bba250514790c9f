import { IftaMiles } from './ifta-miles.service.ts';
import { follower, queueFollowing } from '../positions/index.ts';

/** IFTA miles per vehicle, jurisdiction and day (decision 0121). */
export const iftaMilesFollower = follower('iftaMiles', ({ database, config, onError, info }) => {
  const iftaMiles = new IftaMiles(database.db, {
    onError: onError('IFTA miles'),
    shared: database.kind !== 'pglite',
    // The embedded database answers on this thread: a cold read holds every request while it runs.
    coldReadFixes: database.kind === 'pglite' ? 10_000 : undefined,
    roundPauseMs: config.iftaRoundMs,
  });
  const catchUp = () => {
    // The boundary index is built once, off the first ingest round's path.
    setTimeout(() => iftaMiles.loadBoundaries(), 100).unref();
    return iftaMiles
      .catchUp()
      .then((n) => n && info(`IFTA miles: ${n} vehicles with positions to count since the last start`))
      .catch(onError('IFTA miles catch-up'));
  };
  return { ...queueFollowing(iftaMiles, config.iftaMiles), ...(config.iftaMiles ? { catchUp } : {}) };
});
