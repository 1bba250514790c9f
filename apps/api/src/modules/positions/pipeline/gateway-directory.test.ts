import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, eventually, type TestContext } from '../../../test/helpers.ts';
import { registryActors } from '../../../test/registry.ts';
import { GatewayDirectory, TTL_MS } from './gateway-directory.ts';

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const base = (orgId: string) => `/api/v1/organizations/${orgId}`;
let n = 0;
async function device(
  orgId: string,
  headers: Record<string, string>,
  uniqueId = `directory-${Date.now()}-${++n}`,
): Promise<{ id: string; uniqueId: string; name: string }> {
  const res = await t.app.inject({ method: 'POST', url: `${base(orgId)}/gateways`, headers, payload: { uniqueId, name: `Directory tracker ${++n}` } });
  expect(res.statusCode).toBe(201);
  return res.json();
}
/** Moves this process's clock past the directory's TTL (the database's own time is not used by it). */
function later(ms = TTL_MS + 1) {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() + ms);
}

describe('the device directory after its TTL', () => {
  it('reads a known device again from its organization, and a device gone or an id unknown through the directory', async () => {
    const directory = new GatewayDirectory(t.database.db);
    const kept = await device(a.orgId, a.admin);
    const moved = await device(a.orgId, a.admin);
    const unknown = `directory-unknown-${Date.now()}`;
    expect(await directory.byUniqueId(kept.uniqueId)).toMatchObject({ id: kept.id, orgId: a.orgId, useReceivedTime: false });
    expect(await directory.byUniqueId(moved.uniqueId)).toMatchObject({ id: moved.id, orgId: a.orgId });
    expect(await directory.byUniqueId(unknown)).toBeNull();

    // Meanwhile: a setting changes, a device is deleted and its id registered by another
    // organization, and the unknown id is registered.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `${base(a.orgId)}/gateways/${kept.id}`,
      headers: a.admin,
      payload: { uniqueId: kept.uniqueId, name: kept.name, useReceivedTime: true },
    });
    expect(edit.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `${base(a.orgId)}/gateways/${moved.id}`, headers: a.admin })).statusCode).toBe(200);
    const theirs = await device(a.otherOrgId, a.other, moved.uniqueId);
    const registered = await device(a.orgId, a.admin, unknown);

    // Within the TTL: what was remembered.
    expect(await directory.byUniqueId(kept.uniqueId)).toMatchObject({ useReceivedTime: false });
    later();
    // After it: answered from memory at once, refreshed behind.
    expect(await directory.byUniqueId(kept.uniqueId)).toMatchObject({ useReceivedTime: false });
    await directory.byUniqueId(moved.uniqueId);
    await directory.byUniqueId(unknown);
    await eventually(
      () => directory.byUniqueId(kept.uniqueId),
      (g) => g?.useReceivedTime === true,
      5000,
    );
    expect(await directory.byUniqueId(moved.uniqueId)).toMatchObject({ id: theirs.id, orgId: a.otherOrgId });
    expect(await directory.byUniqueId(unknown)).toMatchObject({ id: registered.id, orgId: a.orgId });
  });
});
