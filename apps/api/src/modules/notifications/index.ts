// The notifications module's public file: other modules import from here only (imports inside the module stay direct).
export { notify, notifyMany } from './notifications.service.ts';
export type { NotifyInput } from './notifications.service.ts';
