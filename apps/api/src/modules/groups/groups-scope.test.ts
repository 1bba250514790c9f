import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';

// Every read that narrows to a group asks the groups repository whether the group is the
// organization's: a group of another organization answers exactly like one that does not exist.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

const api = (rest: string, orgId: string) => `/api/v1/organizations/${orgId}${rest}`;
const READS = ['/dashboard/charts?', '/analytics/fleet-performance?from=2026-01-01&to=2026-01-31&', '/ifta/report?quarter=2026Q1&', '/groups/'];
const withGroup = (read: string, groupId: string) => (read.endsWith('/') ? `${read}${groupId}` : `${read}groupId=${groupId}`);

describe('the group of another organization', () => {
  it('is refused with 404 Group by the dashboard, fleet performance, the IFTA return and the group detail; the own group is read', async () => {
    const theirs = (
      await t.app.inject({ method: 'POST', url: api('/groups', a.otherOrgId), headers: a.other, payload: { name: `Theirs ${Date.now()}` } })
    ).json().id as string;
    const ours = (await t.app.inject({ method: 'POST', url: api('/groups', a.orgId), headers: a.admin, payload: { name: `Ours ${Date.now()}` } })).json()
      .id as string;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const read of READS) {
      for (const groupId of [theirs, unknown]) {
        const res = await t.app.inject({ method: 'GET', url: api(withGroup(read, groupId), a.orgId), headers: a.admin });
        expect(res.statusCode, `${read} ${groupId}`).toBe(404);
        expect(expectErrorBody(res.json(), 404).message).toMatch(/group/i);
      }
      expect((await t.app.inject({ method: 'GET', url: api(withGroup(read, ours), a.orgId), headers: a.admin })).statusCode, read).toBe(200);
    }
  });
});
