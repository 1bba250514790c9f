import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEMO, expectFieldErrors, login, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { diff } from './activity-log.presenter.ts';
import { COUNT_CAP } from './activity-log.query.ts';

let t: TestContext;
let admin: Awaited<ReturnType<typeof login>>;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin);
  base = `/api/v1/organizations/${admin.user.organization?.id}/activity-logs`;
  // A few mutations to read back: two role edits by the admin, one profile edit by the dispatcher.
  const roles = `/api/v1/organizations/${admin.user.organization?.id}/roles`;
  const r = await t.app.inject({ method: 'POST', url: roles, headers: bearer(admin.accessToken), payload: { name: 'Auditor', permissions: ['ACTIVITY_LOG_LIST'] } });
  await t.app.inject({ method: 'PUT', url: `${roles}/${r.json().id}`, headers: bearer(admin.accessToken), payload: { name: 'Auditor', description: 'Reads the log', permissions: ['ACTIVITY_LOG_LIST', 'USER_LIST'] } });
  const d = await login(t.app, DEMO.dispatcher);
  await t.app.inject({
    method: 'PUT',
    url: `/api/v1/organizations/${d.user.organization?.id}/users/${d.user.id}`,
    headers: bearer(d.accessToken),
    payload: { firstName: 'Marco', lastName: 'Reyes', email: DEMO.dispatcher.email, position: 'Senior dispatcher', timeZone: 'America/Chicago' },
  });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = admin.accessToken) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

describe('activity log', () => {
  it('lists the newest first in the shared page object, with actor names', async () => {
    const res = await get(`${base}?size=3`);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 0, size: 3 });
    expect(page.totalElements).toBeGreaterThan(5);
    expect(page.content).toHaveLength(3);
    const times = page.content.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(page.content[0]).toMatchObject({ action: 'UPDATE', entityType: 'USER', actor: { email: DEMO.dispatcher.email, name: 'Marco Reyes' }, changedFields: ['position'] });
    const next = await get(`${base}?size=3&page=1`);
    expect(next.json().content[0].id).toBeLessThan(page.content[2].id);
  });

  it('filters by user, action, entity type and date range', async () => {
    const byUser = await get(`${base}?userId=${admin.user.id}&entityType=role`);
    expect(byUser.json().content.map((e: { action: string }) => e.action).slice(0, 2)).toEqual(['UPDATE', 'CREATE']);
    expect(byUser.json().content.every((e: { actor: { userId: string } }) => e.actor.userId === admin.user.id)).toBe(true);
    const byAction = await get(`${base}?action=CREATE&entityType=ROLE`);
    expect(byAction.json().content.every((e: { action: string; entityType: string }) => e.action === 'CREATE' && e.entityType === 'ROLE')).toBe(true);
    const future = await get(`${base}?from=2999-01-01`);
    expect(future.json().totalElements).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const bareDay = await get(`${base}?from=${today}&to=${today}`);
    expect(bareDay.json().totalElements).toBeGreaterThan(0);
    const bad = await get(`${base}?from=yesterday`);
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad.json(), 400, { 'querystring.from': 'from is not valid.' });
    const reversed = await get(`${base}?from=2026-02-01&to=2026-01-01`);
    expect(reversed.statusCode).toBe(400);
    expectFieldErrors(reversed.json(), 400, { from: 'from must be before to' });
    const filters = await get(`${base}/filters`);
    expect(filters.json().entityTypes).toEqual(expect.arrayContaining(['ORGANIZATION', 'ROLE', 'USER']));
  });

  it("shows one user's actions on the per-user view", async () => {
    const d = await login(t.app, DEMO.dispatcher);
    const res = await get(`${base}/users/${d.user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().content.length).toBeGreaterThan(0);
    expect(res.json().content.every((e: { actor: { userId: string } }) => e.actor.userId === d.user.id)).toBe(true);
  });

  it('shows the detail with before, after and the field-by-field difference, never secrets', async () => {
    const list = await get(`${base}?action=UPDATE&entityType=ROLE`);
    const detail = await get(`${base}/${list.json().content[0].id}`);
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.changes).toEqual(
      expect.arrayContaining([
        { field: 'description', before: null, after: 'Reads the log' },
        { field: 'permissions', before: ['ACTIVITY_LOG_LIST'], after: ['USER_LIST', 'ACTIVITY_LOG_LIST'] },
      ]),
    );
    expect(body.changes.map((c: { field: string }) => c.field)).not.toContain('updatedAt');
    const userRows = await get(`${base}?entityType=USER&size=50`);
    for (const e of userRows.json().content.slice(0, 5)) {
      expect((await get(`${base}/${e.id}`)).body).not.toContain('passwordHash');
    }
  });

  it('is read-only: no route changes or deletes an entry', async () => {
    const list = await get(`${base}?size=1`);
    const id = list.json().content[0].id;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${base}/${id}`, headers: bearer(admin.accessToken), payload: {} });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await get(`${base}/${id}`)).statusCode).toBe(200);
  });

  it("needs ACTIVITY_LOG_LIST, and never shows another organization's entries", async () => {
    const d = await login(t.app, DEMO.dispatcher);
    expect((await get(base, d.accessToken)).statusCode).toBe(403);
    const other = await registerOrganization(t.app, 'Rival Log');
    const otherBase = `/api/v1/organizations/${other.user.organization?.id}/activity-logs`;
    expect((await get(otherBase)).statusCode).toBe(404);
    const theirs = await get(otherBase, other.accessToken);
    const theirId = theirs.json().content[0].id;
    expect((await get(`${base}/${theirId}`)).statusCode).toBe(404);
    const mine = await get(`${base}?size=500`);
    expect(mine.json().content.some((e: { id: number }) => e.id === theirId)).toBe(false);
  });
});

describe('a long history', () => {
  it('counts exactly up to the cap and reports cap + 1 beyond it, still paging newest first', async () => {
    const big = await registerOrganization(t.app, 'Long History');
    const orgId = big.user.organization?.id ?? '';
    await t.database.db.execute(sql`insert into activity_log (organization_id, action, entity_type, entity_id, created_at)
      select ${orgId}::uuid, 'UPDATE', 'VEHICLE', g::text, now() - g * interval '1 minute' from generate_series(1, ${COUNT_CAP + 50}) g`);
    const res = await get(`/api/v1/organizations/${orgId}/activity-logs?size=15`, big.accessToken);
    expect(res.json()).toMatchObject({ totalElements: COUNT_CAP + 1, totalPages: Math.ceil((COUNT_CAP + 1) / 15) });
    expect(res.json().content[0].entityType).toBe('USER');
    const exact = await get(`/api/v1/organizations/${orgId}/activity-logs?entityType=USER`, big.accessToken);
    expect(exact.json().totalElements).toBe(1);
  });
});

describe('difference of before and after', () => {
  it('lists changed top-level fields, all fields of a create, and ignores updatedAt', () => {
    expect(diff({ a: 1, b: [1], updatedAt: 'x' }, { a: 1, b: [1, 2], updatedAt: 'y' })).toEqual([{ field: 'b', before: [1], after: [1, 2] }]);
    expect(diff(undefined, { name: 'n' })).toEqual([{ field: 'name', before: null, after: 'n' }]);
    expect(diff({ name: 'n' }, null)).toEqual([{ field: 'name', before: 'n', after: null }]);
  });
});
