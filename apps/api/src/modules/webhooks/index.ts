// The webhooks module's public file (issue 48): modules that commit facts emit them with their transaction.
export { emitWebhookEvent, emitWebhookEvents } from './webhook-outbox.ts';
export type { WebhookFact } from './webhook-outbox.ts';
