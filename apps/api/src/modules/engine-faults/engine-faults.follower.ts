import { EngineFaults } from './engine-faults.tracker.ts';
import { follower, queueFollowing } from '../positions/index.ts';

/**
 * Engine fault codes from the positions' fault attributes (decision 0191). Only positions committed
 * live carry attributes to the followers; positions handed late (a pairing, an import) carry none.
 */
export const engineFaultsFollower = follower('engineFaults', ({ database, onError }) => {
  const engineFaults = new EngineFaults(database.db, { onError: onError('engine faults') });
  return queueFollowing(engineFaults, true, () => false);
});
