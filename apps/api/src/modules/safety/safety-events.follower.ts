import { SafetyEvents } from './safety.follower.ts';
import { follower } from '../positions/index.ts';

/**
 * Harsh driving, speeding, idling, crashes, towing and jamming from every source (decision 0194).
 * Positions handed late (a pairing, an import) are recomputed from the database, where their
 * attributes are.
 */
export const safetyEventsFollower = follower('safetyEvents', ({ database, onError, info }) => {
  const safety = new SafetyEvents(database.db, { onError: onError('safety events'), shared: database.kind !== 'pglite' });
  const catchUp = () =>
    safety
      .catchUp()
      .then((n) => n && info(`safety events: ${n} vehicles recomputed from positions stored before the start`))
      .catch(onError('safety events catch-up'));
  return {
    it: safety,
    follows: true,
    committed: (rows, stored) => safety.enqueue(rows, stored),
    late: (rows) => safety.enqueueLate(rows),
    catchUp,
    idle: () => safety.idle(),
    close: () => safety.close(),
  };
});
