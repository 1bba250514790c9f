import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { bearer, createTestApp, DEMO, expectErrorBody, login, type TestContext } from '../../test/helpers.ts';

// The soak's fault hook (issue 43): absent unless FAULT_INJECTION=1; with it, the super administrator
// stalls the database (answered at once, the stall holding writes behind it) or kills its worker thread.

const faultUrl = (fault: string) => `/api/v1/admin/diagnostics/faults/${fault}`;

// One seeded database; the app with the hook is a second instance on it (no second seeding).
let t: TestContext;
let faulty: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  faulty = await buildApp({ config: { ...t.config, faultInjection: true }, database: t.database });
  await faulty.ready();
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await faulty?.close();
  await t?.close();
});

describe('without FAULT_INJECTION', () => {
  it('answers 404 even to the super administrator: the route does not exist', async () => {
    const su = await login(t.app, DEMO.superAdmin);
    for (const fault of ['kill-database-thread', 'stall-database']) {
      const res = await t.app.inject({ method: 'POST', url: faultUrl(fault), headers: bearer(su.accessToken), payload: { ms: 100 } });
      expect(res.statusCode, fault).toBe(404);
    }
  });
});

describe('with FAULT_INJECTION=1', () => {
  it('is for the super administrator only, and a stall needs its length', async () => {
    expect((await faulty.inject({ method: 'POST', url: faultUrl('stall-database'), payload: { ms: 10 } })).statusCode).toBe(401);
    const admin = await login(faulty, DEMO.admin);
    const denied = await faulty.inject({ method: 'POST', url: faultUrl('stall-database'), headers: bearer(admin.accessToken), payload: { ms: 10 } });
    expect(denied.statusCode).toBe(403);
    const su = await login(faulty, DEMO.superAdmin);
    const noMs = await faulty.inject({ method: 'POST', url: faultUrl('stall-database'), headers: bearer(su.accessToken), payload: {} });
    expect(noMs.statusCode).toBe(400);
    expect(expectErrorBody(noMs.json(), 400).technicalMessage).toMatch(/^ms: /);
    const unknown = await faulty.inject({ method: 'POST', url: faultUrl('drop-tables'), headers: bearer(su.accessToken), payload: {} });
    expect(unknown.statusCode).toBe(400);
  });

  it('answers a stall at once, and a position sent meanwhile is stored only after it', async () => {
    const su = await login(faulty, DEMO.superAdmin);
    const t0 = Date.now();
    const res = await faulty.inject({ method: 'POST', url: faultUrl('stall-database'), headers: bearer(su.accessToken), payload: { ms: 1500 } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ fault: 'stall-database', ms: 1500 });
    expect(Date.now() - t0).toBeLessThan(1000);
    // The stall holds the database: on PostgreSQL its connection has locked the positions tables;
    // PGlite's one session runs it before anything sent after it.
    if (t.database.kind !== 'pglite') {
      const held = `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'positions' and l.mode = 'ExclusiveLock' and l.granted`;
      await vi.waitFor(async () => expect(rowsOf<{ n: number }>(await t.database.db.execute(held as never))[0]!.n).toBeGreaterThan(0), {
        timeout: 10_000,
        interval: 20,
      });
    }
    const fix = await faulty.inject({
      method: 'GET',
      url: `/api/v1/ingest/osmand?id=demo-truck-01&lat=35&lon=-97&timestamp=${Math.floor(Date.now() / 1000)}&speed=0`,
    });
    expect(fix.statusCode, fix.body).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1300);
  });

  // Last: the kill takes the in-memory test database with its thread (a data directory would open
  // again, bench/soak.ts shows that). On PostgreSQL, or with the database on the API's thread, it is a no-op.
  it.skipIf(!!process.env.TEST_DATABASE_URL || !!process.env.TEST_CITUS_URL || process.env.PGLITE_THREAD === 'main')(
    'ends the database worker thread',
    async () => {
      const logged: string[] = [];
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
      const su = await login(faulty, DEMO.superAdmin);
      const res = await faulty.inject({ method: 'POST', url: faultUrl('kill-database-thread'), headers: bearer(su.accessToken) });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toEqual({ fault: 'kill-database-thread', ms: null });
      await vi.waitFor(() => expect(logged.some((l) => /worker thread stopped/.test(l))).toBe(true), { timeout: 10_000, interval: 50 });
      const ready = await faulty.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().technicalMessage).toMatch(/in-memory database is lost/);
    },
  );
});
