// The messages module's public file (issue 44, decision 0181): other modules import from here only.
export { default as messagesRoutes } from './messages.routes.ts';
export { messageInReach, ownConversation } from './messages.service.ts';
