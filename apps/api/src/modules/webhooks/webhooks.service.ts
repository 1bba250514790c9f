import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  WEBHOOK_EVENT_INFO,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT_TYPE,
  webhookExample,
  type Page,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookPayload,
  type WebhookSecret,
  type webhookDeliveryListQuery,
  type webhookInputSchema,
  type WebhookList,
} from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../db/schema/index.ts';
import { badRequest, conflict, invalidField, notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { Scope } from '../auth/index.ts';
import { registerWebhookOrganization, signalOutbox, webhookBody } from './webhook-outbox.ts';
import { messageIdOf } from './webhook-sender.ts';
import { urlProblem, type TargetRules } from './webhook-target.ts';

// Webhook subscriptions and their deliveries (issue 48, decision 0198). The secret leaves the server
// in the answers to a create and a rotation only; the activity log never holds it.

type SubRow = typeof webhookSubscriptions.$inferSelect;
type Input = z.output<typeof webhookInputSchema>;

/** How long the secret before a rotation keeps signing deliveries beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function present(r: SubRow, pending: number): Webhook {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    description: r.description,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    failingSince: r.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: r.previousSecretExpiresAt && r.previousSecretExpiresAt.getTime() > Date.now() ? r.previousSecretExpiresAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    pendingDeliveries: pending,
    consecutiveTimeouts: r.consecutiveTimeouts,
  };
}

/** What the activity log keeps of a subscription (never its secrets). */
const logged = (r: SubRow) => ({ url: r.url, events: r.events, description: r.description, enabled: r.enabled });

function checkUrl(url: string, rules: TargetRules): void {
  const problem = urlProblem(url, rules);
  if (problem) throw invalidField('url', problem);
}

async function findSub(db: DbOrTx, orgId: string, id: string, lock = false): Promise<SubRow> {
  const q = db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.organizationId, orgId), eq(webhookSubscriptions.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('Webhook');
  return row;
}

async function pendingBySub(db: DbOrTx, orgId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: webhookDeliveries.subscriptionId, n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organizationId, orgId), eq(webhookDeliveries.status, 'PENDING')))
    .groupBy(webhookDeliveries.subscriptionId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function listWebhooks(s: Scope, limit: number): Promise<WebhookList> {
  const rows = await s.db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.organizationId, s.orgId))
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id));
  const pending = await pendingBySub(s.db, s.orgId);
  return { content: rows.map((r) => present(r, pending.get(r.id) ?? 0)), limit };
}

export async function getWebhook(s: Scope, id: string): Promise<Webhook> {
  const row = await findSub(s.db, s.orgId, id);
  return present(row, (await pendingBySub(s.db, s.orgId)).get(id) ?? 0);
}

/** First key of the advisory lock that makes an organization's creates wait for each other (the limit's count). */
const CREATE_LOCK_CLASS = 724_311_230;

/** Refuses a subscription past the organization's limit (WEBHOOK_MAX_PER_ORG, issue 66): each one may hold the sender's slots. */
async function checkRoom(tx: DbOrTx, orgId: string, limit: number): Promise<void> {
  // Two creates at once would both count the same number: the second waits for the first's commit.
  await tx.execute(sql`select pg_advisory_xact_lock(${CREATE_LOCK_CLASS}, hashtext(${orgId}))`);
  const [row] = await tx.select({ n: count() }).from(webhookSubscriptions).where(eq(webhookSubscriptions.organizationId, orgId));
  if ((row?.n ?? 0) >= limit) {
    throw badRequest(
      `This organization already has ${limit} webhook subscriptions, the most allowed. Delete one before adding another.`,
      `webhooks: at most ${limit} subscriptions per organization (WEBHOOK_MAX_PER_ORG)`,
    );
  }
}

export async function createWebhook(s: Scope, rules: TargetRules, limit: number, input: Input): Promise<WebhookCreated> {
  checkUrl(input.url, rules);
  const row = await s.db.transaction(async (tx) => {
    await checkRoom(tx, s.orgId, limit);
    const [r] = await tx
      .insert(webhookSubscriptions)
      .values({
        organizationId: s.orgId,
        url: input.url,
        events: input.events,
        description: input.description,
        enabled: input.enabled ?? true,
        secret: newSecret(),
        createdBy: s.actor.token ? null : s.actor.userId,
      })
      .returning();
    await registerWebhookOrganization(tx, s.orgId);
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'CREATE', entityType: 'WEBHOOK', entityId: r!.id, after: logged(r!) });
    return r!;
  });
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    secret: row.secret,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Replaces the URL, event types, description and (when given) whether it is on; turning it on clears why it was off. */
export async function updateWebhook(s: Scope, rules: TargetRules, id: string, input: Input): Promise<Webhook> {
  checkUrl(input.url, rules);
  const after = await s.db.transaction(async (tx) => {
    const before = await findSub(tx, s.orgId, id, true);
    const enabled = input.enabled ?? before.enabled;
    const turnedOn = enabled && !before.enabled;
    const [r] = await tx
      .update(webhookSubscriptions)
      .set({
        url: input.url,
        events: input.events,
        description: input.description,
        enabled,
        ...(turnedOn ? { disabledReason: null, failingSince: null } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(webhookSubscriptions.organizationId, s.orgId), eq(webhookSubscriptions.id, id)))
      .returning();
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'UPDATE',
      entityType: 'WEBHOOK',
      entityId: id,
      before: logged(before),
      after: logged(r!),
    });
    // Turned on again: what waited in its queue goes now.
    if (turnedOn) await signalOutbox(tx);
    return r!;
  });
  return present(after, (await pendingBySub(s.db, s.orgId)).get(id) ?? 0);
}

export async function deleteWebhook(s: Scope, id: string): Promise<void> {
  await s.db.transaction(async (tx) => {
    const before = await findSub(tx, s.orgId, id, true);
    // Its deliveries go with it (ON DELETE CASCADE); events no other subscription needs go with the purge.
    await tx.delete(webhookSubscriptions).where(and(eq(webhookSubscriptions.organizationId, s.orgId), eq(webhookSubscriptions.id, id)));
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'DELETE', entityType: 'WEBHOOK', entityId: id, before: logged(before) });
  });
}

/** A new secret; the one it replaces keeps signing beside it for 24 hours, so the receiver can switch. */
export async function rotateWebhookSecret(s: Scope, id: string): Promise<WebhookSecret> {
  return s.db.transaction(async (tx) => {
    const before = await findSub(tx, s.orgId, id, true);
    const expires = new Date(Date.now() + ROTATION_OVERLAP_MS);
    const [r] = await tx
      .update(webhookSubscriptions)
      .set({ secret: newSecret(), previousSecret: before.secret, previousSecretExpiresAt: expires, updatedAt: new Date() })
      .where(and(eq(webhookSubscriptions.organizationId, s.orgId), eq(webhookSubscriptions.id, id)))
      .returning();
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'ROTATE_SECRET',
      entityType: 'WEBHOOK',
      entityId: id,
      after: { previousSecretExpiresAt: expires },
    });
    return { id, secret: r!.secret, previousSecretExpiresAt: expires.toISOString() };
  });
}

const deliveryColumns = {
  d: webhookDeliveries,
  type: webhookEvents.type,
  body: webhookEvents.body,
};

function presentDelivery(r: { d: typeof webhookDeliveries.$inferSelect; type: string; body: string }): WebhookDelivery {
  const d = r.d;
  return {
    id: String(d.id),
    messageId: messageIdOf(d.eventId),
    eventType: r.type,
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode,
    lastError: d.lastError,
    durationMs: d.durationMs,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: d.status === 'PENDING' ? d.nextAttemptAt.toISOString() : null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    payload: JSON.parse(r.body) as WebhookPayload,
  };
}

/** A subscription's deliveries, newest first. */
export async function listDeliveries(s: Scope, id: string, q: z.output<typeof webhookDeliveryListQuery>): Promise<Page<WebhookDelivery>> {
  await findSub(s.db, s.orgId, id);
  const where = and(
    eq(webhookDeliveries.organizationId, s.orgId),
    eq(webhookDeliveries.subscriptionId, id),
    q.status ? eq(webhookDeliveries.status, q.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    s.db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, and(eq(webhookEvents.organizationId, webhookDeliveries.organizationId), eq(webhookEvents.id, webhookDeliveries.eventId)))
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(q.size)
      .offset(q.page * q.size),
    s.db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return toPage(rows.map(presentDelivery), total?.n ?? 0, q);
}

async function oneDelivery(db: DbOrTx, orgId: string, deliveryId: number): Promise<WebhookDelivery> {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, and(eq(webhookEvents.organizationId, webhookDeliveries.organizationId), eq(webhookEvents.id, webhookDeliveries.eventId)))
    .where(and(eq(webhookDeliveries.organizationId, orgId), eq(webhookDeliveries.id, deliveryId)));
  if (!row) throw notFound('Delivery');
  return presentDelivery(row);
}

/**
 * Sends a delivery's event again: a new delivery at the end of the subscription's queue, with the
 * same webhook-id (a receiver that already has it may drop it; one that lost it gets it).
 */
export async function resendDelivery(s: Scope, id: string, deliveryId: string): Promise<WebhookDelivery> {
  const newId = await s.db.transaction(async (tx) => {
    const sub = await findSub(tx, s.orgId, id);
    const [d] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.organizationId, s.orgId), eq(webhookDeliveries.subscriptionId, sub.id), eq(webhookDeliveries.id, Number(deliveryId))));
    if (!d) throw notFound('Delivery');
    const [n] = await tx
      .insert(webhookDeliveries)
      .values({ organizationId: s.orgId, subscriptionId: sub.id, eventId: d.eventId })
      .returning({ id: webhookDeliveries.id });
    await recordActivity(tx, {
      orgId: s.orgId,
      actor: s.actor,
      action: 'RESEND',
      entityType: 'WEBHOOK',
      entityId: sub.id,
      after: { deliveryId: String(d.id), messageId: messageIdOf(d.eventId) },
    });
    await signalOutbox(tx);
    return n!.id;
  });
  return oneDelivery(s.db, s.orgId, newId);
}

/** "Send test event": a `webhook.test` event to this subscription only, whatever types it asked for. */
export async function sendTestEvent(s: Scope, id: string): Promise<WebhookDelivery> {
  const newId = await s.db.transaction(async (tx) => {
    const sub = await findSub(tx, s.orgId, id);
    if (!sub.enabled) throw conflict('Turn the subscription on to send a test event', 'The webhook is disabled');
    const eventId = randomUUID();
    const at = new Date();
    const sample = webhookExample(
      (sub.events.find((e) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e)) ?? 'load.status_changed') as (typeof WEBHOOK_EVENT_TYPES)[number],
      s.orgId,
    );
    const data = { message: 'A test event from Fleetline: your endpoint receives and verifies webhooks.', sample };
    await tx.insert(webhookEvents).values({
      organizationId: s.orgId,
      id: eventId,
      type: WEBHOOK_TEST_EVENT_TYPE,
      occurredAt: at,
      body: webhookBody(s.orgId, WEBHOOK_TEST_EVENT_TYPE, at, data),
    });
    const [n] = await tx.insert(webhookDeliveries).values({ organizationId: s.orgId, subscriptionId: sub.id, eventId }).returning({ id: webhookDeliveries.id });
    await recordActivity(tx, { orgId: s.orgId, actor: s.actor, action: 'TEST', entityType: 'WEBHOOK', entityId: sub.id });
    await signalOutbox(tx);
    return n!.id;
  });
  return oneDelivery(s.db, s.orgId, newId);
}

/** The event types with a description and an example body each. */
export function eventTypes(orgId: string) {
  return { content: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENT_INFO[type].description, example: webhookExample(type, orgId) })) };
}

/** Deliveries waiting, all organizations (diagnostics, the bench). */
export async function pendingDeliveries(db: DbOrTx): Promise<number> {
  const res = await db.execute(sql`select count(*)::int as n from webhook_deliveries where status = 'PENDING'`);
  return (res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
}
