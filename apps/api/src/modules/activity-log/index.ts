// The activity-log module's public file: other modules import from here only (imports inside the module stay direct).
export { recordActivity, recordActivityBatch } from './activity-log.service.ts';
