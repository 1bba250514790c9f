// The hos module's public file: other modules import from here only (imports inside the module stay direct).
export { AutoDuty } from './auto-duty/auto-duty.service.ts';
export { EngineEvents } from './engine-events/engine-events.service.ts';
export { availabilityMatches } from './hos-clocks.service.ts';
export { fleetHos } from './hos-fleet-snapshot.ts';
export type { FleetViolation } from './hos-fleet-snapshot.ts';
export { listLogDays } from './hos-log-list.service.ts';
export { recordDriverLogin } from './hos-login.service.ts';
export { eventsCacheOfDb } from './hos.events-cache.ts';
export { ensureLogDays } from './hos.repository.ts';
export { dayStartMs, logDateOf, nextDate, zonedToUtc } from './hos.time.ts';
export { planDriversOf } from './hos-plan-drivers.ts';
export type { PlanDriverRecord } from './hos-plan-drivers.ts';
export { assertDriverPath, driverIdOfAccount, selfOnly } from './hos-access.ts';
export { eldOutputFile } from './eld-output.service.ts';
export { transitionCode } from './hos-diagnostics.ts';
export { periodStartOf } from './hos.repository.ts';
// A driver's on-duty hours per log day, which settlements pay by the hour (issue 70).
export { logsForPeriod } from './hos-period.service.ts';
export { autoDutyFollower } from './auto-duty/auto-duty.follower.ts';
export { engineEventsFollower } from './engine-events/engine-events.follower.ts';
// Border crossings behind ingest (issue 72).
export { borderCrossingsFollower, type BorderCrossings } from './hos-crossings.follower.ts';
export { detectCrossings } from './hos-crossings.service.ts';
