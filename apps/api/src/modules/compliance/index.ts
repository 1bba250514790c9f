// The compliance module's public file: other modules import from here only (imports inside the module stay direct).
export { blockingItems, calendarRows, allCalendarRows } from './compliance-calendar.ts';
export { cdlFollowsLicence, clockOf, complianceItemInReach, type ComplianceClock } from './compliance.service.ts';
export { userOfDriver } from './compliance.repository.ts';
export { default as complianceRoutes } from './compliance.routes.ts';
// Issue 71's rules (decision 0302): the notices of papers running out, and dispatch's refusals.
export { complianceNoticesOf } from './compliance-notices.ts';
export { dispatchRefusals, loadEndsAt, type DispatchRefusal } from './compliance-dispatch.ts';
