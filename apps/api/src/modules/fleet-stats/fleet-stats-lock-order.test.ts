import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { failureInOppositeOrders } from '../../test/opposite-orders.ts';

// Two API instances' fleet statistics rebuild the same vehicle days when a device's fixes land on
// both (behind a load balancer). One multi-row upsert locks its rows in the order of its VALUES: in
// two orders they deadlocked ("fleet statistics failed: deadlock detected", bench/citus.ts on one
// server with two instances). Written in key order, they wait for each other instead. A server
// database only: PGlite is one session.

describe.skipIf(!process.env.TEST_DATABASE_URL)('vehicle days rebuilt by two instances at once (a server database)', () => {
  let t: TestContext;
  let orgId: string;
  const days: Array<{ assetId: string; day: string }> = [];

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await registerOrganization(t.app, 'Lock Order Stats')).user.organization!.id;
    const start = Date.parse('2026-11-02T15:00:00Z');
    for (let v = 0; v < 100; v++) {
      const { assetId, gatewayId } = await createTestVehicle(t.app.db, orgId, { uniqueId: `lock-order-stats-${v}`, driver: false });
      // Three days of a few fixes each (a second apart, moving east at about 36 km/h).
      for (const d of [0, 1, 2]) {
        const values = Array.from(
          { length: 5 },
          (_, k) =>
            `('${orgId}', '${gatewayId}', '${assetId}', '${new Date(start + d * 86_400_000 + k * 1000).toISOString()}', 41.5, ${-90.5 + k * 0.0001}, 36, true, 'osmand')`,
        );
        await t.app.db.execute(
          `insert into positions (organization_id, gateway_id, asset_id, fix_time, latitude, longitude, speed, ignition, protocol) values ${values.join(', ')}` as never,
        );
        days.push({ assetId, day: new Date(start + d * 86_400_000).toISOString().slice(0, 10) });
      }
    }
  });
  afterAll(() => t?.close());

  it('never deadlocks two rebuilds of the same vehicle days given in opposite orders', async () => {
    expect(await failureInOppositeOrders(days, (list) => t.app.fleetStats.rebuildDays(t.app.db, orgId, list), 80)).toBeUndefined();
    const [n] = rowsOf<{ n: number }>(
      await t.app.db.execute(`select count(*)::int as n from vehicle_daily_stats where organization_id = '${orgId}' and fixes = 5` as never),
    );
    expect(n!.n).toBe(days.length);
  });
});
