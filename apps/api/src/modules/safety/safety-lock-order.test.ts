import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { createTestVehicle } from '../../test/vehicles.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { failureInOppositeOrders } from '../../test/opposite-orders.ts';
import type { EventDraft } from './safety-machine.ts';
import { upsertEvents } from './safety.repository.ts';

// Two API instances' safety followers upsert the same vehicles' events when a device's fixes land on
// both (behind a load balancer). Each statement locks its rows in the order of its VALUES: in two
// orders they deadlocked ("safety events failed: deadlock detected", bench/citus.ts with two
// instances). Written in key order, they wait for each other instead. A server database only:
// PGlite is one session.

describe.skipIf(!process.env.TEST_DATABASE_URL)('safety events written by two instances at once (a server database)', () => {
  let t: TestContext;
  let orgId: string;
  const events: Array<{ assetId: string; draft: EventDraft }> = [];

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await registerOrganization(t.app, 'Lock Order Safety')).user.organization!.id;
    const base = Date.now() - 3 * 3_600_000;
    for (let v = 0; v < 30; v++) {
      const { assetId } = await createTestVehicle(t.app.db, orgId, { uniqueId: `lock-order-safety-${v}`, driver: false });
      for (let k = 0; k < 10; k++)
        events.push({
          assetId,
          draft: {
            type: 'HARSH_BRAKING',
            source: 'DEVICE',
            severity: 'MEDIUM',
            startedAt: base + k * 60_000,
            endedAt: base + k * 60_000 + 2_000,
            driverId: null,
            lat: 41.5,
            lon: -90.5,
            speedBeforeKph: 60,
            speedAfterKph: 40,
            maxSpeedKph: null,
            limitKph: null,
            limitSource: null,
            heldSpeedKph: null,
            band: null,
            bandSeconds: null,
            strengthMps2: 4.5,
            fuelBurnedL: null,
            open: false,
          },
        });
    }
  });
  afterAll(() => t?.close());

  it('never deadlocks two upserts of the same events given in opposite orders', async () => {
    expect(await failureInOppositeOrders(events, (list) => upsertEvents(t.app.db, orgId, list), 30)).toBeUndefined();
    const [n] = rowsOf<{ n: number }>(await t.app.db.execute(`select count(*)::int as n from safety_events where organization_id = '${orgId}'` as never));
    expect(n!.n).toBe(events.length);
  });
});
