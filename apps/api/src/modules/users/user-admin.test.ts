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
import { acceptInvitation, linkToken, memberWithRole } from '../../test/members.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const usersUrl = (orgId: string | undefined) => `/api/v1/organizations/${orgId}/users`;

async function roleId(token: string, orgId: string | undefined, name: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/roles?size=100`, headers: bearer(token) });
  const role = (res.json().content as Array<{ id: string; name: string }>).find((r) => r.name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role.id;
}

describe('users list', () => {
  it('pages, searches by name or e-mail, and filters by role and status', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const all = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?size=1`, headers: bearer(a.accessToken) });
    expect(all.statusCode).toBe(200);
    // The admin, the dispatcher and the three demo drivers' sign-ins.
    expect(all.json()).toMatchObject({ page: 0, size: 1, totalElements: 5, totalPages: 5 });
    expect(all.json().content).toHaveLength(1);
    expect(all.json().content[0]).not.toHaveProperty('passwordHash');
    const byName = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?search=marco%20rey`, headers: bearer(a.accessToken) });
    expect(byName.json().content.map((u: { email: string }) => u.email)).toEqual([DEMO.dispatcher.email]);
    const dispatcherRole = await roleId(a.accessToken, orgId, 'Dispatcher');
    const byRole = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?roleId=${dispatcherRole}`, headers: bearer(a.accessToken) });
    expect(byRole.json().content.map((u: { roleName: string }) => u.roleName)).toEqual(['Dispatcher']);
    const invited = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?status=INVITED`, headers: bearer(a.accessToken) });
    expect(invited.json().totalElements).toBe(0);
    const sorted = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?sort=email,desc`, headers: bearer(a.accessToken) });
    expect(sorted.json().content[0].email).toBe('driver@demofreight.test');
    const badSort = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?sort=passwordHash,asc`, headers: bearer(a.accessToken) });
    expect(badSort.statusCode).toBe(400);
    expectFieldErrors(badSort.json(), 400, { sort: 'sort must be one of' });
    const badStatus = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?status=GONE`, headers: bearer(a.accessToken) });
    expect(badStatus.statusCode).toBe(400);
    expectFieldErrors(badStatus.json(), 400, { 'querystring.status': 'Status must be one of ACTIVE, INACTIVE or INVITED' });
  });

  it('is refused to a USER without USER_LIST (403), to strangers (401) and across organizations (404)', async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({ method: 'GET', url: usersUrl(d.user.organization?.id), headers: bearer(d.accessToken) });
    expect(res.statusCode).toBe(403);
    expectErrorBody(res.json(), 403);
    expect((await t.app.inject({ method: 'GET', url: usersUrl(d.user.organization?.id) })).statusCode).toBe(401);
    const other = await registerOrganization(t.app, 'Rival Users');
    const a = await login(t.app, DEMO.admin);
    expect((await t.app.inject({ method: 'GET', url: usersUrl(other.user.organization?.id), headers: bearer(a.accessToken) })).statusCode).toBe(404);
  });
});

describe('inviting a user', () => {
  it('creates an INVITED user who cannot sign in until the e-mailed create-new-password link is used', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const dispatcherRole = await roleId(a.accessToken, orgId, 'Dispatcher');
    const res = await t.app.inject({
      method: 'POST',
      url: usersUrl(orgId),
      headers: bearer(a.accessToken),
      payload: { email: 'New.Hire@DemoFreight.test', firstName: 'Nia', lastName: 'Hire', roleId: dispatcherRole, position: 'Dispatcher' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: 'new.hire@demofreight.test', status: 'INVITED', role: 'USER', roleName: 'Dispatcher' });
    const mail = readOutbox(t.dataDir).find((m) => m.to === 'new.hire@demofreight.test');
    expect(mail?.subject).toContain('Demo Freight');
    expect(mail?.text).toContain('http://fleet.test/create-new-password/');
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/authenticate',
      payload: { email: 'new.hire@demofreight.test', password: 'whatever1' },
    });
    expect(early.statusCode).toBe(401);
    const s = await acceptInvitation(t.app, t.dataDir, 'new.hire@demofreight.test');
    expect(s.user.permissions).toContain('HOS_LIST');
    const list = await t.app.inject({ method: 'GET', url: `${usersUrl(orgId)}?search=new.hire`, headers: bearer(a.accessToken) });
    expect(list.json().content[0].status).toBe('ACTIVE');
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${orgId}/activity-logs?entityId=${res.json().id}`,
      headers: bearer(a.accessToken),
    });
    expect(log.json().content.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['INVITE', 'ACCEPT_INVITATION']));
  });

  it('names each bad field, refuses a taken e-mail with 409 and a role of another organization with 400', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const bad = await t.app.inject({
      method: 'POST',
      url: usersUrl(orgId),
      headers: bearer(a.accessToken),
      payload: { email: 'nope', firstName: '', lastName: 'X' },
    });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, {
      email: 'Email must be a valid email address',
      firstName: 'First name is a required field',
      roleId: 'Role is a required field',
    });
    const dispatcherRole = await roleId(a.accessToken, orgId, 'Dispatcher');
    const dup = await t.app.inject({
      method: 'POST',
      url: usersUrl(orgId),
      headers: bearer(a.accessToken),
      payload: { email: DEMO.dispatcher.email, firstName: 'A', lastName: 'B', roleId: dispatcherRole },
    });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, { email: 'An account with this email already exists' });
    const other = await registerOrganization(t.app, 'Rival Invite');
    const foreignRole = await roleId(other.accessToken, other.user.organization?.id, 'Administrator');
    const cross = await t.app.inject({
      method: 'POST',
      url: usersUrl(orgId),
      headers: bearer(a.accessToken),
      payload: { email: 'x@y.test', firstName: 'A', lastName: 'B', roleId: foreignRole },
    });
    expect(cross.statusCode).toBe(400);
    expectFieldErrors(cross.json(), 400, { roleId: 'Role is not valid.' });
  });

  it('refuses a user manager inviting someone into a role stronger than its own', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const { session: mgr } = await memberWithRole(t.app, t.dataDir, a, ['USER_CREATE', 'USER_UPDATE'], 'usermgr');
    const adminRole = await roleId(a.accessToken, orgId, 'Administrator');
    const res = await t.app.inject({
      method: 'POST',
      url: usersUrl(orgId),
      headers: bearer(mgr.accessToken),
      payload: { email: 'coup@demofreight.test', firstName: 'C', lastName: 'D', roleId: adminRole },
    });
    expect(res.statusCode).toBe(403);
    expect(readOutbox(t.dataDir).some((m) => m.to === 'coup@demofreight.test')).toBe(false);
    // Nor promote itself or anyone else to Administrator, nor demote the admin.
    const promote = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${mgr.user.id}`,
      headers: bearer(mgr.accessToken),
      payload: { firstName: 'Mem', lastName: 'usermgr', email: mgr.user.email, roleId: adminRole },
    });
    expect(promote.statusCode).toBe(403);
    const demote = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${a.user.id}`,
      headers: bearer(mgr.accessToken),
      payload: { firstName: 'Dana', lastName: 'Whitfield', email: DEMO.admin.email, roleId: await roleId(a.accessToken, orgId, 'Dispatcher') },
    });
    expect(demote.statusCode).toBe(403);
    const lockOut = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${a.user.id}/deactivate`, headers: bearer(mgr.accessToken) });
    expect(lockOut.statusCode).toBe(403);
    // Nor take over the admin's account by changing its e-mail, nor send it a reset.
    const takeover = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${a.user.id}`,
      headers: bearer(mgr.accessToken),
      payload: { firstName: 'Dana', lastName: 'Whitfield', email: 'mine@evil.test' },
    });
    expect(takeover.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${a.user.id}/password-reset`, headers: bearer(mgr.accessToken) })).statusCode).toBe(
      403,
    );
    // A user holding no more than the manager is fine to edit.
    const { session: peer } = await memberWithRole(t.app, t.dataDir, a, ['USER_LIST'], 'mgrpeer');
    const edit = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${peer.user.id}`,
      headers: bearer(mgr.accessToken),
      payload: { firstName: 'Peer', lastName: 'Edited', email: peer.user.email },
    });
    expect(edit.statusCode).toBe(200);
  });

  it('refuses a plain USER calling the admin endpoints (403, nothing changes)', async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const a = await login(t.app, DEMO.admin);
    const orgId = d.user.organization?.id;
    const calls = [
      { method: 'POST' as const, url: usersUrl(orgId), payload: { email: 'z@z.test', firstName: 'Z', lastName: 'Z', roleId: d.user.roleId } },
      { method: 'POST' as const, url: `${usersUrl(orgId)}/${a.user.id}/deactivate` },
      { method: 'POST' as const, url: `${usersUrl(orgId)}/${a.user.id}/password-reset` },
      { method: 'POST' as const, url: `/api/v1/organizations/${orgId}/roles`, payload: { name: 'Mine', permissions: [] } },
      { method: 'PUT' as const, url: `/api/v1/organizations/${orgId}`, payload: { name: 'Hijacked', timeZone: 'America/Chicago' } },
      { method: 'PUT' as const, url: `/api/v1/organizations/${orgId}/data-retention`, payload: { policies: [{ kind: 'POSITIONS', retentionDays: 30 }] } },
      { method: 'GET' as const, url: '/api/v1/organizations' },
      { method: 'POST' as const, url: `/api/v1/organizations/${orgId}/deactivate` },
    ];
    for (const c of calls) {
      const res = await t.app.inject({ ...c, headers: bearer(d.accessToken) });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(403);
    }
    const org = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}`, headers: bearer(a.accessToken) });
    expect(org.json().name).toBe('Demo Freight');
  });
});

describe('editing, deactivating and resetting users', () => {
  it('changes a user role (admin), logging before and after', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const { session: m } = await memberWithRole(t.app, t.dataDir, a, ['ORG_READ'], 'rerole');
    const dispatcherRole = await roleId(a.accessToken, orgId, 'Dispatcher');
    const res = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${m.user.id}`,
      headers: bearer(a.accessToken),
      payload: { firstName: 'Mem', lastName: 'rerole', email: m.user.email, roleId: dispatcherRole },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ roleId: dispatcherRole, roleName: 'Dispatcher', role: 'USER' });
    const me = await eventually(
      () => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(m.accessToken) }),
      (r) => r.json().permissions.includes('HOS_LIST'),
    );
    expect(me.json().permissions).toContain('HOS_LIST');
  });

  it('refuses a user changing their own role without USER_UPDATE', async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const a = await login(t.app, DEMO.admin);
    const adminRole = await roleId(a.accessToken, a.user.organization?.id, 'Administrator');
    const res = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(d.user.organization?.id)}/${d.user.id}`,
      headers: bearer(d.accessToken),
      payload: { firstName: 'Marco', lastName: 'Reyes', email: DEMO.dispatcher.email, roleId: adminRole },
    });
    expect(res.statusCode).toBe(403);
  });

  it('keeps the last active administrator: no demotion, no deactivation; a second admin unlocks both', async () => {
    const owner = await registerOrganization(t.app, 'Solo Carrier');
    const orgId = owner.user.organization?.id;
    const adminRole = await roleId(owner.accessToken, orgId, 'Administrator');
    const { session: m, roleId: plainRole } = await memberWithRole(t.app, t.dataDir, owner, ['ORG_READ'], 'soloplain');
    const demote = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${owner.user.id}`,
      headers: bearer(owner.accessToken),
      payload: { firstName: 'Olive', lastName: 'Owner', email: owner.user.email, roleId: plainRole },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toContain('at least one active administrator');
    const superAdmin = await login(t.app, DEMO.superAdmin);
    const deact = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${owner.user.id}/deactivate`, headers: bearer(superAdmin.accessToken) });
    expect(deact.statusCode).toBe(409);
    // Promote the member; now the owner may step down.
    const promote = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${m.user.id}`,
      headers: bearer(owner.accessToken),
      payload: { firstName: 'Mem', lastName: 'soloplain', email: m.user.email, roleId: adminRole },
    });
    expect(promote.statusCode).toBe(200);
    expect(promote.json().role).toBe('ADMIN');
    const stepDown = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${owner.user.id}`,
      headers: bearer(owner.accessToken),
      payload: { firstName: 'Olive', lastName: 'Owner', email: owner.user.email, roleId: plainRole },
    });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().role).toBe('USER');
  });

  it('lets only one of two admins deactivating each other at the same moment succeed', async () => {
    const owner = await registerOrganization(t.app, 'Duel Carrier');
    const orgId = owner.user.organization?.id;
    const adminRole = await roleId(owner.accessToken, orgId, 'Administrator');
    const { session: second } = await memberWithRole(t.app, t.dataDir, owner, ['ORG_READ'], 'duelist');
    await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${second.user.id}`,
      headers: bearer(owner.accessToken),
      payload: { firstName: 'Mem', lastName: 'duelist', email: second.user.email, roleId: adminRole },
    });
    const [x, y] = await Promise.all([
      t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${second.user.id}/deactivate`, headers: bearer(owner.accessToken) }),
      t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${owner.user.id}/deactivate`, headers: bearer(second.accessToken) }),
    ]);
    // Exactly one succeeds. The other is refused as the last administrator (409) or, when the first
    // committed before its request was authenticated, because its own session ended at once (401).
    const codes = [x.statusCode, y.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect([401, 409]).toContain(codes[1]);
    const list = await t.app.inject({
      method: 'GET',
      url: `${usersUrl(orgId)}?status=ACTIVE`,
      headers: bearer((await login(t.app, DEMO.superAdmin)).accessToken),
    });
    expect(list.json().content.filter((u: { role: string }) => u.role === 'ADMIN')).toHaveLength(1);
  });

  it("ends a deactivated user's sessions at once: access token and refresh token refused, sign-in refused; reactivation restores", async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const { session: m, email } = await memberWithRole(t.app, t.dataDir, a, ['ORG_READ'], 'leaver');
    const orgUrl = `/api/v1/organizations/${orgId}`;
    expect((await t.app.inject({ method: 'GET', url: orgUrl, headers: bearer(m.accessToken) })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${m.user.id}/deactivate`, headers: bearer(a.accessToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('INACTIVE');
    const refused = await eventually(
      () => t.app.inject({ method: 'GET', url: orgUrl, headers: bearer(m.accessToken) }),
      (r) => r.statusCode === 401,
    );
    expect(refused.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: bearer(m.refreshToken) })).statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/authenticate',
      payload: { email, password: 'Member#Pass2026' },
      remoteAddress: '10.55.0.1',
    });
    expect(signIn.statusCode).toBe(401);
    const reset = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${m.user.id}/password-reset`, headers: bearer(a.accessToken) });
    expect(reset.statusCode).toBe(409);
    const back = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${m.user.id}/activate`, headers: bearer(a.accessToken) });
    expect(back.json().status).toBe('ACTIVE');
    expect((await login(t.app, { email, password: 'Member#Pass2026' }, '10.55.0.2')).user.id).toBe(m.user.id);
  });

  it('refuses deactivating yourself', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({ method: 'POST', url: `${usersUrl(a.user.organization?.id)}/${a.user.id}/deactivate`, headers: bearer(a.accessToken) });
    expect(res.statusCode).toBe(409);
  });

  it('e-mails a reset link that sets a new password, and re-sends the invitation to an INVITED user', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const { session: m, email } = await memberWithRole(t.app, t.dataDir, a, ['ORG_READ'], 'forgetful');
    const res = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${m.user.id}/password-reset`, headers: bearer(a.accessToken) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ sent: 'RESET' });
    expect(
      readOutbox(t.dataDir)
        .filter((x) => x.to === email)
        .at(-1)?.subject,
    ).toContain('Reset');
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/create-new-password',
      payload: { token: linkToken(t.dataDir, email), password: 'Brand#New2026' },
      remoteAddress: '10.56.0.1',
    });
    expect(set.statusCode).toBe(204);
    expect((await login(t.app, { email, password: 'Brand#New2026' }, '10.56.0.2')).user.id).toBe(m.user.id);

    const dispatcherRole = await roleId(a.accessToken, orgId, 'Dispatcher');
    const inv = await t.app.inject({
      method: 'POST',
      url: usersUrl(orgId),
      headers: bearer(a.accessToken),
      payload: { email: 'slow@demofreight.test', firstName: 'S', lastName: 'Low', roleId: dispatcherRole },
    });
    const again = await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${inv.json().id}/password-reset`, headers: bearer(a.accessToken) });
    expect(again.json()).toEqual({ sent: 'INVITATION' });
    expect(readOutbox(t.dataDir).filter((x) => x.to === 'slow@demofreight.test')).toHaveLength(2);
  });

  it('answers 404 when editing or deactivating a user of another organization', async () => {
    const other = await registerOrganization(t.app, 'Rival Edit');
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const edit = await t.app.inject({
      method: 'PUT',
      url: `${usersUrl(orgId)}/${other.user.id}`,
      headers: bearer(a.accessToken),
      payload: { firstName: 'X', lastName: 'Y', email: 'x@y.test' },
    });
    expect(edit.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${usersUrl(orgId)}/${other.user.id}/deactivate`, headers: bearer(a.accessToken) })).statusCode).toBe(
      404,
    );
    expect(
      (await t.app.inject({ method: 'POST', url: `${usersUrl(other.user.organization?.id)}/${other.user.id}/deactivate`, headers: bearer(a.accessToken) }))
        .statusCode,
    ).toBe(404);
    const still = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(other.accessToken) });
    expect(still.json().firstName).toBe('Olive');
  });
});
