// The engine-faults module's public file (issue 46, decision 0191): other modules and the pipeline import from here only.
export { EngineFaults } from './engine-faults.tracker.ts';
export { dtcValue, faultReport } from './fault-report.ts';
export { default as engineFaultsRoutes } from './engine-faults.routes.ts';
export { engineFaultsFollower } from './engine-faults.follower.ts';
