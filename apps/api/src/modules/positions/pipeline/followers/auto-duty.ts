import { AutoDuty } from '../../../hos/index.ts';
import { follower, queueFollowing } from '../follower.ts';

/** Automatic duty status derived from the vehicles' positions (decision 0095). */
export const autoDutyFollower = follower('autoDuty', ({ database, config, onError }) => {
  const autoDuty = new AutoDuty(database.db, {
    onError: onError('automatic duty status'),
    // PGlite is this process's own database: no other instance can derive its vehicles.
    verifyAfterMs: database.kind === 'pglite' ? Infinity : 60_000,
  });
  // Imported history is not derived: another ELD recorded those days.
  return queueFollowing(autoDuty, config.hosAutoDuty, (late) => late.duty);
});
