import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGANIZATION_PERMISSIONS, PERMISSION_AREAS } from '@fleet/api-contract';
import {
  bearer,
  createTestApp,
  DEMO,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  login,
  registerOrganization,
  type TestContext,
} from '../../test/helpers.ts';
import { memberWithRole } from '../../test/members.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const rolesUrl = (orgId: string | undefined) => `/api/v1/organizations/${orgId}/roles`;

describe('permission checklist', () => {
  it('lists every organization permission exactly once, grouped by area, with requirements that exist', async () => {
    const s = await login(t.app, DEMO.dispatcher);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/permissions', headers: bearer(s.accessToken) });
    expect(res.statusCode).toBe(200);
    const codes = (res.json().areas as Array<{ permissions: Array<{ code: string; requires: string[] }> }>).flatMap((a) => a.permissions);
    expect(codes.map((c) => c.code).sort()).toEqual([...ORGANIZATION_PERMISSIONS].sort());
    expect(codes.some((c) => c.code === 'SUPER_ADMIN')).toBe(false);
    for (const c of codes) for (const r of c.requires) expect(ORGANIZATION_PERMISSIONS).toContain(r);
    expect(PERMISSION_AREAS.find((a) => a.area === 'users')?.permissions.find((p) => p.code === 'USER_CREATE')?.requires).toContain('USER_LIST');
  });

  it('needs sign-in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/permissions' })).statusCode).toBe(401);
  });
});

describe('roles', () => {
  it('lists the built-in Administrator first with user counts, in the shared page object', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({ method: 'GET', url: `${rolesUrl(a.user.organization?.id)}?size=50`, headers: bearer(a.accessToken) });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 0, size: 50 });
    expect(page.content[0]).toMatchObject({ name: 'Administrator', builtIn: true, userCount: 1 });
    expect(page.content[0].permissions).toHaveLength(ORGANIZATION_PERMISSIONS.length);
    expect(page.content.find((r: { name: string }) => r.name === 'Dispatcher')).toMatchObject({ builtIn: false, userCount: 1 });
    const search = await t.app.inject({ method: 'GET', url: `${rolesUrl(a.user.organization?.id)}?search=dispat`, headers: bearer(a.accessToken) });
    expect(search.json().content.map((r: { name: string }) => r.name)).toEqual(['Dispatcher']);
  });

  it('creates a role, adding the list codes its create and update codes require, and logs it', async () => {
    const a = await login(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'POST',
      url: rolesUrl(a.user.organization?.id),
      headers: bearer(a.accessToken),
      payload: { name: 'Fleet clerk', description: 'Adds vehicles', permissions: ['ASSET_CREATE', 'DRIVER_UPDATE'] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().permissions.sort()).toEqual(['ASSET_CREATE', 'ASSET_LIST', 'DRIVER_LIST', 'DRIVER_UPDATE']);
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${a.user.organization?.id}/activity-logs?entityType=ROLE&entityId=${res.json().id}`,
      headers: bearer(a.accessToken),
    });
    expect(log.json().content[0]).toMatchObject({ action: 'CREATE', actor: { email: DEMO.admin.email } });
  });

  it('rejects an unknown code, SUPER_ADMIN and an empty name naming the field, and a duplicate name with 409', async () => {
    const a = await login(t.app, DEMO.admin);
    const url = rolesUrl(a.user.organization?.id);
    const bad = await t.app.inject({ method: 'POST', url, headers: bearer(a.accessToken), payload: { name: ' ', permissions: ['SUPER_ADMIN', 'NOPE'] } });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, {
      name: 'Name is a required field',
      'permissions.0': 'SUPER_ADMIN is not a permission an organization role can hold',
      'permissions.1': 'NOPE is not a permission an organization role can hold',
    });
    const dup = await t.app.inject({ method: 'POST', url, headers: bearer(a.accessToken), payload: { name: 'dispatcher', permissions: [] } });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, { name: 'A role named dispatcher already exists' });
  });

  it('refuses to let a role manager grant a code it does not hold, or edit a stronger role', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const { session: mgr } = await memberWithRole(t.app, t.dataDir, a, ['ROLE_UPDATE', 'USER_LIST'], 'rolemgr');
    const url = rolesUrl(orgId);
    const grant = await t.app.inject({ method: 'POST', url, headers: bearer(mgr.accessToken), payload: { name: 'Sneaky', permissions: ['ORG_UPDATE'] } });
    expect(grant.statusCode).toBe(403);
    expect(grant.json().technicalMessage).toContain('ORG_UPDATE');
    const ok = await t.app.inject({ method: 'POST', url, headers: bearer(mgr.accessToken), payload: { name: 'Lister', permissions: ['USER_LIST'] } });
    expect(ok.statusCode).toBe(201);
    const roles = (await t.app.inject({ method: 'GET', url: `${url}?size=100`, headers: bearer(a.accessToken) })).json().content as Array<{
      id: string;
      name: string;
    }>;
    const dispatcher = roles.find((r) => r.name === 'Dispatcher');
    const widen = await t.app.inject({
      method: 'PUT',
      url: `${url}/${dispatcher?.id}`,
      headers: bearer(mgr.accessToken),
      payload: { name: 'Dispatcher', permissions: [] },
    });
    expect(widen.statusCode).toBe(403);
    // Its own role cannot be widened either.
    const own = roles.find((r) => r.name === 'Role rolemgr');
    const self = await t.app.inject({
      method: 'PUT',
      url: `${url}/${own?.id}`,
      headers: bearer(mgr.accessToken),
      payload: { name: 'Role rolemgr', permissions: ['ROLE_UPDATE', 'USER_LIST', 'ORG_UPDATE'] },
    });
    expect(self.statusCode).toBe(403);
  });

  it('edits a role and its holders see the new permissions on their next request', async () => {
    const a = await login(t.app, DEMO.admin);
    const orgId = a.user.organization?.id;
    const { session: m, roleId } = await memberWithRole(t.app, t.dataDir, a, ['ORG_READ'], 'editme');
    const listUsers = () => t.app.inject({ method: 'GET', url: `/api/v1/organizations/${orgId}/users`, headers: bearer(m.accessToken) });
    expect((await listUsers()).statusCode).toBe(403);
    const put = await t.app.inject({
      method: 'PUT',
      url: `${rolesUrl(orgId)}/${roleId}`,
      headers: bearer(a.accessToken),
      payload: { name: 'Reader', permissions: ['ORG_READ', 'USER_LIST'] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Reader', userCount: 1 });
    const after = await eventually(listUsers, (r) => r.statusCode === 200);
    expect(after.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(m.accessToken) });
    expect(me.json().permissions).toContain('USER_LIST');
  });

  it('never edits or deletes the built-in Administrator role', async () => {
    const a = await login(t.app, DEMO.admin);
    const url = rolesUrl(a.user.organization?.id);
    const adminRole = (await t.app.inject({ method: 'GET', url, headers: bearer(a.accessToken) })).json().content[0];
    expect(
      (await t.app.inject({ method: 'PUT', url: `${url}/${adminRole.id}`, headers: bearer(a.accessToken), payload: { name: 'Boss', permissions: [] } }))
        .statusCode,
    ).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${adminRole.id}`, headers: bearer(a.accessToken) })).statusCode).toBe(409);
  });

  it('deletes a role only when nobody holds it', async () => {
    const a = await login(t.app, DEMO.admin);
    const url = rolesUrl(a.user.organization?.id);
    const roles = (await t.app.inject({ method: 'GET', url: `${url}?size=100`, headers: bearer(a.accessToken) })).json().content as Array<{
      id: string;
      name: string;
    }>;
    const dispatcher = roles.find((r) => r.name === 'Dispatcher');
    const used = await t.app.inject({ method: 'DELETE', url: `${url}/${dispatcher?.id}`, headers: bearer(a.accessToken) });
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toContain('held by 1 user');
    const created = await t.app.inject({ method: 'POST', url, headers: bearer(a.accessToken), payload: { name: 'Temp', permissions: [] } });
    const del = await t.app.inject({ method: 'DELETE', url: `${url}/${created.json().id}`, headers: bearer(a.accessToken) });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `${url}/${created.json().id}`, headers: bearer(a.accessToken) })).statusCode).toBe(404);
  });

  it("answers 404 for another organization's roles and 403 to a user without ROLE_LIST", async () => {
    const other = await registerOrganization(t.app, 'Rival Roles');
    const a = await login(t.app, DEMO.admin);
    const foreign = await t.app.inject({ method: 'GET', url: rolesUrl(other.user.organization?.id), headers: bearer(a.accessToken) });
    expect(foreign.statusCode).toBe(404);
    const otherRoles = (await t.app.inject({ method: 'GET', url: rolesUrl(other.user.organization?.id), headers: bearer(other.accessToken) })).json().content;
    const cross = await t.app.inject({
      method: 'PUT',
      url: `${rolesUrl(a.user.organization?.id)}/${otherRoles[0].id}`,
      headers: bearer(a.accessToken),
      payload: { name: 'x', permissions: [] },
    });
    expect(cross.statusCode).toBe(404);
    const d = await login(t.app, DEMO.dispatcher);
    const denied = await t.app.inject({ method: 'GET', url: rolesUrl(d.user.organization?.id), headers: bearer(d.accessToken) });
    expect(denied.statusCode).toBe(403);
    expectErrorBody(denied.json(), 403);
    expect((await t.app.inject({ method: 'GET', url: rolesUrl(d.user.organization?.id) })).statusCode).toBe(401);
  });
});
