// The fleet-stats module's public file: other modules import from here only (imports inside the module stay direct).
export { MAX_GAP_MS, MOVING_KMH, STOP_MIN_MS, addFixes, emptyTotals, haversineM } from './day-stats.ts';
export { FleetStats } from './fleet-stats.service.ts';
export { fleetStatsFollower } from './fleet-stats.follower.ts';
