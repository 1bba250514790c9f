import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { activityRows, driverBody, registryActors, userWithPermissions, vehicleBody } from '../../test/registry.ts';
import { assetIdsInGroup } from './groups.filter.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const url = (orgId: string, rest = '') => `/api/v1/organizations/${orgId}/groups${rest}`;

describe('groups', () => {
  it('lists the demo regions with member and asset counts', async () => {
    const page = (await t.app.inject({ method: 'GET', url: url(a.orgId), headers: a.dispatcher })).json();
    expect(page.content.map((g: { name: string; assetCount: number; memberCount: number }) => [g.name, g.assetCount, g.memberCount])).toEqual([
      ['East region', 18, 13],
      ['West region', 19, 13],
    ]);
    const east = page.content[0];
    const detail = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${east.id}`), headers: a.dispatcher })).json();
    expect(detail.members.filter((m: { type: string }) => m.type === 'USER')).toEqual([expect.objectContaining({ name: 'Marco Reyes' })]);
    const members = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${east.id}/members`), headers: a.dispatcher })).json();
    expect(members).toHaveLength(13);
    const assets = (await t.app.inject({ method: 'GET', url: url(a.orgId, `/${east.id}/assets`), headers: a.dispatcher })).json();
    expect(assets[0]).toMatchObject({ type: 'TRAILER' });
  });

  it('creates, renames and deletes a group, logging each, and answers 409 for a taken name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: url(a.orgId),
      headers: a.admin,
      payload: { name: 'Reefer fleet', description: 'Temperature-controlled loads' },
    });
    expect(res.statusCode).toBe(201);
    const g = res.json();
    expect(g).toMatchObject({ name: 'Reefer fleet', memberCount: 0, assetCount: 0, members: [], assets: [] });
    const dup = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: { name: 'east REGION' } });
    expect(dup.statusCode).toBe(409);
    expectFieldErrors(dup.json(), 409, { name: 'A group named east REGION already exists' });
    const renamed = await t.app.inject({ method: 'PUT', url: url(a.orgId, `/${g.id}`), headers: a.admin, payload: { name: 'Reefers' } });
    expect(renamed.json().name).toBe('Reefers');
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${g.id}`), headers: a.admin })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, `/${g.id}`), headers: a.admin })).statusCode).toBe(404);
    expect((await activityRows(t.database.db as never, g.id)).map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it('adds and removes users, drivers and assets, refusing ones of another organization', async () => {
    const g = (await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: { name: `Night shift ${Date.now()}` } })).json();
    const d = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/drivers`, headers: a.admin, payload: driverBody() })).json();
    const v = (await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.orgId}/assets`, headers: a.admin, payload: vehicleBody() })).json();
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: a.admin })).json();
    const added = await t.app.inject({
      method: 'POST',
      url: url(a.orgId, `/${g.id}/members`),
      headers: a.admin,
      payload: {
        members: [
          { type: 'DRIVER', id: d.id },
          { type: 'USER', id: me.id },
        ],
      },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().memberCount).toBe(2);
    // Adding again is harmless.
    expect(
      (
        await t.app.inject({ method: 'POST', url: url(a.orgId, `/${g.id}/members`), headers: a.admin, payload: { members: [{ type: 'DRIVER', id: d.id }] } })
      ).json().memberCount,
    ).toBe(2);
    const withAsset = await t.app.inject({ method: 'POST', url: url(a.orgId, `/${g.id}/assets`), headers: a.admin, payload: { assetIds: [v.id] } });
    expect(withAsset.json().assets).toEqual([expect.objectContaining({ id: v.id })]);
    expect(await assetIdsInGroup(t.database.db, a.orgId, g.id)).toEqual([v.id]);
    expect(await assetIdsInGroup(t.database.db, a.otherOrgId, g.id)).toEqual([]);
    const listed = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/assets?group=${g.id}`, headers: a.admin })).json();
    expect(listed.content.map((x: { id: string }) => x.id)).toEqual([v.id]);
    const drivers = (await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/drivers?group=${g.id}`, headers: a.admin })).json();
    expect(drivers.content.map((x: { id: string; groups: Array<{ id: string }> }) => [x.id, x.groups.some((gr) => gr.id === g.id)])).toEqual([[d.id, true]]);

    const foreignDriver = (
      await t.app.inject({ method: 'POST', url: `/api/v1/organizations/${a.otherOrgId}/drivers`, headers: a.other, payload: driverBody() })
    ).json();
    const bad = await t.app.inject({
      method: 'POST',
      url: url(a.orgId, `/${g.id}/members`),
      headers: a.admin,
      payload: { members: [{ type: 'DRIVER', id: foreignDriver.id }] },
    });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, { members: `Members not in this organization: driver ${foreignDriver.id}` });
    const badType = await t.app.inject({
      method: 'POST',
      url: url(a.orgId, `/${g.id}/members`),
      headers: a.admin,
      payload: { members: [{ type: 'ROBOT', id: d.id }] },
    });
    expect(badType.statusCode).toBe(400);
    expectFieldErrors(badType.json(), 400, { 'members.0.type': 'Member type must be USER or DRIVER' });

    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${g.id}/members/${d.id}`), headers: a.admin })).json().memberCount).toBe(1);
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${g.id}/assets/${v.id}`), headers: a.admin })).json().assetCount).toBe(0);
    expect((await t.app.inject({ method: 'DELETE', url: url(a.orgId, `/${g.id}/assets/${v.id}`), headers: a.admin })).statusCode).toBe(404);
  });

  it('answers 401, 403 without GROUP_UPDATE or GROUP_READ, 404 across organizations, 400 for an empty name', async () => {
    const g = (await t.app.inject({ method: 'GET', url: url(a.orgId), headers: a.admin })).json().content[0];
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.dispatcher, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: url(a.orgId, `/${g.id}`), headers: a.dispatcher, payload: { name: 'x' } })).statusCode).toBe(403);
    const listOnly = await userWithPermissions(t, a.orgId, ['GROUP_LIST']);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, `/${g.id}`), headers: listOnly })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url(a.otherOrgId, `/${g.id}`), headers: a.other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(a.orgId, `/${g.id}`), headers: a.other })).statusCode).toBe(404);
    const empty = await t.app.inject({ method: 'POST', url: url(a.orgId), headers: a.admin, payload: { name: '  ' } });
    expect(empty.statusCode).toBe(400);
    expectFieldErrors(empty.json(), 400, { name: 'Name is a required field' });
  });
});
