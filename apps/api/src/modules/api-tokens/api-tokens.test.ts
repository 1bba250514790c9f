import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { API_TOKEN_PATTERN, apiTokenCreatedSchema, apiTokenListSchema, type ApiTokenCreated } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import { apiTokens } from '../../db/schema/index.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';
import { TokenRateLimiter } from './rate-limit.ts';

// API tokens through HTTP on the real database (issue 48, decision 0197): created by an administrator
// with some of their codes, shown once, stored hashed; a token reads what its codes allow in its own
// organization only, is refused at once everywhere when revoked, and is rate-limited with the IETF
// draft's headers.

let t: TestContext;
let orgId: string;
let admin: Record<string, string>;
let owner: Awaited<ReturnType<typeof registerOrganization>>;
let other: { orgId: string; headers: Record<string, string> };
const url = (path = '', org = orgId) => `/api/v1/organizations/${org}${path}`;
const load = {
  customer: 'Acme Foods',
  stops: [
    {
      kind: 'PICKUP',
      latitude: 39.1,
      longitude: -94.58,
      windowStart: new Date(Date.now() + 3_600_000).toISOString(),
      windowEnd: new Date(Date.now() + 7_200_000).toISOString(),
      serviceMinutes: 30,
    },
    {
      kind: 'DELIVERY',
      latitude: 38.63,
      longitude: -90.2,
      windowStart: new Date(Date.now() + 9 * 3_600_000).toISOString(),
      windowEnd: new Date(Date.now() + 10 * 3_600_000).toISOString(),
      serviceMinutes: 30,
    },
  ],
  rate: { lineHaul: 1000, fuelSurcharge: 0, accessorials: [] },
};

beforeAll(async () => {
  t = await createTestApp({ apiTokenRate: { perToken: 1000, perOrganization: 1000 } });
  owner = await registerOrganization(t.app, 'Token Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
  const o = await registerOrganization(t.app, 'Other Token Carrier');
  other = { orgId: o.user.organization!.id, headers: bearer(o.accessToken) };
});
afterAll(async () => {
  await t?.close();
});

async function createToken(body: Record<string, unknown>, headers = admin, app: FastifyInstance = t.app): Promise<ApiTokenCreated> {
  const res = await app.inject({ method: 'POST', url: url('/api-tokens'), headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return apiTokenCreatedSchema.parse(res.json());
}

describe('API tokens', () => {
  it('a token with LOAD_LIST reads loads, is refused writes (403) and other organizations (404)', async () => {
    const created = await createToken({ name: 'TMS sync', permissions: ['LOAD_LIST'] });
    expect(created.token).toMatch(API_TOKEN_PATTERN);
    expect(created.permissions).toEqual(['LOAD_LIST']);
    // Stored hashed: the secret is nowhere in the table.
    const [row] = await t.app.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(5));
    const h = bearer(created.token);

    const list = await t.app.inject({ method: 'GET', url: url('/loads'), headers: h });
    expect(list.statusCode, list.body).toBe(200);
    const write = await t.app.inject({ method: 'POST', url: url('/loads'), headers: h, payload: load });
    expect(write.statusCode).toBe(403);
    expectErrorBody(write.json(), 403);
    const foreign = await t.app.inject({ method: 'GET', url: url('/loads', other.orgId), headers: h });
    expect(foreign.statusCode).toBe(404);
    // Not a person: no inbox, no account routes.
    expect((await t.app.inject({ method: 'GET', url: url('/notifications'), headers: h })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: h })).statusCode).toBe(403);
    // A token that is no token of ours.
    expect((await t.app.inject({ method: 'GET', url: url('/loads'), headers: bearer(`fltk_${'x'.repeat(43)}`) })).statusCode).toBe(401);
  });

  it('lists tokens with their prefix and last use, never the secret', async () => {
    const created = await createToken({ name: 'Payroll', permissions: ['DRIVER_LIST'] });
    expect((await t.app.inject({ method: 'GET', url: url('/drivers'), headers: bearer(created.token) })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: url('/api-tokens'), headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(created.token);
    const mine = apiTokenListSchema.parse(res.json()).content.find((x) => x.id === created.id)!;
    expect(mine.prefix).toBe(`${created.token.slice(0, 9)}…`);
    expect(mine.createdBy.label).toBe('Olive Owner');
    // The first use is written at once (later ones at most once a minute).
    const lastUse = async () =>
      apiTokenListSchema
        .parse((await t.app.inject({ method: 'GET', url: url('/api-tokens'), headers: admin })).json())
        .content.find((x) => x.id === created.id)!.lastUsedAt;
    await expect.poll(lastUse).not.toBeNull();
  });

  it('refuses codes the creator does not hold and codes no token may carry, naming the field', async () => {
    const member = await memberWithRole(t.app, t.dataDir, owner, ['API_TOKEN_MANAGE', 'LOAD_LIST']);
    const res = await t.app.inject({
      method: 'POST',
      url: url('/api-tokens'),
      headers: bearer(member.session.accessToken),
      payload: { name: 'x', permissions: ['LOAD_UPDATE'] },
    });
    expectFieldErrors(res.json(), 400, { permissions: 'A token can only carry permissions you hold yourself' });
    const manage = await t.app.inject({ method: 'POST', url: url('/api-tokens'), headers: admin, payload: { name: 'x', permissions: ['API_TOKEN_MANAGE'] } });
    expect(manage.statusCode).toBe(400);
    const cidr = await t.app.inject({
      method: 'POST',
      url: url('/api-tokens'),
      headers: admin,
      payload: { name: 'x', permissions: ['LOAD_LIST'], allowedIps: ['10.0.0.0/33'] },
    });
    expect(cidr.statusCode).toBe(400);
    expect(cidr.json().technicalMessage).toContain('allowedIps');
    const past = await t.app.inject({
      method: 'POST',
      url: url('/api-tokens'),
      headers: admin,
      payload: { name: 'x', permissions: ['LOAD_LIST'], expiresAt: '2020-01-01T00:00:00Z' },
    });
    expectFieldErrors(past.json(), 400, { expiresAt: 'Expires must be in the future' });
    // Another organization's administrator reaches nothing of this one's tokens.
    expect((await t.app.inject({ method: 'GET', url: url('/api-tokens'), headers: other.headers })).statusCode).toBe(404);
  });

  it('is refused from an address outside its allowed ranges, and once expired', async () => {
    const created = await createToken({ name: 'Office only', permissions: ['LOAD_LIST'], allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    const h = bearer(created.token);
    expect((await t.app.inject({ method: 'GET', url: url('/loads'), headers: h, remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
    const outside = await t.app.inject({ method: 'GET', url: url('/loads'), headers: h, remoteAddress: '198.51.100.1' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().message).toContain('not accepted from your address');
    await t.app.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, created.id));
    // The cached credential is dropped by the revocation-style notification; expiry is checked on every request anyway.
    t.app.authCache.invalidate('*');
    const expired = await t.app.inject({ method: 'GET', url: url('/loads'), headers: h, remoteAddress: '203.0.113.9' });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toContain('expired');
  });

  it('names the token in the activity log for what it changed', async () => {
    const created = await createToken({ name: 'Load importer', permissions: ['LOAD_LIST', 'LOAD_UPDATE'] });
    const res = await t.app.inject({ method: 'POST', url: url('/loads'), headers: bearer(created.token), payload: load });
    expect(res.statusCode, res.body).toBe(201);
    const log = await t.app.inject({ method: 'GET', url: url(`/activity-logs?size=5`), headers: admin });
    const entry = (log.json().content as Array<{ entityType: string; actor: { label: string; tokenId?: string | null } }>).find(
      (e) => e.entityType === 'LOAD',
    )!;
    expect(entry.actor.label).toBe('API token “Load importer”');
    expect(entry.actor.tokenId).toBe(created.id);
  });

  it('a revoked token is refused at once, on every instance', async () => {
    // A second instance on the same database, with its own caches.
    const second = await buildApp({ config: t.config, database: t.database });
    await second.ready();
    try {
      const created = await createToken({ name: 'Short-lived', permissions: ['LOAD_LIST'] });
      const h = bearer(created.token);
      expect((await second.inject({ method: 'GET', url: url('/loads'), headers: h })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: url('/loads'), headers: h })).statusCode).toBe(200);
      const del = await t.app.inject({ method: 'DELETE', url: url(`/api-tokens/${created.id}`), headers: admin });
      expect(del.statusCode).toBe(204);
      const refused = await second.inject({ method: 'GET', url: url('/loads'), headers: h });
      expect(refused.statusCode).toBe(401);
      expectErrorBody(refused.json(), 401);
      expect((await t.app.inject({ method: 'GET', url: url('/loads'), headers: h })).statusCode).toBe(401);
      // Gone from the list; a second revoke is a 404.
      expect((await t.app.inject({ method: 'GET', url: url('/api-tokens'), headers: admin })).body).not.toContain(created.id);
      expect((await t.app.inject({ method: 'DELETE', url: url(`/api-tokens/${created.id}`), headers: admin })).statusCode).toBe(404);
    } finally {
      await second.close();
    }
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After and the draft RateLimit headers once a token spends its second', async () => {
    const limited = await buildApp({ config: { ...t.config, apiTokenRate: { perToken: 5, perOrganization: 8 } }, database: t.database });
    await limited.ready();
    try {
      const created = await createToken({ name: 'Busy', permissions: ['LOAD_LIST'] }, admin, limited);
      const h = bearer(created.token);
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await limited.inject({ method: 'GET', url: url('/loads?size=1'), headers: h }));
      const ok = answers.find((r) => r.statusCode === 200)!;
      expect(ok.headers['ratelimit-policy']).toBe('"token";q=5;w=1, "organization";q=8;w=1');
      expect(String(ok.headers.ratelimit)).toMatch(/^"(token|organization)";r=\d+;t=1$/);
      const refused = answers.find((r) => r.statusCode === 429)!;
      expect(refused, 'some request was refused').toBeDefined();
      expect(refused.headers['retry-after']).toBe('1');
      expect(String(refused.headers.ratelimit)).toMatch(/;r=0;t=1$/);
      expectErrorBody(refused.json(), 429);
      // A person's session is not counted against the token.
      expect((await limited.inject({ method: 'GET', url: url('/loads?size=1'), headers: admin })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('counts per token and per organization in one-second windows', () => {
    let now = 1_000_000;
    const rl = new TokenRateLimiter({ perToken: 2, perOrganization: 3 }, () => now);
    expect([rl.take('a', 'o'), rl.take('a', 'o'), rl.take('a', 'o')].map((d) => d.allowed)).toEqual([true, true, false]);
    expect(rl.take('b', 'o').allowed).toBe(true);
    const orgFull = rl.take('b', 'o');
    expect(orgFull.allowed).toBe(false);
    expect(orgFull.headers.ratelimit).toBe('"organization";r=0;t=1');
    now += 1000;
    expect(rl.take('a', 'o').allowed).toBe(true);
  });
});
