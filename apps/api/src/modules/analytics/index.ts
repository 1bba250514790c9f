// The analytics module's public file: other modules import from here only (imports inside the module stay direct).
export { fleetPerformance } from './fleet-performance.service.ts';
export { fuelUsedLitres } from './fuel-hook.ts';
