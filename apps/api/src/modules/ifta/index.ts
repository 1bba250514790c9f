// The ifta module's public file: other modules import from here only (imports inside the module stay direct).
export { distanceCsv } from './ifta-export.service.ts';
export { IftaMiles } from './ifta-miles.service.ts';
export { iftaMilesFollower } from './ifta-miles.follower.ts';
export { FuelEvents } from './fuel-events.tracker.ts';
export { fuelEventsFollower } from './fuel-events.follower.ts';
