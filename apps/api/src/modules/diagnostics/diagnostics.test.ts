import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthCache, type AuthContext } from '../auth/index.ts';
import { bearer, createTestApp, DEMO, expectErrorBody, login, type TestContext } from '../../test/helpers.ts';
import { GatewayDirectory } from '../positions/index.ts';
import { memoryRegions } from './memory-report.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ authCacheUsers: 123 });
});
afterAll(async () => t?.close());

describe('memory report', () => {
  it('splits resident memory by mapping: node binary, database memory, anonymous, other files', () => {
    const wasm = 128 * 1024 * 1024;
    const smaps = [
      `00400000-00b6f000 r--p 00000000 fe:00 260689 ${process.execPath}`,
      'Size: 7612 kB',
      'Rss: 5000 kB',
      `7ef8b4000000-${(0x7ef8b4000000 + wasm).toString(16)} rw-p 00000000 00:00 0 `,
      'Size: 131072 kB',
      'Rss: 48000 kB',
      '7f0264000000-7f0265892000 rw-p 00000000 00:00 0 ',
      'Rss: 24000 kB',
      '1192b000-129f6000 rw-p 00000000 00:00 0                                  [heap]',
      'Rss: 16000 kB',
      '7f0270000000-7f0270100000 r-xp 00000000 fe:00 1 /usr/lib/x86_64-linux-gnu/libc.so.6',
      'Rss: 1024 kB',
    ].join('\n');
    expect(memoryRegions(wasm, smaps)).toEqual({ nodeBinaryMb: 4.9, databaseMb: 46.9, anonymousMb: 39.1, filesMb: 1 });
    // On a PostgreSQL server there is no database region: the same mapping is anonymous memory.
    expect(memoryRegions(null, smaps)).toEqual({ nodeBinaryMb: 4.9, databaseMb: null, anonymousMb: 85.9, filesMb: 1 });
    expect(memoryRegions(null, null)).toBeNull();
  });

  it('is for the super administrator only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/diagnostics/memory' })).statusCode).toBe(401);
    const admin = await login(t.app, DEMO.admin);
    const denied = await t.app.inject({ method: 'GET', url: '/api/v1/admin/diagnostics/memory', headers: bearer(admin.accessToken) });
    expect(denied.statusCode).toBe(403);
    expectErrorBody(denied.json(), 403);
  });

  it("reports this instance's memory and every cache with its cap", async () => {
    const su = await login(t.app, DEMO.superAdmin);
    const report = () => t.app.inject({ method: 'GET', url: '/api/v1/admin/diagnostics/memory', headers: bearer(su.accessToken) });
    let res = await report();
    // On PostgreSQL the sign-in's own auth_change notification may arrive after this request cached
    // the user and empty the cache: the next request caches it again.
    await vi.waitFor(
      async () => {
        if (res.json().caches?.authUsers?.entries === 0) res = await report();
        expect(res.json().caches?.authUsers?.entries).not.toBe(0);
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.rssMb).toBeGreaterThan(body.heapUsedMb);
    expect(body.heapSpaces.map((s: { space: string }) => s.space)).toContain('old_space');
    expect(body.database).toBe(t.database.kind);
    if (t.database.kind === 'pglite') expect(body.regions.databaseMb).toBeGreaterThan(0);
    else expect(body.regions.databaseMb).toBeNull();
    // The worker thread's heap is its own (decision 0170): reported apart from this thread's.
    if (t.database.kind === 'pglite' && process.env.PGLITE_THREAD !== 'main') expect(body.databaseThreadHeap.usedMb).toBeGreaterThan(0);
    else expect(body.databaseThreadHeap).toBeNull();
    // The embedded database's memory by PostgreSQL context: the catalog caches (and saved plans) are one.
    if (t.database.kind === 'pglite') expect(body.databaseContexts.map((c: { name: string }) => c.name)).toContain('CacheMemoryContext');
    else expect(body.databaseContexts).toBeNull();
    expect(body.caches.authUsers).toEqual({ entries: expect.any(Number), max: 123 });
    expect(body.caches.authUsers.entries).toBeGreaterThanOrEqual(1);
    expect(body.caches.devices.max).toBe(2 * t.config.deviceCacheEntries);
    expect(body.caches.listIndexRows.max).toBe(t.config.listIndexRows);
    expect(body.caches.hosEvents).toEqual({ entries: expect.any(Number), max: t.config.hosEventCacheEvents });
  });
});

describe('cache caps', () => {
  const ctx = (userId: string): AuthContext => ({
    userId,
    email: `${userId}@x.test`,
    role: 'USER',
    orgId: null,
    permissions: new Set(),
    isSuperAdmin: false,
    sessionEpoch: 0,
  });

  it('the auth cache keeps at most its cap, dropping the user loaded longest ago', async () => {
    const cache = new AuthCache(2);
    let loads = 0;
    const load = (id: string) => async () => {
      loads++;
      return ctx(id);
    };
    await cache.context('a', load('a'));
    await cache.context('b', load('b'));
    await cache.context('c', load('c'));
    expect(cache.size).toBe(2);
    await cache.context('c', load('c'));
    await cache.context('b', load('b'));
    expect(loads).toBe(3);
    await cache.context('a', load('a'));
    expect(loads).toBe(4);
  });

  it('the device directory does not grow past its cap on a flood of unknown ids', async () => {
    const directory = new GatewayDirectory(t.database.db, 5);
    for (let i = 0; i < 20; i++) expect(await directory.byUniqueId(`made-up-${i}`)).toBeNull();
    expect(directory.size).toBe(5);
  });
});
