// The dispatch module's public file: other modules import from here only (imports inside the module stay direct).
export { LiveEtas } from './live-etas.ts';
export type { LiveEtaStats } from './live-etas.ts';
export { routingOf } from './routing.ts';
export { liveEtasFollower } from './live-etas.follower.ts';
