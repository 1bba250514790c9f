import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, readOutbox, registerOrganization, type TestContext } from '../../test/helpers.ts';

// Issue 66: ten wrong passwords from one address locked the account there for 15 minutes, with a
// 429 that said nothing of when, and nothing lifted it.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, remoteAddress });

async function lockOut(email: string, ip: string): Promise<void> {
  for (let i = 0; i < 10; i++) expect((await post('/auth/authenticate', { email, password: `wrong-${i}-pw` }, ip)).statusCode).toBe(401);
}

describe('the sign-in lockout', () => {
  it('says when to retry, in Retry-After and in words', async () => {
    const owner = await registerOrganization(t.app, `Lockout Carrier ${Date.now()}`);
    const ip = '10.66.0.1';
    await lockOut(owner.user.email, ip);
    const blocked = await post('/auth/authenticate', { email: owner.user.email, password: owner.password }, ip);
    expect(blocked.statusCode).toBe(429);
    const seconds = Number(blocked.headers['retry-after']);
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expect(expectErrorBody(blocked.json(), 429).message).toBe('Too many failed sign-in attempts. Try again in 15 minutes or reset your password.');
  });

  it('is lifted by a completed password reset, from every address; an unused reset link lifts nothing', async () => {
    const owner = await registerOrganization(t.app, `Reset Carrier ${Date.now()}`);
    const email = owner.user.email;
    await lockOut(email, '10.66.1.1');
    await lockOut(email.toUpperCase(), '10.66.1.2');
    // Another account locked from the same address stays locked.
    const other = await registerOrganization(t.app, `Other Lockout ${Date.now()}`);
    await lockOut(other.user.email, '10.66.1.1');

    expect((await post('/auth/reset-password', { email }, '10.66.1.3')).statusCode).toBe(202);
    expect((await post('/auth/authenticate', { email, password: owner.password }, '10.66.1.1')).statusCode).toBe(429);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.to === email)
      .at(-1)
      ?.text.match(/create-new-password\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    expect((await post('/auth/create-new-password', { token, password: 'Fresh#Start66' }, '10.66.1.3')).statusCode).toBe(204);

    expect((await post('/auth/authenticate', { email, password: 'Fresh#Start66' }, '10.66.1.1')).statusCode).toBe(200);
    expect((await post('/auth/authenticate', { email, password: 'Fresh#Start66' }, '10.66.1.2')).statusCode).toBe(200);
    expect((await post('/auth/authenticate', { email: other.user.email, password: other.password }, '10.66.1.1')).statusCode).toBe(429);
  });
});
