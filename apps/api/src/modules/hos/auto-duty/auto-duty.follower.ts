import { AutoDuty } from './auto-duty.service.ts';
import { follower, queueFollowing } from '../../positions/index.ts';

/** Automatic duty status derived from the vehicles' positions (decision 0095). */
export const autoDutyFollower = follower('autoDuty', ({ database, config, onError, info }) => {
  const autoDuty = new AutoDuty(database.db, {
    onError: onError('automatic duty status'),
    // PGlite is this process's own database: no other instance can derive its vehicles.
    verifyAfterMs: database.kind === 'pglite' ? Infinity : 60_000,
  });
  const catchUp = () =>
    autoDuty
      .catchUp()
      .then((n) => n && info(`automatic duty status: ${n} records derived from positions stored before the restart`))
      .catch(onError('automatic duty status catch-up'));
  // Imported history is not derived: another ELD recorded those days.
  return { ...queueFollowing(autoDuty, config.hosAutoDuty, (late) => late.duty), ...(config.hosAutoDuty ? { catchUp } : {}) };
});
