import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webhookListSchema } from '@fleet/api-contract';
import { webhookSubscriptions } from '../../db/schema/index.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';

// What a subscription may be at save, with the server's defaults (issue 66): at most
// WEBHOOK_MAX_PER_ORG (50) per organization, and no local host name however it is spelled (a final
// dot names the same host).

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
const url = (path = '') => `/api/v1/organizations/${orgId}${path}`;
const create = (target: string) =>
  t.app.inject({ method: 'POST', url: url('/webhooks'), headers: admin, payload: { url: target, events: ['load.status_changed'] } });
const countSubs = async () => (await t.app.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.organizationId, orgId))).length;

beforeAll(async () => {
  // The defaults: https only, no private addresses, 50 subscriptions an organization.
  t = await createTestApp();
  const owner = await registerOrganization(t.app, 'Limited Hooks');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
});
afterAll(async () => {
  await t?.close();
});

describe('webhook subscriptions at save', () => {
  it('refuses a local host name written with a final dot, at create and at update', async () => {
    for (const target of [
      'https://localhost.:8443/h',
      'https://LOCALHOST./h',
      'https://api.localhost./h',
      'https://tms.internal./h',
      'https://printer.local../h',
      'https://127.0.0.1./h',
    ]) {
      const res = await create(target);
      expect(res.statusCode, `${target}: ${res.body}`).toBe(400);
      expectErrorBody(res.json(), 400);
      expect(res.json().technicalMessage, target).toMatch(/^url: URL must not point at a (local host name|private, loopback or link-local address)$/);
    }
    expect(await countSubs()).toBe(0);
    const ok = await create('https://tms.example.com./h');
    expect(ok.statusCode, ok.body).toBe(201);
    const put = await t.app.inject({
      method: 'PUT',
      url: url(`/webhooks/${ok.json().id}`),
      headers: admin,
      payload: { url: 'https://localhost.:8443/h', events: ['load.status_changed'] },
    });
    expectFieldErrors(put.json(), 400, { url: 'URL must not point at a local host name' });
    expect((await t.app.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.organizationId, orgId)))[0]!.url).toBe(
      'https://tms.example.com./h',
    );
    await t.app.db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.organizationId, orgId));
  });

  it('refuses the 51st subscription of an organization with a 400 that says why, and the list says the limit', async () => {
    expect(t.config.webhooks.maxPerOrg).toBe(50);
    for (let i = 0; i < 49; i++) expect((await create(`https://tms.example.com/h/${i}`)).statusCode).toBe(201);
    // Two at once for the last place: exactly one gets it.
    const both = await Promise.all([create('https://tms.example.com/h/a'), create('https://tms.example.com/h/b')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect(await countSubs()).toBe(50);

    const refused = await create('https://tms.example.com/h/51');
    expect(refused.statusCode).toBe(400);
    expectErrorBody(refused.json(), 400);
    expect(refused.json()).toMatchObject({
      message: 'This organization already has 50 webhook subscriptions, the most allowed. Delete one before adding another.',
      technicalMessage: 'webhooks: at most 50 subscriptions per organization (WEBHOOK_MAX_PER_ORG)',
    });
    expect(await countSubs()).toBe(50);

    const list = webhookListSchema.parse((await t.app.inject({ method: 'GET', url: url('/webhooks'), headers: admin })).json());
    expect(list.limit).toBe(50);
    expect(list.content).toHaveLength(50);
    expect(list.content[0]).toMatchObject({ consecutiveTimeouts: 0 });

    // Another organization has its own 50.
    const other = await registerOrganization(t.app, 'Other Limited Hooks');
    const theirs = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${other.user.organization!.id}/webhooks`,
      headers: bearer(other.accessToken),
      payload: { url: 'https://tms.example.com/h', events: ['load.status_changed'] },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);

    // One deleted makes room for one.
    expect((await t.app.inject({ method: 'DELETE', url: url(`/webhooks/${list.content[0]!.id}`), headers: admin })).statusCode).toBe(204);
    expect((await create('https://tms.example.com/h/again')).statusCode).toBe(201);
    expect((await create('https://tms.example.com/h/over')).statusCode).toBe(400);
  });
});
