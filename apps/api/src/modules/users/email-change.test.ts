import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignInResponse } from '@fleet/api-contract';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, expectErrorBody, expectFieldErrors, readOutbox, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { linkToken, memberWithRole } from '../../test/members.ts';

// Issue 66, decision 0227: your own e-mail is where password resets go, so changing it asks for your
// current password, and the old address is told with a link that undoes the change for 7 days.
// Undoing it is the owner taking the account back: every session ends, the password no longer signs
// in (a reset link goes to the restored address), pending reset links are spent, and API tokens the
// account made since the change are revoked.

const PASSWORD = 'Member#Pass2026';
let t: TestContext;
let owner: Awaited<ReturnType<typeof registerOrganization>>;
let orgId: string;
let n = 0;
const url = (path: string) => `/api/v1/organizations/${orgId}${path}`;
const ip = () => `10.66.${Math.floor(++n / 200)}.${n % 200}`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerOrganization(t.app, 'Undo Carrier');
  orgId = owner.user.organization!.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface Person {
  id: string;
  email: string;
  session: SignInResponse;
}

async function person(permissions = ['API_TOKEN_MANAGE', 'LOAD_LIST']): Promise<Person> {
  const m = await memberWithRole(t.app, t.dataDir, owner, permissions, `undo${Date.now().toString(36)}${++n}`);
  return { id: m.session.user.id, email: m.email, session: m.session };
}

const edit = (who: Person, email: string, extra: Record<string, unknown> = {}, token = who.session.accessToken) =>
  t.app.inject({ method: 'PUT', url: url(`/users/${who.id}`), headers: bearer(token), payload: { firstName: 'Mem', lastName: 'Ber', email, ...extra } });

const mailTo = (address: string) => readOutbox(t.dataDir).filter((m) => m.to === address.toLowerCase());
const undoLink = (address: string) =>
  mailTo(address)
    .at(-1)
    ?.text.match(/undo-email-change\/([A-Za-z0-9_-]+)/)?.[1];
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/authenticate', payload: { email, password }, remoteAddress: ip() });
const undo = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/undo-email-change', payload: { token }, remoteAddress: ip() });
const emailOf = async (id: string) => rowsOf<{ email: string }>(await t.database.db.execute(sql`select email from users where id = ${id}`))[0]?.email;

describe('changing your own e-mail', () => {
  it('asks for your current password (400 on currentPassword when missing or wrong) and changes nothing without it', async () => {
    const p = await person();
    const next = `next-${randomUUID().slice(0, 8)}@member.test`;
    expectFieldErrors((await edit(p, next)).json(), 400, { currentPassword: 'Enter your current password to change your e-mail' });
    expectFieldErrors((await edit(p, next, { currentPassword: 'not-it-at-all' })).json(), 400, { currentPassword: 'Current password is not correct' });
    expect(await emailOf(p.id)).toBe(p.email);
    expect(mailTo(p.email).filter((m) => m.subject.includes('e-mail was changed'))).toEqual([]);
    // The rest of the profile, and the e-mail in another case, need no password.
    expect((await edit(p, p.email.toUpperCase(), { position: 'Planner' })).statusCode).toBe(200);
    expect((await edit(p, p.email)).statusCode).toBe(200);
  });

  it('tells the old address, with a link valid 7 days; the new address signs in', async () => {
    const p = await person();
    const next = `moved-${randomUUID().slice(0, 8)}@member.test`;
    const res = await edit(p, next, { currentPassword: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email).toBe(next);
    const notice = mailTo(p.email).at(-1)!;
    expect(notice.subject).toBe('Your Fleetline e-mail was changed');
    expect(notice.text).toContain(`from ${p.email} to ${next}`);
    expect(notice.text).toContain('within 7 days');
    const [row] = rowsOf<{ ttl: number }>(
      await t.database.db.execute(sql`select extract(epoch from expires_at - created_at)::int as ttl from email_changes where user_id = ${p.id}`),
    );
    expect(row!.ttl).toBeGreaterThanOrEqual(7 * 86400 - 5);
    expect(row!.ttl).toBeLessThanOrEqual(7 * 86400 + 5);
    expect((await signIn(next, PASSWORD)).statusCode).toBe(200);
  });

  it("an administrator's edit of another user's e-mail needs no password of theirs and sends no undo link", async () => {
    const p = await person();
    const next = `admin-set-${randomUUID().slice(0, 8)}@member.test`;
    const res = await edit(p, next, {}, owner.accessToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(mailTo(p.email).some((m) => m.subject.includes('e-mail was changed'))).toBe(false);
  });
});

describe('undoing a change of e-mail', () => {
  it('takes the account back from an intruder: old e-mail back, sessions ended, password void, their reset link and token dead, a new reset link sent', async () => {
    const p = await person();
    const evil = `intruder-${randomUUID().slice(0, 8)}@evil.test`;
    // The intruder knows the password: changes the e-mail, asks a reset at their address, mints a token.
    expect((await edit(p, evil, { currentPassword: PASSWORD })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { email: evil }, remoteAddress: ip() })).statusCode).toBe(202);
    const intruderReset = linkToken(t.dataDir, evil);
    const minted = await t.app.inject({
      method: 'POST',
      url: url('/api-tokens'),
      headers: bearer(p.session.accessToken),
      payload: { name: 'Intruder', permissions: ['LOAD_LIST'] },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    const token = minted.json().token as string;
    expect((await t.app.inject({ method: 'GET', url: url('/loads'), headers: bearer(token) })).statusCode).toBe(200);

    const link = undoLink(p.email)!;
    const res = await undo(link);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ email: p.email });
    expect(await emailOf(p.id)).toBe(p.email);

    // Every session over, the intruder's reset link and token dead, the old password void.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(p.session.accessToken) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: bearer(p.session.refreshToken) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: url('/loads'), headers: bearer(token) })).statusCode).toBe(401);
    const spent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/create-new-password',
      payload: { token: intruderReset, password: 'Intruder#2026x' },
      remoteAddress: ip(),
    });
    expect(spent.statusCode).toBe(400);
    expect((await signIn(p.email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(evil, PASSWORD)).statusCode).toBe(401);

    // The owner chooses a new password with the link sent to the restored address.
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/create-new-password',
      payload: { token: linkToken(t.dataDir, p.email), password: 'Owner#Back2026' },
      remoteAddress: ip(),
    });
    expect(chosen.statusCode, chosen.body).toBe(204);
    expect((await signIn(p.email, 'Owner#Back2026')).statusCode).toBe(200);

    // Single use; the activity log says what happened.
    expectErrorBody((await undo(link)).json(), 400);
    const log = await t.app.inject({ method: 'GET', url: url(`/activity-logs/users/${p.id}`), headers: bearer(owner.accessToken) });
    expect(log.body).toContain('UNDO_EMAIL_CHANGE');
  });

  it('refuses an unknown or expired link (400) and changes nothing', async () => {
    const p = await person();
    expect((await edit(p, `late-${randomUUID().slice(0, 8)}@member.test`, { currentPassword: PASSWORD })).statusCode).toBe(200);
    const link = undoLink(p.email)!;
    await t.database.db.execute(sql`update email_changes set expires_at = now() - interval '1 second' where user_id = ${p.id}`);
    const before = await emailOf(p.id);
    expect(expectErrorBody((await undo(link)).json(), 400).message).toBe('This link is invalid or has expired.');
    expect(expectErrorBody((await undo('x'.repeat(43))).json(), 400).message).toBe('This link is invalid or has expired.');
    expect(await emailOf(p.id)).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(p.session.accessToken) })).statusCode).toBe(200);
  });
});
