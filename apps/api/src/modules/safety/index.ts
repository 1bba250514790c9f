// The safety module's public file (issue 47, decisions 0194 and 0195): other modules and the pipeline import from here only.
export { SafetyEvents } from './safety.follower.ts';
export { default as safetyRoutes } from './safety.routes.ts';
export { exportSafetyEvents, exportSafetyScores } from './safety-export.ts';
export { safetyEventsFollower } from './safety-events.follower.ts';
