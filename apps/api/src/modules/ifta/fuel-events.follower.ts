import { follower } from '../positions/index.ts';
import { FuelEvents } from './fuel-events.tracker.ts';

/**
 * Refuels and drops from the fuel level trucks report with their positions (issue 68, decision 0276).
 * Positions handed late (a pairing, an import) are replayed from the database, where their attributes are.
 */
export const fuelEventsFollower = follower('fuelEvents', ({ database, onError, info }) => {
  const fuel = new FuelEvents(database.db, { onError: onError('fuel events'), shared: database.kind !== 'pglite' });
  const catchUp = () =>
    fuel
      .catchUp()
      .then((n) => n && info(`fuel events: ${n} vehicles replayed from positions stored before the start`))
      .catch(onError('fuel events catch-up'));
  return {
    it: fuel,
    follows: true,
    committed: (rows, stored) => fuel.enqueue(rows, stored),
    late: (rows) => fuel.enqueueLate(rows),
    catchUp,
    idle: () => fuel.idle(),
    close: () => fuel.close(),
  };
});
