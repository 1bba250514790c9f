// The tracking module's public file (issue 69): customer tracking links, the public tracking answer,
// a load's contacts and the notices e-mailed to them.
export { default as trackingRoutes } from './tracking.routes.ts';
export { default as publicTrackingRoutes } from './public-tracking.routes.ts';
export { runLoadNotices } from './load-notices.service.ts';
export type { NoticeDeps, NoticePassResult } from './load-notices.service.ts';
export { derivedToken, tokenHash, trackingKey, trackingUrl } from './tracking-tokens.ts';
export { defaultLoadExpiry } from './share-links.service.ts';
