// The fleet module's public file: other modules import from here only (imports inside the module stay direct).
export { fleetOverview } from './fleet.service.ts';
