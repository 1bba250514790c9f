import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { WebhookData, WebhookEventType, WebhookPayload } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { webhookOrganizations } from '../../db/schema/index.ts';

// The webhook outbox (issue 48, decision 0198). A module that commits a fact calls emitWebhookEvents
// with ITS transaction: the event and one delivery per enabled subscription that wants the type are
// written with the fact, so a committed fact is never missed and a rolled-back one never sent. One
// statement whatever the number of facts; an organization without subscriptions writes nothing.

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

async function emitOrganizationEvents(tx: DbOrTx, orgId: string, facts: readonly WebhookFact[]): Promise<number> {
  const rows = facts.map((f, n) => ({ n, id: randomUUID(), o: f.orgId, t: f.type, at: new Date(f.at).toISOString(), b: webhookBody(f.orgId, f.type, f.at, f.data) }));
  const res = await tx.execute(sql`
    with ev as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(n int, id uuid, o uuid, t text, at timestamptz, b text)),
    subs as (
      select ev.n, ev.id, ev.o, s.id as sid from ev
      join webhook_subscriptions s on s.organization_id = ${orgId} and s.organization_id = ev.o and s.enabled and ev.t = any(s.events)
    ),
    e as (
      insert into webhook_events (organization_id, id, type, occurred_at, body)
      select o, id, t, at, b from ev where exists (select 1 from subs where subs.id = ev.id)
    ),
    d as (
      insert into webhook_deliveries (organization_id, subscription_id, event_id)
      select o, sid, id from subs order by n, sid
      returning 1
    )
    select count(*)::int as n, max(pg_notify(${WEBHOOK_OUTBOX_CHANNEL}, ${WEBHOOK_OUTBOX_PAYLOAD})::text) as told from d`);
  return (res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
}

/** One fact (see emitWebhookEvents). */
export function emitWebhookEvent<T extends WebhookEventType>(tx: DbOrTx, fact: WebhookFact<T>): Promise<number> {
  return emitWebhookEvents(tx, [fact as WebhookFact]);
}
