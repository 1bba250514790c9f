import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { latestPositions } from './db/schema/index.ts';
import { lockAsset } from './modules/assets/assets.repository.ts';
import { lockDriverRow } from './modules/drivers/drivers.repository.ts';
import { lockGateway } from './modules/gateways/unpairing.ts';
import { createTestApp, registerOrganization, type TestContext } from './test/helpers.ts';
import { heldTransaction } from './test/held-transaction.ts';
import { createTestVehicle } from './test/vehicles.ts';

// The office's edits of the fleet registry against ingest (decision 0220): a vehicle's, device's or
// driver's edit, a driver assignment or a pairing locks the rows it changes, and the group commit
// checks the keys of the same rows for every position it stores. FOR UPDATE held those positions
// back until the edit committed; NO KEY UPDATE does not. A server database or Citus only: PGlite is
// one session, and the second transaction would wait for the first forever.

describe.skipIf(!process.env.TEST_DATABASE_URL && !process.env.TEST_CITUS_URL)('the registry\'s edit locks and ingest (a server database or Citus)', () => {
  let t: TestContext;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await registerOrganization(t.app, 'Registry Locks')).user.organization!.id;
  });
  afterAll(() => t?.close());

  it('stores a position while the office edits its vehicle, device and driver', async () => {
    const van = await createTestVehicle(t.app.db, orgId, { uniqueId: `registry-locks-${Date.now()}` });
    // An edit or a driver assignment locks the rows it changes (deletes alone lock them FOR UPDATE).
    const release = await heldTransaction(t.app.db, async (tx) => {
      await lockAsset(tx, orgId, van.assetId);
      await lockGateway(tx, orgId, van.gatewayId);
      await lockDriverRow(tx, orgId, van.driverId!);
    });
    try {
      await t.app.db.transaction(async (tx) => {
        // The group commit's key checks on the vehicle, the device and the driver: under FOR UPDATE they waited for the edit.
        await tx.execute(sql`set local lock_timeout = '2s'`);
        await tx
          .insert(latestPositions)
          .values({ assetId: van.assetId, organizationId: orgId, gatewayId: van.gatewayId, driverId: van.driverId, fixTime: new Date(), serverTime: new Date(), latitude: 41.6, longitude: -90.6 });
      });
    } finally {
      await release();
    }
    expect(await t.app.db.select({ at: latestPositions.latitude }).from(latestPositions).where(eq(latestPositions.assetId, van.assetId))).toEqual([{ at: 41.6 }]);
  });
});
