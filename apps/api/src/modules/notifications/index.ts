// The notifications module's public file: other modules import from here only (imports inside the module stay direct).
export { notify } from './notifications.service.ts';
