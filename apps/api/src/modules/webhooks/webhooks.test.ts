import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import {
  webhookCreatedSchema,
  webhookDeliveryPageSchema,
  webhookSchema,
  webhookSecretSchema,
  type WebhookCreated,
  type WebhookPayload,
} from '@fleet/api-contract';
import { notifications, webhookDeliveries, webhookSubscriptions } from '../../db/schema/index.ts';
import { bearer, createTestApp, eventually, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { emitWebhookEvent } from './webhook-outbox.ts';
import { attemptTimeoutMs, retryDelayMs, RETRY_SCHEDULE_S, slotShares } from './webhook-sender.ts';
import { isPrivateAddress, urlProblem } from './webhook-target.ts';
import { loadBody } from '../../test/webhook-fixtures.ts';

// Webhooks through HTTP on the real database (issue 48, decision 0198): a loopback receiver gets
// signed events that verify with the standardwebhooks library's own verifier, a failing receiver gets
// the same webhook-id again, a rolled-back fact is never sent, 410 turns a subscription off and tells
// its administrators, and the sender's address rules.

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: answers from `plan` in turn (the last one repeats); status 0 never answers. */
class Receiver {
  readonly got: Received[] = [];
  plan: Array<{ status: number; headers?: Record<string, string> }> = [{ status: 204 }];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = this.plan.length > 1 ? this.plan.shift()! : this.plan[0]!;
      if (answer.status === 0) return;
      res.writeHead(answer.status, answer.headers).end(answer.status >= 400 ? 'nope' : '');
    });
  });
  url = '';
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let other: { orgId: string; headers: Record<string, string> };
let rx: Receiver;
const url = (path = '', org = orgId) => `/api/v1/organizations/${org}${path}`;

beforeAll(async () => {
  // Retries 1,000 times sooner than in production: 5 s becomes 5 ms, 5 min 300 ms.
  t = await createTestApp({
    webhooks: {
      allowHttp: true,
      allowPrivate: true,
      sender: true,
      timeoutMs: 2000,
      retryScale: 0.001,
      pollMs: 50,
      idlePollMs: 60_000,
      concurrency: 10,
      maxPerOrg: 50,
    },
  });
  const owner = await registerOrganization(t.app, 'Hook Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const o = await registerOrganization(t.app, 'Other Hook Carrier');
  other = { orgId: o.user.organization!.id, headers: bearer(o.accessToken) };
  rx = new Receiver();
  await rx.start();
});
afterAll(async () => {
  await rx?.stop();
  await t?.close();
});
afterEach(async () => {
  // Each test starts with no subscription of the organization.
  await t.app.webhookSender.idle();
  await t.app.db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.organizationId, orgId));
  rx.got.length = 0;
  rx.plan = [{ status: 204 }];
});

async function subscribe(events: string[], over: Record<string, unknown> = {}): Promise<WebhookCreated> {
  const res = await t.app.inject({ method: 'POST', url: url('/webhooks'), headers: admin, payload: { url: rx.url, events, description: 'TMS', ...over } });
  expect(res.statusCode, res.body).toBe(201);
  return webhookCreatedSchema.parse(res.json());
}

const payloadOf = (r: Received) => JSON.parse(r.body) as WebhookPayload;

describe('webhook subscriptions', () => {
  it('a receiver gets a signed load.status_changed; after two 500s it gets the same webhook-id a third time', async () => {
    const sub = await subscribe(['load.status_changed']);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    rx.plan = [{ status: 500 }, { status: 500 }, { status: 204 }];
    const created = await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() });
    expect(created.statusCode, created.body).toBe(201);
    const load = created.json() as { id: string; number: string };

    await eventually(
      async () => rx.got.length,
      (n) => n >= 3,
      5000,
    );
    expect(rx.got).toHaveLength(3);
    const ids = rx.got.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    // The library's own verifier accepts it (signature over id.timestamp.body, timestamp tolerance).
    const verified = new Webhook(sub.secret).verify(rx.got[2]!.body, rx.got[2]!.headers as Record<string, string>) as WebhookPayload;
    expect(verified).toMatchObject({
      type: 'load.status_changed',
      organizationId: orgId,
      data: { id: load.id, number: load.number, status: 'PLANNED', previousStatus: null },
    });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(rx.got[2]!.body, rx.got[2]!.headers as Record<string, string>),
    ).toThrow();

    // The third answer is recorded just after the receiver answered it (on Citus, a little later).
    const delivery = async () => {
      const list = await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}/deliveries`), headers: admin });
      expect(list.statusCode).toBe(200);
      return webhookDeliveryPageSchema.parse(list.json()).content[0];
    };
    const d = await eventually(delivery, (x) => x?.status === 'DELIVERED', 5000);
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: 3, responseCode: 204, eventType: 'load.status_changed', messageId: ids[0] });
    expect(d!.deliveredAt).not.toBeNull();
  });

  it('sends in order per subscription, and never a fact whose transaction rolled back', async () => {
    await subscribe(['load.status_changed']);
    const created = (await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() })).json() as { id: string };
    const cancel = await t.app.inject({ method: 'POST', url: url(`/loads/${created.id}/status`), headers: admin, payload: { status: 'CANCELLED' } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // Cancelling again is refused (409): its transaction rolls back, and with it the event.
    expect((await t.app.inject({ method: 'POST', url: url(`/loads/${created.id}/status`), headers: admin, payload: { status: 'CANCELLED' } })).statusCode).toBe(
      409,
    );
    await t.app.db
      .transaction(async (tx) => {
        await emitWebhookEvent(tx, {
          orgId,
          type: 'load.status_changed',
          at: new Date(),
          data: { id: created.id, number: 'ROLLED-BACK', status: 'DELIVERED', previousStatus: 'CANCELLED', changedAt: new Date().toISOString(), note: null },
        });
        tx.rollback();
      })
      .catch(() => undefined);
    await eventually(
      async () => rx.got.length,
      (n) => n >= 2,
      3000,
    );
    // Idle: every delivery was sent and answered, so a third (the rolled-back event) would be in rx.got.
    await t.app.webhookSender.idle();
    expect(rx.got.map((r) => payloadOf(r).data.status)).toEqual(['PLANNED', 'CANCELLED']);
    expect(rx.got.map((r) => payloadOf(r).data.previousStatus)).toEqual([null, 'PLANNED']);
  });

  it('only the types asked for, only enabled subscriptions, and the test event to the one tested', async () => {
    const sub = await subscribe(['load.stop_arrived']);
    const off = await subscribe(['load.status_changed'], { enabled: false });
    await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() });
    const test = await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/test`), headers: admin });
    expect(test.statusCode, test.body).toBe(201);
    await eventually(
      async () => rx.got.length,
      (n) => n >= 1,
      3000,
    );
    await t.app.webhookSender.idle();
    expect(rx.got.map((r) => payloadOf(r).type)).toEqual(['webhook.test']);
    expect((await t.app.inject({ method: 'POST', url: url(`/webhooks/${off.id}/test`), headers: admin })).statusCode).toBe(409);
    // The disabled one kept nothing in its queue: the outbox writes for enabled subscriptions only.
    const pending = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, off.id));
    expect(pending).toHaveLength(0);
  });

  it('resends a delivery with the same webhook-id, and honours Retry-After', async () => {
    const sub = await subscribe(['load.status_changed']);
    rx.plan = [{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }];
    await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() });
    await eventually(
      async () => rx.got.length,
      (n) => n >= 1,
      3000,
    );
    // The schedule says 5 ms here; the receiver asked for a second. The time passing is the subject.
    await new Promise((r) => setTimeout(r, 400));
    expect(rx.got).toHaveLength(1);
    await eventually(
      async () => rx.got.length,
      (n) => n >= 2,
      3000,
    );
    expect(rx.got[1]!.headers['webhook-id']).toBe(rx.got[0]!.headers['webhook-id']);
    await t.app.webhookSender.idle();
    const [d] = webhookDeliveryPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}/deliveries`), headers: admin })).json(),
    ).content;
    const again = await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/deliveries/${d!.id}/resend`), headers: admin });
    expect(again.statusCode, again.body).toBe(201);
    await eventually(
      async () => rx.got.length,
      (n) => n >= 3,
      3000,
    );
    expect(rx.got[2]!.headers['webhook-id']).toBe(rx.got[0]!.headers['webhook-id']);
    expect((await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/deliveries/999999/resend`), headers: admin })).statusCode).toBe(404);
  });

  it('is sent again after its sender died mid-delivery (the lease runs out), with the same webhook-id', async () => {
    const sub = await subscribe(['load.status_changed']);
    // A sender that claimed the delivery and was killed: attempts counted, lease taken, nothing recorded.
    await t.app.webhookSender.stop();
    await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() });
    await t.app.db
      .update(webhookDeliveries)
      .set({ attempts: 1, leasedUntil: new Date(Date.now() + 300), lastAttemptAt: new Date() })
      .where(and(eq(webhookDeliveries.subscriptionId, sub.id), eq(webhookDeliveries.status, 'PENDING')));
    t.app.webhookSender.start();
    // The time passing is the subject: nothing is sent while the dead sender's lease runs.
    await new Promise((r) => setTimeout(r, 150));
    expect(rx.got).toHaveLength(0);
    await eventually(
      async () => rx.got.length,
      (n) => n >= 1,
      3000,
    );
    const [d] = webhookDeliveryPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}/deliveries`), headers: admin })).json(),
    ).content;
    await t.app.webhookSender.idle();
    expect(rx.got[0]!.headers['webhook-id']).toBe(d!.messageId);
  });

  it('410 Gone turns the subscription off and tells its administrators', async () => {
    const sub = await subscribe(['load.status_changed']);
    rx.plan = [{ status: 410 }];
    await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() });
    const after = await eventually(
      async () => webhookSchema.parse((await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}`), headers: admin })).json()),
      (w) => !w.enabled,
      15_000,
    );
    expect(after).toMatchObject({ enabled: false, disabledReason: 'GONE' });
    const told = await eventually(
      () =>
        t.app.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.organizationId, orgId), eq(notifications.kind, 'WEBHOOK_DISABLED'))),
      (n) => n.length > 0,
      15_000,
    );
    expect(told.length).toBeGreaterThan(0);
    // Turned on again by a person: the reason is cleared.
    const on = await t.app.inject({
      method: 'PUT',
      url: url(`/webhooks/${sub.id}`),
      headers: admin,
      payload: { url: rx.url, events: ['load.status_changed'], enabled: true },
    });
    expect(webhookSchema.parse(on.json())).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('a subscription failing for 5 days (scaled) is turned off', async () => {
    const sub = await subscribe(['load.status_changed']);
    rx.plan = [{ status: 503 }];
    await t.app.db
      .update(webhookSubscriptions)
      .set({ failingSince: new Date(Date.now() - 10 * 60_000) })
      .where(eq(webhookSubscriptions.id, sub.id));
    await t.app.inject({ method: 'POST', url: url('/loads'), headers: admin, payload: loadBody() });
    const after = await eventually(
      async () => webhookSchema.parse((await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}`), headers: admin })).json()),
      (w) => !w.enabled,
      15_000,
    );
    expect(after.disabledReason).toBe('FAILING');
  });

  it('a receiver that keeps timing out gets a shorter timeout until it answers again (issue 66)', async () => {
    // The timeout here is 2 s: the first attempt waits all of it, the next (the leash) 1 s.
    const sub = await subscribe(['load.status_changed']);
    rx.plan = [{ status: 0 }, { status: 0 }, { status: 204 }];
    await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/test`), headers: admin });
    const get = async () => webhookSchema.parse((await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}`), headers: admin })).json());
    expect((await eventually(get, (w) => w.consecutiveTimeouts === 1, 5000)).consecutiveTimeouts).toBe(1);
    const [first] = webhookDeliveryPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}/deliveries`), headers: admin })).json(),
    ).content;
    expect(first!.lastError).toBe('No complete answer within 2 s');
    expect((await eventually(get, (w) => w.consecutiveTimeouts === 2, 5000)).consecutiveTimeouts).toBe(2);
    const [second] = webhookDeliveryPageSchema.parse(
      (await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}/deliveries`), headers: admin })).json(),
    ).content;
    expect(second).toMatchObject({ attempts: 2, lastError: 'No complete answer within 1 s' });
    // It answers: the whole timeout again.
    const d = await eventually(
      async () =>
        webhookDeliveryPageSchema.parse((await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}/deliveries`), headers: admin })).json()).content[0],
      (x) => x?.status === 'DELIVERED',
      10_000,
    );
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: 3 });
    expect((await get()).consecutiveTimeouts).toBe(0);
    expect(rx.got).toHaveLength(3);
  });

  it('rotates the secret: both sign for 24 hours', async () => {
    const sub = await subscribe(['load.status_changed']);
    const rot = await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/rotate-secret`), headers: admin });
    expect(rot.statusCode).toBe(200);
    const { secret, previousSecretExpiresAt } = webhookSecretSchema.parse(rot.json());
    expect(secret).not.toBe(sub.secret);
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/test`), headers: admin });
    await eventually(
      async () => rx.got.length,
      (n) => n >= 1,
      3000,
    );
    const r = rx.got[0]!;
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const s of [secret, sub.secret]) expect(() => new Webhook(s).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
  });

  it('checks input, permissions and the organization', async () => {
    const bad = await t.app.inject({ method: 'POST', url: url('/webhooks'), headers: admin, payload: { url: 'ftp://x.example', events: ['nope'] } });
    expect(bad.statusCode).toBe(400);
    expectErrorBody(bad.json(), 400);
    const noEvents = await t.app.inject({ method: 'POST', url: url('/webhooks'), headers: admin, payload: { url: 'https://tms.example.com/h', events: [] } });
    expectFieldErrors(noEvents.json(), 400, { events: 'Choose at least one event type' });
    expect(await t.app.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.organizationId, orgId))).toHaveLength(0);
    const sub = await subscribe(['load.status_changed']);
    expect((await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}`, other.orgId), headers: admin })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(`/webhooks/${sub.id}`, other.orgId), headers: other.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: url(`/webhooks/${sub.id}`, other.orgId), headers: other.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url('/webhooks') })).statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: url('/webhooks'), headers: admin });
    expect(list.body).not.toContain(sub.secret);
    const types = await t.app.inject({ method: 'GET', url: url('/webhooks/event-types'), headers: admin });
    expect(types.json().content.map((x: { type: string }) => x.type)).toContain('hos.duty_status_changed');
    expect(types.json().content.map((x: { type: string }) => x.type)).toContain('safety.event_created');
    expect((await t.app.inject({ method: 'DELETE', url: url(`/webhooks/${sub.id}`), headers: admin })).statusCode).toBe(204);
  });

  it('documents each event type in the API document’s webhooks section', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { example: WebhookPayload }> } } }>;
    };
    expect(Object.keys(doc.webhooks)).toContain('load.status_changed');
    expect(doc.webhooks['load.status_changed']!.post.requestBody.content['application/json']!.example.type).toBe('load.status_changed');
    // The safety events (issue 47) too, with their example.
    const safety = doc.webhooks['safety.event_created']!.post.requestBody.content['application/json']!.example;
    expect(safety).toMatchObject({ type: 'safety.event_created', data: { type: 'HARSH_BRAKING', severity: 'HIGH', assetName: '101' } });
  });
});

describe('the sender’s rules', () => {
  it('refuses http without WEBHOOK_ALLOW_HTTP and private, loopback, link-local and metadata addresses without WEBHOOK_ALLOW_PRIVATE', () => {
    const strict = { allowHttp: false, allowPrivate: false };
    expect(urlProblem('http://tms.example.com/h', strict)).toContain('https://');
    expect(urlProblem('https://tms.example.com/h', strict)).toBeNull();
    for (const u of [
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/h',
      'https://[fd00:ec2::254]/h',
      'https://localhost/h',
      'https://[::ffff:127.0.0.1]/h',
    ]) {
      expect(urlProblem(u, strict), u).not.toBeNull();
    }
    expect(urlProblem('http://127.0.0.1:9/h', { allowHttp: true, allowPrivate: true })).toBeNull();
    expect(isPrivateAddress('100.64.0.1')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2606:4700::1111')).toBe(false);
  });

  it('shares the slots and shortens the leash by the figures of decision 0230', () => {
    expect(slotShares(100)).toEqual({ organization: 50, timingOut: 5, reserve: 10 });
    expect(slotShares(1)).toEqual({ organization: 1, timingOut: 1, reserve: 1 });
    expect([0, 1, 2, 3, 4, 5, 8].map((n) => attemptTimeoutMs(10_000, n))).toEqual([10_000, 2500, 2500, 2500, 10_000, 2500, 10_000]);
    expect(attemptTimeoutMs(2000, 1)).toBe(1000);
    expect(attemptTimeoutMs(500, 1)).toBe(500);
  });

  it('retries on the specification’s schedule with jitter for about 3 days', () => {
    expect(retryDelayMs(1, 1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(2, 1, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(1, 1, () => 0)).toBe(4000);
    expect(retryDelayMs(1, 1, () => 1)).toBe(6000);
    expect(retryDelayMs(RETRY_SCHEDULE_S.length + 1, 1)).toBeNull();
    const days = RETRY_SCHEDULE_S.reduce((a, b) => a + b, 0) / 86_400;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThan(3.5);
  });

  it('with nothing pending, looks at its outbox only when a commit tells it to (or the idle poll)', async () => {
    // idlePollMs is 60 s here: every other test of this file also passes only because commits wake
    // the sender; pollMs (50 ms) would have looked about 20 times in this second. On Citus too
    // (decision 0225: the due time is read per organization there, routed like the claims).
    await t.app.webhookSender.idle();
    const before = t.app.webhookSender.stats.looks;
    // The time passing is the subject: how often an idle sender looks.
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.app.webhookSender.stats.looks - before).toBeLessThanOrEqual(1);
    const sub = await subscribe(['load.stop_arrived']);
    const sent = Date.now();
    expect((await t.app.inject({ method: 'POST', url: url(`/webhooks/${sub.id}/test`), headers: admin })).statusCode).toBe(201);
    await eventually(
      async () => rx.got.length,
      (n) => n >= 1,
      3000,
    );
    expect(Date.now() - sent).toBeLessThan(2000);
    expect(payloadOf(rx.got[0]!).type).toBe('webhook.test');
  });

  it('writes nothing for an organization without subscriptions', async () => {
    const n = await emitWebhookEvent(t.app.db, {
      orgId: other.orgId,
      type: 'device.offline',
      at: new Date(),
      data: { deviceId: 'x', uniqueId: 'x', assetId: null, unitNumber: null, lastSeenAt: new Date().toISOString() },
    });
    expect(n).toBe(0);
    const res = await t.app.db.execute(sql`select count(*)::int as n from webhook_events where organization_id = ${other.orgId}`);
    expect((res as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });
});
