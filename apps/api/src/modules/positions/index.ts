// The positions module's public file: other modules import from here only (imports inside the module stay direct).
export { liveVehicles } from './live.service.ts';
export { GatewayDirectory, TTL_MS } from './pipeline/gateway-directory.ts';
export { attributeDevicePositions, handLate } from './pipeline/late-positions.ts';
export type { PositionRow } from './pipeline/position-row.ts';
export type { UnknownDevice, UnknownDevices } from './pipeline/unknown-devices.ts';
export { writePositions } from './pipeline/position-store.ts';
export { QueuedFollower, VehicleQueue } from './pipeline/vehicle-queue.ts';
export { fixesElsewhere, vehiclesWithFixesElsewhere, type WorkedSpan } from './pipeline/fixes-elsewhere.ts';
export type { Round, Waiting } from './pipeline/vehicle-queue.ts';
export { RefusedFixes } from './refused-fixes.ts';
export type { ObservedFix, RefusedFix, RefusedFixesOptions } from './refused-fixes.ts';
export { offsetWords, refusalHint } from './refused-fixes-hint.ts';
// The Teltonika codec and its records' reading, for tests of what devices send that live in other modules (safety, engine faults).
export { decodeAvlPacket, encodeAvlPacket } from './pipeline/teltonika/codec.ts';
export type { AvlRecord } from './pipeline/teltonika/codec.ts';
export { loadIoMap, recordsToRows } from './pipeline/teltonika/records.ts';
// Commands to connected devices (issue 73): the gateways module sends them and stores the answers.
export { DeviceLinks } from './device-links.ts';
export type { DeviceLink, DeviceLinkListener } from './device-links.ts';
export { decodeCodec12, encodeCommand, encodeResponse } from './pipeline/teltonika/codec12.ts';
export { encodeImei } from './pipeline/teltonika/codec.ts';
export { TeltonikaServer } from './teltonika-server.ts';
// The follower contract: each module declares its follower of a commit with these; the list and
// its start are the app's (apps/api/src/pipeline), above the modules.
export { follower, queueFollowing, startFollowers } from './pipeline/follower.ts';
export type { Follower, FollowerContext, Following } from './pipeline/follower.ts';
