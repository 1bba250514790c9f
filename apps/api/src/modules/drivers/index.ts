// The drivers module's public file: other modules import from here only (imports inside the module stay direct).
export { lockDriverByCard, lockDriverRow, selectDrivers } from './drivers.repository.ts';
export { driverConditions, driverValues, listDrivers } from './drivers.service.ts';
export type { DriverFilter, DriverLicence, LicenceWritten } from './drivers.service.ts';
