// The gateways module's public file: other modules import from here only (imports inside the module stay direct).
export { selectGateways } from './gateways.repository.ts';
export { gatewayConditions } from './gateways.service.ts';
export type { GatewayFilter } from './gateways.service.ts';
export { lockGateway } from './gateways.repository.ts';
export { putDeviceIds, type DeviceIdRow } from './device-ids.ts';
