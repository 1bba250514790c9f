import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  DEMO,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  login,
  readOutbox,
  registerOrganization,
  type TestContext,
} from '../../test/helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers, remoteAddress });

describe('POST auth/authenticate', () => {
  it('signs the demo admin in with the user, an access token and a refresh token', async () => {
    const res = await post('/auth/authenticate', DEMO.admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accessToken).toMatch(/^ey/);
    expect(body.refreshToken.length).toBeGreaterThan(30);
    expect(body.user).toMatchObject({
      role: 'ADMIN',
      organization: { name: 'Demo Freight' },
      email: DEMO.admin.email,
      firstName: 'Dana',
      lastName: 'Whitfield',
      profilePicture: null,
    });
    expect(body.user.permissions).toContain('ASSET_CREATE');
    expect(body.user.permissions).not.toContain('SUPER_ADMIN');
    expect(body.user).not.toHaveProperty('passwordHash');
  });

  it('accepts the e-mail in any letter case', async () => {
    const res = await post('/auth/authenticate', { email: DEMO.admin.email.toUpperCase(), password: DEMO.admin.password });
    expect(res.statusCode).toBe(200);
  });

  it('signs the super administrator in without an organization', async () => {
    const body = (await post('/auth/authenticate', DEMO.superAdmin)).json();
    expect(body.user.role).toBe('SUPER_ADMIN');
    expect(body.user.organization).toBeNull();
    expect(body.user.permissions).toEqual(['SUPER_ADMIN']);
  });

  it('answers 401 with one generic message for a wrong password and an unknown e-mail alike', async () => {
    const wrong = await post('/auth/authenticate', { email: DEMO.admin.email, password: 'not-the-password' }, {}, '10.1.1.1');
    const unknown = await post('/auth/authenticate', { email: 'nobody@nowhere.test', password: 'whatever1' }, {}, '10.1.1.1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(expectErrorBody(wrong.json(), 401).message).toBe(expectErrorBody(unknown.json(), 401).message);
  });

  it('names each bad field in a 400', async () => {
    const res = await post('/auth/authenticate', { email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, { email: 'Email must be a valid email address', password: 'Password is a required field' });
  });

  it('answers 429 after 10 failed sign-ins from one IP for one e-mail, and not for another IP', async () => {
    const ip = '10.2.2.2';
    for (let i = 0; i < 10; i++) {
      const r = await post('/auth/authenticate', { email: DEMO.dispatcher.email, password: `wrong-${i}-pw` }, {}, ip);
      expect(r.statusCode).toBe(401);
    }
    const blocked = await post('/auth/authenticate', DEMO.dispatcher, {}, ip);
    expect(blocked.statusCode).toBe(429);
    expectErrorBody(blocked.json(), 429);
    const elsewhere = await post('/auth/authenticate', DEMO.dispatcher, {}, '10.2.2.3');
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('POST auth/register', () => {
  it('creates a new organization with the registrant as its ADMIN, ignoring a role in the payload', async () => {
    const res = await post('/auth/register', {
      firstname: 'Ada',
      lastname: 'Hauler',
      organizationName: 'Hauler Bros',
      email: 'ada@haulerbros.test',
      password: 'Sup3rSecret',
      role: 'SUPER_ADMIN',
      id: 1,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user.role).toBe('ADMIN');
    expect(body.user.organization.name).toBe('Hauler Bros');
    expect(body.user.permissions).not.toContain('SUPER_ADMIN');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(body.accessToken) });
    expect(me.json().email).toBe('ada@haulerbros.test');
  });

  it('answers 409 for an e-mail that exists, and creates nothing', async () => {
    const res = await post('/auth/register', {
      firstname: 'X',
      lastname: 'Y',
      organizationName: 'Copycat Logistics',
      email: DEMO.admin.email.toUpperCase(),
      password: 'Sup3rSecret',
    });
    expect(res.statusCode).toBe(409);
    expectFieldErrors(res.json(), 409, { email: 'An account with this email already exists' });
    const rows = await t.database.db.execute(`select count(*)::int as n from organizations where name = 'Copycat Logistics'` as never);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
  });

  it('requires at least 8 characters of password', async () => {
    const res = await post('/auth/register', { firstname: 'A', lastname: 'B', organizationName: 'C', email: 'short@pw.test', password: 'short' });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, { password: 'Password must be at least 8 characters' });
  });
});

describe('refresh tokens', () => {
  it('rotates on every use: the new pair works and the old refresh token does not', async () => {
    const s = await login(t.app, DEMO.admin);
    const r1 = await post('/auth/refresh-token', undefined, bearer(s.refreshToken));
    expect(r1.statusCode).toBe(200);
    const t1 = r1.json();
    expect(t1.refreshToken).not.toBe(s.refreshToken);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(t1.accessToken) });
    expect(me.statusCode).toBe(200);
    const r2 = await post('/auth/refresh-token', undefined, bearer(t1.refreshToken));
    expect(r2.statusCode).toBe(200);
  });

  it('revokes the whole family when a spent refresh token is presented again (theft detection)', async () => {
    const s = await login(t.app, DEMO.admin);
    const legit = (await post('/auth/refresh-token', undefined, bearer(s.refreshToken))).json();
    const replay = await post('/auth/refresh-token', undefined, bearer(s.refreshToken));
    expect(replay.statusCode).toBe(401);
    expectErrorBody(replay.json(), 401);
    // The thief's replay also kills the legitimate holder's newer token.
    const after = await post('/auth/refresh-token', undefined, bearer(legit.refreshToken));
    expect(after.statusCode).toBe(401);
  });

  it('rejects a missing or made-up refresh token with 401', async () => {
    expect((await post('/auth/refresh-token')).statusCode).toBe(401);
    expect((await post('/auth/refresh-token', undefined, bearer('made-up'))).statusCode).toBe(401);
  });
});

describe('POST auth/logout', () => {
  it('revokes that session only', async () => {
    const a = await login(t.app, DEMO.admin);
    const b = await login(t.app, DEMO.admin);
    const res = await post('/auth/logout', { refreshToken: a.refreshToken }, bearer(a.accessToken));
    expect(res.statusCode).toBe(204);
    expect((await post('/auth/refresh-token', undefined, bearer(a.refreshToken))).statusCode).toBe(401);
    expect((await post('/auth/refresh-token', undefined, bearer(b.refreshToken))).statusCode).toBe(200);
  });

  it('needs an access token', async () => {
    expect((await post('/auth/logout', {})).statusCode).toBe(401);
  });
});

describe('GET auth/me', () => {
  it('answers 401 with the error body without a token or with a forged one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me' });
    expect(none.statusCode).toBe(401);
    expectErrorBody(none.json(), 401);
    const forged = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad') });
    expect(forged.statusCode).toBe(401);
  });
});

describe('forgotten password', () => {
  it('always answers 202, and e-mails a single-use link only to an existing account', async () => {
    const before = readOutbox(t.dataDir).length;
    const unknown = await post('/auth/reset-password', { email: 'ghost@nowhere.test' }, {}, '10.3.0.1');
    expect(unknown.statusCode).toBe(202);
    expect(readOutbox(t.dataDir).length).toBe(before);

    const known = await post('/auth/reset-password', { email: DEMO.dispatcher.email }, {}, '10.3.0.1');
    expect(known.statusCode).toBe(202);
    expect(known.json().message).toBe(unknown.json().message);
    const mail = readOutbox(t.dataDir).at(-1);
    expect(mail?.to).toBe(DEMO.dispatcher.email);
    const token = mail?.text.match(/http:\/\/fleet\.test\/create-new-password\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();

    const session = await login(t.app, DEMO.dispatcher, '10.3.0.9');
    const set = await post('/auth/create-new-password', { token, password: 'BrandNew#Pass1' }, {}, '10.3.0.1');
    expect(set.statusCode).toBe(204);
    // Every session of the user ends.
    expect((await post('/auth/refresh-token', undefined, bearer(session.refreshToken))).statusCode).toBe(401);
    // The new password works, the old one does not.
    expect((await post('/auth/authenticate', { email: DEMO.dispatcher.email, password: 'BrandNew#Pass1' }, {}, '10.3.0.2')).statusCode).toBe(200);
    expect((await post('/auth/authenticate', DEMO.dispatcher, {}, '10.3.0.3')).statusCode).toBe(401);
    // The link is single-use.
    const again = await post('/auth/create-new-password', { token, password: 'Another#Pass2' }, {}, '10.3.0.1');
    expect(again.statusCode).toBe(400);
    expectErrorBody(again.json(), 400);
    // Put the demo password back for other tests.
    await post('/auth/reset-password', { email: DEMO.dispatcher.email }, {}, '10.3.0.4');
    const t2 = readOutbox(t.dataDir)
      .at(-1)
      ?.text.match(/create-new-password\/([A-Za-z0-9_-]+)/)?.[1];
    expect((await post('/auth/create-new-password', { token: t2, password: DEMO.dispatcher.password }, {}, '10.3.0.4')).statusCode).toBe(204);
  });

  it('refuses an expired link', async () => {
    await post('/auth/reset-password', { email: DEMO.admin.email }, {}, '10.4.0.1');
    const token = readOutbox(t.dataDir)
      .at(-1)
      ?.text.match(/create-new-password\/([A-Za-z0-9_-]+)/)?.[1];
    await t.database.db.execute(`update password_reset_tokens set expires_at = now() - interval '1 minute' where used_at is null` as never);
    const res = await post('/auth/create-new-password', { token, password: 'Whatever#123' }, {}, '10.4.0.1');
    expect(res.statusCode).toBe(400);
  });
});

describe('errors and tenancy', () => {
  it('answers an unknown API route with the 404 error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });

  it("hides another organization's users behind a 404", async () => {
    const other = await registerOrganization(t.app, 'Faraway Freight');
    const mine = await login(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${other.user.organization?.id}/users/${other.user.id}`,
      headers: bearer(mine.accessToken),
    });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
    const write = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${other.user.organization?.id}/users/${other.user.id}`,
      headers: bearer(mine.accessToken),
      payload: { firstName: 'Hacked', lastName: 'Name', email: 'hacked@x.test' },
    });
    expect(write.statusCode).toBe(404);
    const check = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(other.accessToken) });
    expect(check.json().firstName).toBe('Olive');
  });

  it('lets the super administrator act on any organization (take control)', async () => {
    const other = await registerOrganization(t.app, 'Controlled Carrier');
    const sa = await login(t.app, DEMO.superAdmin);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${other.user.organization?.id}/users/${other.user.id}`,
      headers: bearer(sa.accessToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(other.user.email);
  });

  it("answers 403 (before validating the body) when editing someone else's profile without USER_UPDATE", async () => {
    const dispatcher = await login(t.app, DEMO.dispatcher);
    const admin = await login(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${dispatcher.user.organization?.id}/users/${admin.user.id}`,
      headers: bearer(dispatcher.accessToken),
      payload: { firstName: 'Mallory', lastName: 'M', email: 'mallory@x.test' },
    });
    expect(res.statusCode).toBe(403);
    expectErrorBody(res.json(), 403);
  });
});

describe('API documentation', () => {
  it('serves an OpenAPI document listing the auth endpoints with their schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/v1/auth/authenticate'].post.requestBody).toBeTruthy();
    expect(doc.paths['/api/v1/organizations/{orgId}/users/{userId}/changePassword'].put).toBeTruthy();
  });
});

describe('access after a change', () => {
  it("refuses a deactivated user's still-valid access token at once", async () => {
    const s = await registerOrganization(t.app, 'Soon Gone LLC');
    const ok = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) });
    expect(ok.statusCode).toBe(200);
    await t.database.db.execute(`update users set status = 'INACTIVE' where id = '${s.user.id}'` as never);
    // On PostgreSQL the change reaches every instance's cache by NOTIFY within milliseconds.
    const after = await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) }),
      (r) => r.statusCode === 401,
    );
    expect(after.statusCode).toBe(401);
    expectErrorBody(after.json(), 401);
  });

  it('shows a renamed organization in the current user at once', async () => {
    const s = await registerOrganization(t.app, 'Old Name Inc');
    await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) });
    await t.database.db.execute(`update organizations set name = 'New Name Inc' where id = '${s.user.organization?.id}'` as never);
    const me = await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) }),
      (r) => r.json().organization.name === 'New Name Inc',
    );
    expect(me.json().organization.name).toBe('New Name Inc');
  });
});
