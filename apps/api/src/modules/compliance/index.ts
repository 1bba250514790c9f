// The compliance module's public file: other modules import from here only (imports inside the module stay direct).
export { complianceNoticesOf } from './compliance-notices.ts';
export { dispatchRefusals, loadEndsAt, type DispatchRefusal } from './compliance-dispatch.ts';
