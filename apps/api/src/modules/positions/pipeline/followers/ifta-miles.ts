import { IftaMiles } from '../../../ifta/index.ts';
import { follower, queueFollowing } from '../follower.ts';

/** IFTA miles per vehicle, jurisdiction and day (decision 0121). */
export const iftaMilesFollower = follower('iftaMiles', ({ database, config, onError }) => {
  const iftaMiles = new IftaMiles(database.db, {
    onError: onError('IFTA miles'),
    shared: database.kind !== 'pglite',
    roundPauseMs: config.iftaRoundMs,
  });
  return queueFollowing(iftaMiles, config.iftaMiles);
});
