import { randomUUID } from 'node:crypto';
import { and, arrayOverlaps, eq, sql } from 'drizzle-orm';
import type { WebhookData, WebhookEventType, WebhookPayload } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { webhookDeliveries, webhookEvents, webhookOrganizations, webhookSubscriptions } from '../../db/schema/index.ts';

// The webhook outbox (issue 48, decision 0198). A module that commits a fact calls emitWebhookEvents
// with ITS transaction: the event and one delivery per enabled subscription that wants the type are
// written with the fact, so a committed fact is never missed and a rolled-back one never sent. An
// organization without subscriptions that want the facts reads once and writes nothing.

/**
 * Told at commit that deliveries are waiting, so the senders wake at once instead of at their next
 * look: rides on the notification hub's channel as `{"w":1}` (no LISTEN connection of its own, as
 * conversations do, db/sql/notify.ts).
 */
export const WEBHOOK_OUTBOX_CHANNEL = 'notifications';
export const WEBHOOK_OUTBOX_PAYLOAD = '{"w":1}';

/**
 * Notes that the organization has webhooks (decision 0206), in the subscription's transaction. The
 * note stays when the last subscription goes: removing it could race a subscription being made at
 * the same time and leave deliveries nobody claims; a note too many costs the Citus sender one
 * empty claim a round.
 */
export async function registerWebhookOrganization(tx: DbOrTx, orgId: string): Promise<void> {
  await tx.insert(webhookOrganizations).values({ organizationId: orgId }).onConflictDoNothing();
}

/** Wakes every instance's sender at commit (a resend, a test event). */
export async function signalOutbox(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_notify(${WEBHOOK_OUTBOX_CHANNEL}, ${WEBHOOK_OUTBOX_PAYLOAD})`);
}

/** One fact as a webhook: the `data` of its type (WEBHOOK_DATA_SCHEMAS), and when it happened. */
export interface WebhookFact<T extends WebhookEventType = WebhookEventType> {
  orgId: string;
  type: T;
  /** When the fact happened: the payload's `timestamp`. */
  at: Date | string | number;
  data: WebhookData<T>;
}

/** The body a receiver gets, exactly as every attempt sends and signs it. */
export function webhookBody(orgId: string, type: string, at: Date | string | number, data: unknown): string {
  const payload: WebhookPayload = { type, timestamp: new Date(at).toISOString(), organizationId: orgId, data: data as WebhookPayload['data'] };
  return JSON.stringify(payload);
}

/** Writes the facts to the outbox for the subscriptions that want them; resolves the deliveries written. */
export async function emitWebhookEvents(tx: DbOrTx, facts: readonly WebhookFact[]): Promise<number> {
  if (facts.length === 0) return 0;
  // One statement per organization (nearly always one), naming it: on Citus its shard alone, not
  // every shard's subscriptions (issue 49: duty status behind ingest emits these).
  const orgs = [...new Set(facts.map((f) => f.orgId))];
  let n = 0;
  for (const orgId of orgs) n += await emitOrganizationEvents(tx, orgId, orgs.length === 1 ? facts : facts.filter((f) => f.orgId === orgId));
  return n;
}

const INSERT_CHUNK = 2000;

/**
 * The organization's enabled subscriptions that want any of the facts are read first; nearly always
 * there are none and that read is all. Then the events and their deliveries are two plain inserts.
 * Each statement names the organization and holds no data-modifying CTE, so on Citus each is routed
 * to the organization's shard (issue 49: one CTE doing all three ran as subplans through the
 * coordinator, 16 ms a call behind duty status and safety events).
 */
async function emitOrganizationEvents(tx: DbOrTx, orgId: string, facts: readonly WebhookFact[]): Promise<number> {
  const types = [...new Set(facts.map((f) => f.type))];
  const subs = await tx
    .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.organizationId, orgId), eq(webhookSubscriptions.enabled, true), arrayOverlaps(webhookSubscriptions.events, types)))
    .orderBy(webhookSubscriptions.id);
  if (subs.length === 0) return 0;
  const events: Array<typeof webhookEvents.$inferInsert> = [];
  const deliveries: Array<typeof webhookDeliveries.$inferInsert> = [];
  for (const f of facts) {
    const wanting = subs.filter((s) => s.events.includes(f.type));
    if (wanting.length === 0) continue;
    const id = randomUUID();
    events.push({ organizationId: orgId, id, type: f.type, occurredAt: new Date(f.at), body: webhookBody(f.orgId, f.type, f.at, f.data) });
    // In fact order, then subscription: the order the senders claim them in.
    for (const s of wanting) deliveries.push({ organizationId: orgId, subscriptionId: s.id, eventId: id });
  }
  if (deliveries.length === 0) return 0;
  // Chunked: a backfill's thousands of facts stay under the protocol's 65,535 parameters.
  for (let i = 0; i < events.length; i += INSERT_CHUNK) await tx.insert(webhookEvents).values(events.slice(i, i + INSERT_CHUNK));
  for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) await tx.insert(webhookDeliveries).values(deliveries.slice(i, i + INSERT_CHUNK));
  await signalOutbox(tx);
  return deliveries.length;
}

/** One fact (see emitWebhookEvents). */
export function emitWebhookEvent<T extends WebhookEventType>(tx: DbOrTx, fact: WebhookFact<T>): Promise<number> {
  return emitWebhookEvents(tx, [fact as WebhookFact]);
}
