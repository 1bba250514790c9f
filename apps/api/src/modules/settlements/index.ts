// The settlements module's public file (issue 70, decision 0294): other modules import from here only.
export { default as settlementsRoutes } from './settlements.routes.ts';
export { putPayProfile, addAdjustment } from './pay-profiles.service.ts';
export { createSettlement, approveSettlement, markPaid } from './settlements.service.ts';
