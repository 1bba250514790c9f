import { EngineEvents } from './engine-events.service.ts';
import { follower, queueFollowing } from '../../positions/index.ts';

/** Engine power-up and shut-down records (ELD event type 6) from the ignition of the vehicles' positions (decision 0155). */
export const engineEventsFollower = follower('engineEvents', ({ database, config, onError, info }) => {
  const engineEvents = new EngineEvents(database.db, {
    onError: onError('engine events'),
    // PGlite is this process's own database: no other instance writes its vehicles.
    verifyAfterMs: database.kind === 'pglite' ? Infinity : 60_000,
  });
  const catchUp = () =>
    engineEvents
      .catchUp()
      .then((n) => n && info(`engine events: ${n} power-up and shut-down records from positions stored before the start`))
      .catch(onError('engine events catch-up'));
  // Imported history is not recorded: another ELD recorded those days. Off with automatic duty status.
  return { ...queueFollowing(engineEvents, config.hosAutoDuty, (late) => late.duty), ...(config.hosAutoDuty ? { catchUp } : {}) };
});
