// The fleet-stats module's public file: other modules import from here only (imports inside the module stay direct).
export { addFixes, emptyTotals } from './day-stats.ts';
export { FleetStats } from './fleet-stats.service.ts';
