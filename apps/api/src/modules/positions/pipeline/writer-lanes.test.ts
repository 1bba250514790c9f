import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DEMO, login, onCitus, registerOrganization, type TestContext } from '../../../test/helpers.ts';
import { createTestVehicle, type TestVehicle } from '../../../test/vehicles.ts';

// Writer lanes per organization (decision 0203): one organization's commit held by a lock (on
// Citus, its shards being moved) holds back only that organization's devices. A server database
// only: PGlite is one session, where no other transaction can hold a lock.

describe.skipIf(!process.env.TEST_DATABASE_URL && !onCitus())('writer lanes (a server database)', () => {
  let t: TestContext;
  let held: TestVehicle;
  let other: TestVehicle;
  let heldOrg: string;
  const base = Math.floor(Date.now() / 1000) - 3600;
  const fix = (v: TestVehicle, s: number) =>
    t.app.inject({ method: 'GET', url: `/api/v1/ingest/osmand?id=${v.uniqueId}&lat=41.5&lon=-90.5&timestamp=${base + s}&speed=40` });

  beforeAll(async () => {
    t = await createTestApp();
    const orgA = (await login(t.app, DEMO.admin)).user.organization!.id;
    const orgB = (await registerOrganization(t.app, 'Lane Carrier')).user.organization!.id;
    heldOrg = orgA;
    held = await createTestVehicle(t.app.db, orgA, { uniqueId: 'lane-held-1' });
    other = await createTestVehicle(t.app.db, orgB, { uniqueId: 'lane-other-1' });
  });
  afterAll(() => t?.close());

  it("goes on with other organizations' devices while one organization's commit waits for a lock", async () => {
    expect((await fix(held, 0)).statusCode).toBe(200);
    expect((await fix(other, 0)).statusCode).toBe(200);
    const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
    const locker = await pool.connect();
    try {
      await locker.query('begin');
      // The held vehicle's latest row, locked as a second writer (or a shard move's copy) would.
      await locker.query('select 1 from latest_positions where organization_id = $1 and asset_id = $2 for update', [heldOrg, held.assetId]);
      let heldAnswered = false;
      const waiting = fix(held, 60).then((res) => {
        heldAnswered = true;
        return res;
      });
      // The held lane has started its statement and waits on the lock: on Citus on a worker, which
      // citus_stat_activity shows (the coordinator's backend waits on the worker's answer).
      const activity = onCitus() ? 'citus_stat_activity' : 'pg_stat_activity';
      await vi.waitFor(
        async () => {
          const waits = await pool.query<{ n: number }>(
            `select count(*)::int as n from ${activity} where datname = current_database() and wait_event_type = 'Lock'`,
          );
          expect(waits.rows[0]!.n).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 20 },
      );
      const started = Date.now();
      for (let k = 1; k <= 5; k++) expect((await fix(other, 60 * k)).statusCode).toBe(200);
      // The other organization's fixes were answered while the held one still waits.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(heldAnswered).toBe(false);
      await locker.query('rollback');
      expect((await waiting).statusCode).toBe(200);
    } finally {
      locker.release();
    }
    const counts = await pool.query<{ g: string; n: number }>(
      'select gateway_id as g, count(*)::int as n from positions where gateway_id = any($1::uuid[]) group by 1',
      [[held.gatewayId, other.gatewayId]],
    );
    expect(Object.fromEntries(counts.rows.map((r) => [r.g, r.n]))).toEqual({ [held.gatewayId]: 2, [other.gatewayId]: 6 });
  });
});
