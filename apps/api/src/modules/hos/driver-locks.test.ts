import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOS_EVENT_TYPES, HOS_RECORD_ORIGINS } from '@fleet/api-contract';
import { sql } from 'drizzle-orm';
import { latestPositions } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { createTestApp, registerOrganization, type TestContext } from '../../test/helpers.ts';
import { heldTransaction } from '../../test/held-transaction.ts';
import { createTestVehicle, type TestVehicle } from '../../test/vehicles.ts';
import { insertEvents, lockVehicles } from './auto-duty/auto-duty.repository.ts';
import { proposeSegment } from './hos-unidentified.service.ts';

// The locks behind a driver's records, in the order every path takes them: a vehicle's derivation
// lock, then its drivers' rows, and the rows no stronger than the record writers need. A bench run
// on Citus cancelled an engine-records round "involved in a distributed deadlock" on its read of the
// drivers (bench/citus.ts, 2026-11-28). A server database or Citus only: PGlite is one session, and the
// second transaction would wait for the first forever.

describe.skipIf(!process.env.TEST_DATABASE_URL && !process.env.TEST_CITUS_URL)("the locks of drivers' records (a server database or Citus)", () => {
  let t: TestContext;
  let orgId: string;
  let adminId: string;
  let truck: TestVehicle;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await registerOrganization(t.app, 'Driver Locks');
    orgId = owner.user.organization!.id;
    adminId = owner.user.id;
    truck = await createTestVehicle(t.app.db, orgId, { uniqueId: `driver-locks-${Date.now()}` });
  });
  afterAll(() => t?.close());

  it("writes a driver's records while an uncommitted position refers to the driver", async () => {
    // The group commit's insert checks its driver key: a key-share lock on the driver's row until it commits.
    const release = await heldTransaction(t.app.db, (tx) =>
      tx.insert(latestPositions).values({
        assetId: truck.assetId,
        organizationId: orgId,
        gatewayId: truck.gatewayId,
        driverId: truck.driverId,
        fixTime: new Date(),
        serverTime: new Date(),
        latitude: 41.5,
        longitude: -90.5,
      }),
    );
    try {
      const written = await t.app.db.transaction(async (tx) => {
        // Under FOR UPDATE this waited for the position's commit: a lock timeout here, a deadlock when
        // that commit waited in turn for a driver these records had locked first.
        await tx.execute(sql`set local lock_timeout = '2s'`);
        await lockVehicles(tx, [truck.assetId]);
        const event = {
          driverId: truck.driverId,
          vehicleId: truck.assetId,
          eventType: HOS_EVENT_TYPES.ENGINE_POWER,
          eventCode: 1,
          time: Date.now() - 60_000,
          lat: 41.5,
          lon: -90.5,
          odometerM: null,
          engineHours: null,
          location: null,
          origin: HOS_RECORD_ORIGINS.AUTOMATIC,
        };
        return insertEvents(tx, orgId, [event]);
      });
      expect(written).toHaveLength(1);
    } finally {
      await release();
    }
  });

  it("takes the vehicle's derivation lock before the driver's row when the office proposes unidentified driving", async () => {
    const start = Date.now() - 5 * 3_600_000;
    const [segment] = rowsOf<{ id: string }>(
      await t.app.db
        .execute(sql`insert into hos_events (organization_id, driver_id, vehicle_id, sequence_id, event_type, event_code, record_origin, event_time, log_date, latitude, longitude)
        values (${orgId}, null, ${truck.assetId}, 1, 1, 3, 1, ${new Date(start).toISOString()}, ${new Date(start).toISOString().slice(0, 10)}, 41.88, -87.63),
          (${orgId}, null, ${truck.assetId}, 2, 1, 4, 1, ${new Date(start + 1_800_000).toISOString()}, ${new Date(start + 1_800_000).toISOString().slice(0, 10)}, 41.5, -87.3)
        returning id`),
    );
    // Another instance's derivation round holds the vehicle.
    const release = await heldTransaction(t.app.db, (tx) => lockVehicles(tx, [truck.assetId]));
    const proposal = proposeSegment({ db: t.app.db, orgId, actor: { userId: adminId, email: null, role: null, ip: null } }, segment!.id, {
      driverId: truck.driverId!,
      annotation: null,
    });
    proposal.catch(() => undefined); // awaited below; a failure before that is the test's, not an unhandled one
    try {
      await vi.waitFor(
        async () => {
          const [waits] = rowsOf<{ n: number }>(
            await t.app.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
          );
          expect(waits!.n).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 20 },
      );
      // The proposal waits for the vehicle without holding the driver: that round can still lock the driver's row.
      const free = await t.app.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '1s'`);
        return rowsOf<{ id: string }>(
          await tx.execute(sql`select id from drivers where organization_id = ${orgId} and id = ${truck.driverId} for no key update`),
        );
      });
      expect(free).toHaveLength(1);
    } finally {
      await release();
    }
    expect(await proposal).toMatchObject({ state: 'PROPOSED' });
  });
});
