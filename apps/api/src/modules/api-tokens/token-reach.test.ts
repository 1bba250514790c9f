import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { apiTokenListSchema, TOKEN_PERMISSIONS, type ApiTokenCreated } from '@fleet/api-contract';
import { buildApp } from '../../app.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { createApiToken } from '../../test/api-tokens.ts';
import { bearer, createTestApp, expectErrorBody, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';
import { driverBody } from '../../test/registry.ts';
import { TOKENS_REFUSED } from './api-token-auth.ts';

// Issue 66, decision 0226: an API token acts for its organization, never as the person who made it.
// It could edit its creator's profile (a new e-mail, then the public password reset: the account
// taken over). Now every route is closed to tokens unless it says otherwise (config.tokens, listed
// in the API document under the apiToken scheme), and a token's codes are cut to its creator's.

let t: TestContext;
let orgId: string;
let owner: Awaited<ReturnType<typeof registerOrganization>>;
let admin: Record<string, string>;
const url = (path = '', org = orgId) => `/api/v1/organizations/${org}${path}`;

beforeAll(async () => {
  t = await createTestApp({ apiTokenRate: { perToken: 1_000_000, perOrganization: 1_000_000 } });
  owner = await registerOrganization(t.app, 'Reach Carrier');
  orgId = owner.user.organization!.id;
  admin = bearer(owner.accessToken);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const createToken = (permissions: readonly string[], headers = admin): Promise<ApiTokenCreated> => createApiToken(t.app, orgId, headers, permissions);

/** Every user row as stored: no request of a token may change one. */
const userRows = async () => JSON.stringify(rowsOf(await t.database.db.execute(sql`select * from users order by id`)));

function expectRefused(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
  expect(expectErrorBody(res.json(), 403).message, what).toBe(TOKENS_REFUSED);
}

describe('a token is not a person', () => {
  it("cannot take over its creator's account: no profile, e-mail, password, role or status change, no /auth, inbox, preferences or stream ticket", async () => {
    const token = await createToken(['ASSET_LIST']);
    const h = bearer(token.token);
    const me = owner.user.id;
    const before = await userRows();
    const profile = { firstName: 'Olive', lastName: 'Owner', email: `taken-${randomUUID().slice(0, 6)}@evil.test` };
    const calls: Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; payload?: unknown }> = [
      // The reproduced takeover: the creator's e-mail changed to one the intruder reads.
      { method: 'PUT', path: url(`/users/${me}`), payload: profile },
      { method: 'PUT', path: url(`/users/${me}`), payload: { ...profile, currentPassword: owner.password } },
      { method: 'GET', path: url(`/users/${me}`) },
      { method: 'PUT', path: url(`/users/${me}/changePassword`), payload: { currentPassword: owner.password, newPassword: 'Intruder#2026x' } },
      { method: 'POST', path: url(`/users/${me}/deactivate`) },
      { method: 'POST', path: url(`/users/${me}/password-reset`) },
      { method: 'DELETE', path: url(`/users/${me}/image`) },
      { method: 'GET', path: url('/users') },
      { method: 'GET', path: url('/roles') },
      { method: 'GET', path: '/api/v1/auth/me' },
      { method: 'GET', path: '/api/v1/users/me' },
      { method: 'POST', path: '/api/v1/auth/logout-everywhere' },
      { method: 'POST', path: '/api/v1/auth/logout', payload: {} },
      // The account routes that need no credential refuse a token too: it signs in, refreshes or resets nobody.
      { method: 'POST', path: '/api/v1/auth/authenticate', payload: { email: owner.user.email, password: owner.password } },
      { method: 'POST', path: '/api/v1/auth/refresh-token' },
      { method: 'POST', path: '/api/v1/auth/reset-password', payload: { email: owner.user.email } },
      { method: 'POST', path: '/api/v1/auth/create-new-password', payload: { token: 'x'.repeat(43), password: 'Intruder#2026x' } },
      { method: 'POST', path: '/api/v1/auth/undo-email-change', payload: { token: 'x'.repeat(43) } },
      { method: 'POST', path: '/api/v1/auth/register', payload: {} },
      { method: 'GET', path: url('/notifications') },
      { method: 'GET', path: url('/notifications/preferences') },
      { method: 'PUT', path: url('/notifications/preferences'), payload: {} },
      { method: 'POST', path: url('/assets/stream/ticket') },
      { method: 'POST', path: url('/notifications/stream/ticket') },
      { method: 'GET', path: url('/notifications/stream') },
      { method: 'GET', path: url('/api-tokens') },
      { method: 'GET', path: url('/messages/unread-count') },
      { method: 'GET', path: url('/report-subscriptions') },
    ];
    for (const c of calls) {
      const res = await t.app.inject({ method: c.method, url: c.path, headers: h, ...(c.payload === undefined ? {} : { payload: c.payload as object }) });
      expectRefused(res, `${c.method} ${c.path}`);
    }
    expect(await userRows()).toBe(before);
    // What it was made for still works.
    expect((await t.app.inject({ method: 'GET', url: url('/assets'), headers: h })).statusCode).toBe(200);
  });

  it("does not decide who signs in as a driver: a token neither links nor unlinks a driver's sign-in account", async () => {
    const member = await memberWithRole(t.app, t.dataDir, owner, ['HOS_SELF_READ']);
    const token = await createToken(['DRIVER_LIST', 'DRIVER_CREATE', 'DRIVER_UPDATE']);
    const h = bearer(token.token);
    // A token making a driver signed in as the administrator, or as another person: refused.
    for (const userId of [owner.user.id, member.session.user.id]) {
      const made = await t.app.inject({ method: 'POST', url: url('/drivers'), headers: h, payload: driverBody({ userId }) });
      expect(made.statusCode, made.body).toBe(403);
      expect(expectErrorBody(made.json(), 403).message).toMatch(/API tokens cannot link or unlink a driver's sign-in account/);
    }
    const body = driverBody();
    const made = await t.app.inject({ method: 'POST', url: url('/drivers'), headers: h, payload: body });
    expect(made.statusCode, made.body).toBe(201);
    const driverId = made.json().id as string;
    // The office links the member's account; the token may edit the driver and keep that link...
    const linked = await t.app.inject({
      method: 'PUT',
      url: url(`/drivers/${driverId}`),
      headers: admin,
      payload: { ...body, userId: member.session.user.id },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const kept = await t.app.inject({
      method: 'PUT',
      url: url(`/drivers/${driverId}`),
      headers: h,
      payload: { ...body, phone: '+13125550166', userId: member.session.user.id },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    // ...but neither move it to another person nor take it away.
    for (const userId of [owner.user.id, null]) {
      const moved = await t.app.inject({ method: 'PUT', url: url(`/drivers/${driverId}`), headers: h, payload: { ...body, userId } });
      expect(moved.statusCode, moved.body).toBe(403);
    }
    const detail = await t.app.inject({ method: 'GET', url: url(`/drivers/${driverId}`), headers: admin });
    expect(detail.json()).toMatchObject({ user: { id: member.session.user.id }, phone: '+13125550166' });
  });

  it("holds at most its creator's current codes: a demotion narrows it at once, on every instance, and the list shows what it lost", async () => {
    const member = await memberWithRole(t.app, t.dataDir, owner, ['API_TOKEN_MANAGE', 'LOAD_LIST', 'ASSET_LIST']);
    const token = await createToken(['LOAD_LIST', 'ASSET_LIST'], bearer(member.session.accessToken));
    const h = bearer(token.token);
    const second: FastifyInstance = await buildApp({ config: t.config, database: t.database });
    await second.ready();
    try {
      const status = async (app: FastifyInstance, path: string) => (await app.inject({ method: 'GET', url: url(path), headers: h })).statusCode;
      // Both instances have the token cached.
      for (const app of [t.app, second]) expect([await status(app, '/loads'), await status(app, '/assets')]).toEqual([200, 200]);
      const lost = async () =>
        apiTokenListSchema
          .parse((await t.app.inject({ method: 'GET', url: url('/api-tokens'), headers: admin })).json())
          .content.find((x) => x.id === token.id)!.lostPermissions;
      expect(await lost()).toEqual([]);

      // The creator's role loses LOAD_LIST (a roles change).
      const role = await t.app.inject({
        method: 'PUT',
        url: url(`/roles/${member.roleId}`),
        headers: admin,
        payload: { name: `Narrowed ${member.roleId.slice(0, 6)}`, permissions: ['API_TOKEN_MANAGE', 'ASSET_LIST'] },
      });
      expect(role.statusCode, role.body).toBe(200);
      for (const app of [second, t.app]) expect([await status(app, '/loads'), await status(app, '/assets')]).toEqual([403, 200]);
      expect(await lost()).toEqual(['LOAD_LIST']);

      // The creator moved to a role without ASSET_LIST (a change of the user alone).
      const bare = await t.app.inject({
        method: 'POST',
        url: url('/roles'),
        headers: admin,
        payload: { name: `Bare ${randomUUID().slice(0, 6)}`, permissions: ['API_TOKEN_MANAGE'] },
      });
      expect(bare.statusCode, bare.body).toBe(201);
      const users = (await t.app.inject({ method: 'GET', url: url(`/users?search=${encodeURIComponent(member.email)}`), headers: admin })).json()
        .content as Array<{ id: string; firstName: string; lastName: string; email: string }>;
      const u = users.find((x) => x.email === member.email)!;
      const moved = await t.app.inject({
        method: 'PUT',
        url: url(`/users/${u.id}`),
        headers: admin,
        payload: { firstName: u.firstName, lastName: u.lastName, email: u.email, roleId: bare.json().id },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      for (const app of [second, t.app]) expect([await status(app, '/loads'), await status(app, '/assets')]).toEqual([403, 403]);
      expect(await lost()).toEqual(['ASSET_LIST', 'LOAD_LIST']);
    } finally {
      await second.close();
    }
  });
});

describe('the API document and the routes agree on what a token may reach', () => {
  type Operation = { security?: Array<Record<string, unknown>>; responses?: Record<string, { content?: Record<string, unknown> }> };

  it('with a token of every code, a route not listing the apiToken scheme answers 403 "API tokens cannot use this endpoint", one listing it never does; no user row changes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const tokens = [await createToken(TOKEN_PERMISSIONS), ...(await Promise.all(TOKEN_PERMISSIONS.map((code) => createToken([code]))))];
    const before = await userRows();
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ method: method.toUpperCase() as 'GET', path, op })),
    );
    // Every operation says which credentials it takes: none (public), a session, or a token too.
    expect(ops.filter((o) => !o.op.security).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    // The auth plugin's routes ask for a credential; the public ones (sign-in, refresh, device ingest,
    // signed image links) take their own or none.
    const signedIn = new Set<(typeof ops)[number]>();
    for (const o of ops.filter((op) => op.op.security?.length)) {
      const res = await t.app.inject({ method: o.method, url: o.path.replace(/\{[^}]+\}/g, () => randomUUID()) });
      if (res.statusCode === 401 && (res.json() as { message?: string }).message === 'Authentication required') signedIn.add(o);
    }
    const open = ops.filter((o) => o.op.security?.some((s) => 'apiToken' in s));
    const closed = ops.filter((o) => signedIn.has(o) && !open.includes(o));
    // The account routes are a person's: those needing no credential (sign-in, refresh, reset) refuse a
    // token too. Asked once each: their limit per address would answer a walk with every token first.
    const account = ops.filter((o) => !signedIn.has(o) && !open.includes(o) && o.path.startsWith('/api/v1/auth/'));
    expect(account.length).toBeGreaterThanOrEqual(5);
    expect(
      open.filter((o) => !signedIn.has(o)).map((o) => `${o.method} ${o.path}`),
      'open to tokens, yet public',
    ).toEqual([]);
    expect(open.length).toBeGreaterThan(150);
    expect(closed.length).toBeGreaterThan(60);

    const failures: string[] = [];
    let sent = 0;
    const send = async (token: ApiTokenCreated, o: (typeof ops)[number], shouldRefuse: boolean) => {
      const stream = Object.values(o.op.responses ?? {}).some((r) => Object.keys(r.content ?? {}).includes('text/event-stream'));
      // A stream open to tokens is asked for a group that does not exist: a 404 before it opens (open-streams.test.ts holds real ones).
      const path = o.path.replace('{orgId}', orgId).replace(/\{[^}]+\}/g, () => randomUUID()) + (stream ? `?group=${randomUUID()}` : '');
      const body = o.method === 'GET' || o.method === 'DELETE' ? {} : { payload: {} };
      const res = await t.app.inject({ method: o.method, url: path, headers: bearer(token.token), ...body });
      sent++;
      const refused = res.statusCode === 403 && (res.json() as { message?: string }).message === TOKENS_REFUSED;
      if (refused !== shouldRefuse)
        failures.push(
          `${o.method} ${o.path} with ${token.permissions.length > 1 ? 'every code' : token.permissions[0]}: ${res.statusCode} ${res.body.slice(0, 160)}`,
        );
    };
    for (const o of account) await send(tokens[0]!, o, true);
    for (const token of tokens) {
      const work = [...closed.map((o) => () => send(token, o, true)), ...open.map((o) => () => send(token, o, false))];
      // A few at a time: the walk is ~13,000 requests.
      for (let i = 0; i < work.length; i += 8) await Promise.all(work.slice(i, i + 8).map((w) => w()));
    }
    expect(failures).toEqual([]);
    expect(sent).toBe(tokens.length * (open.length + closed.length) + account.length);
    expect(await userRows()).toBe(before);
  }, 600_000);
});
