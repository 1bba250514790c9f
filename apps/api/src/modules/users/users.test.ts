import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEMO, expectErrorBody, expectFieldErrors, login, type TestContext } from '../../test/helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ imageLimit: 64 * 1024 });
});
afterAll(async () => {
  await t?.close();
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);

function multipart(data: Buffer, filename = 'me.png', type = 'image/png') {
  const boundary = '----fleettest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('my account', () => {
  it('edits own name, e-mail, position, phone and time zone, and records it in the activity log', async () => {
    const s = await login(t.app, DEMO.dispatcher);
    const url = `/api/v1/organizations/${s.user.organization?.id}/users/${s.user.id}`;
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(s.accessToken),
      // A new e-mail of your own needs your current password (decision 0227; email-change.test.ts).
      payload: {
        firstName: 'Marcus',
        lastName: 'Reyes',
        email: 'Marcus.Reyes@DemoFreight.test',
        position: 'Night dispatcher',
        phone: '+1 (312) 555-0100',
        timeZone: 'America/Denver',
        currentPassword: DEMO.dispatcher.password,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Marcus', email: 'marcus.reyes@demofreight.test', position: 'Night dispatcher', timeZone: 'America/Denver' });
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) })).json();
    expect(me.firstName).toBe('Marcus');
    const log = await t.database.db.execute(
      `select action, entity_type, changes from activity_log where entity_id = '${s.user.id}' and action = 'UPDATE'` as never,
    );
    const rows = (log as unknown as { rows: Array<{ changes: { before: { firstName: string }; after: { firstName: string } } }> }).rows;
    expect(rows.at(-1)?.changes.before.firstName).toBe('Marco');
    expect(rows.at(-1)?.changes.after.firstName).toBe('Marcus');
    expect(JSON.stringify(rows)).not.toContain('passwordHash');
    // Restore the demo e-mail.
    await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(s.accessToken),
      payload: { firstName: 'Marco', lastName: 'Reyes', email: DEMO.dispatcher.email, currentPassword: DEMO.dispatcher.password },
    });
  });

  it('rejects a bad e-mail, an unknown time zone and an empty first name, naming each field, and changes nothing', async () => {
    const s = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${s.user.organization?.id}/users/${s.user.id}`,
      headers: bearer(s.accessToken),
      payload: { firstName: '', lastName: 'R', email: 'nope', timeZone: 'Mars/Olympus' },
    });
    expect(res.statusCode).toBe(400);
    expectFieldErrors(res.json(), 400, {
      firstName: 'First name is a required field',
      email: 'Email must be a valid email address',
      timeZone: 'Time zone is not valid.',
    });
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) })).json();
    expect(me.firstName).toBe('Marco');
  });

  it("answers 409 when the new e-mail is someone else's", async () => {
    const s = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${s.user.organization?.id}/users/${s.user.id}`,
      headers: bearer(s.accessToken),
      payload: { firstName: 'Marco', lastName: 'Reyes', email: DEMO.admin.email, currentPassword: DEMO.dispatcher.password },
    });
    expect(res.statusCode).toBe(409);
    expect(expectFieldErrors(res.json(), 409, { email: 'An account with this email already exists' }).code).toBe('users.email_taken');
  });

  it('uploads an avatar image that is then served, and removes it', async () => {
    const s = await login(t.app, DEMO.admin);
    const url = `/api/v1/organizations/${s.user.organization?.id}/users/${s.user.id}/image`;
    const up = await t.app.inject({ method: 'POST', url, ...merge(multipart(PNG), s.accessToken) });
    expect(up.statusCode).toBe(200);
    const pic = up.json().profilePicture as string;
    // A signed link (issue 43): the <img> that shows it sends no token.
    expect(pic).toMatch(/^\/api\/v1\/images\/[0-9a-f-]{36}\?exp=\d+&sig=[\w-]{43}$/);
    const img = await t.app.inject({ method: 'GET', url: pic });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(PNG)).toBe(true);
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(s.accessToken) })).json();
    expect(me.profilePicture).toBe(pic);
    const del = await t.app.inject({ method: 'DELETE', url, headers: bearer(s.accessToken) });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: pic })).statusCode).toBe(404);
  });

  it('refuses a file that is not an image (400) and one over the size limit (413)', async () => {
    const s = await login(t.app, DEMO.admin);
    const url = `/api/v1/organizations/${s.user.organization?.id}/users/${s.user.id}/image`;
    const text = await t.app.inject({ method: 'POST', url, ...merge(multipart(Buffer.from('hello, not an image'), 'x.png'), s.accessToken) });
    expect(text.statusCode).toBe(400);
    expectErrorBody(text.json(), 400);
    const big = Buffer.concat([PNG, Buffer.alloc(70 * 1024)]);
    const tooBig = await t.app.inject({ method: 'POST', url, ...merge(multipart(big), s.accessToken) });
    expect(tooBig.statusCode).toBe(413);
    expectErrorBody(tooBig.json(), 413);
  });

  it('changes own password only with the right current password, ending every session but the new one it answers', async () => {
    const s = await login(t.app, DEMO.admin);
    const other = await login(t.app, DEMO.admin);
    const url = `/api/v1/organizations/${s.user.organization?.id}/users/${s.user.id}/changePassword`;
    const wrong = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(s.accessToken),
      payload: { currentPassword: 'nope', newPassword: 'Another#Pass9' },
    });
    expect(wrong.statusCode).toBe(400);
    expectFieldErrors(wrong.json(), 400, { currentPassword: 'Current password is not correct' });
    const short = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(s.accessToken),
      payload: { currentPassword: DEMO.admin.password, newPassword: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expectFieldErrors(short.json(), 400, { newPassword: 'New password must be at least 8 characters' });
    const ok = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(s.accessToken),
      payload: { currentPassword: DEMO.admin.password, newPassword: 'Another#Pass9' },
    });
    expect(ok.statusCode).toBe(200);
    const renewed = ok.json() as { accessToken: string; refreshToken: string };
    const refresh = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: bearer(other.refreshToken) });
    expect(refresh.statusCode).toBe(401);
    // The access tokens issued before end at once, this tab's too; the tab goes on with the answered session.
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(token) }).then((r) => r.statusCode);
    expect(await me(other.accessToken)).toBe(401);
    expect(await me(s.accessToken)).toBe(401);
    expect(await me(renewed.accessToken)).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: bearer(renewed.refreshToken) })).statusCode).toBe(200);
    const back = await login(t.app, { email: DEMO.admin.email, password: 'Another#Pass9' });
    await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(back.accessToken),
      payload: { currentPassword: 'Another#Pass9', newPassword: DEMO.admin.password },
    });
  });

  it("refuses to change someone else's password even for an admin", async () => {
    const admin = await login(t.app, DEMO.admin);
    const disp = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${admin.user.organization?.id}/users/${disp.user.id}/changePassword`,
      headers: bearer(admin.accessToken),
      payload: { currentPassword: 'x', newPassword: 'Another#Pass9' },
    });
    expect(res.statusCode).toBe(403);
  });
});

function merge(m: { payload: Buffer; headers: Record<string, string> }, token: string) {
  return { payload: m.payload, headers: { ...m.headers, ...bearer(token) } };
}

describe("a driver's profile access", () => {
  it('the built-in Driver role reads its own profile only: another user of the organization is not found (404)', async () => {
    const driver = await login(t.app, { email: 'driver@demofreight.test', password: 'Driver#2026' });
    const admin = await login(t.app, DEMO.admin);
    const orgId = driver.user.organization!.id;
    const read = (userId: string, token: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/users/${userId}`, headers: bearer(token) });
    const own = await read(driver.user.id, driver.accessToken);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ id: driver.user.id, email: 'driver@demofreight.test' });
    const other = await read(admin.user.id, driver.accessToken);
    expectErrorBody(other.json(), 404);
    expect(other.body).not.toContain('admin@demofreight.test');
    // An office user holding USER_READ still opens anyone's.
    expect((await read(driver.user.id, admin.accessToken)).statusCode).toBe(200);
  });
});
