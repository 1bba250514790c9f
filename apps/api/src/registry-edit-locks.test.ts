import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from './db/client.ts';
import { latestPositions } from './db/schema/index.ts';
import { lockAsset } from './modules/assets/assets.repository.ts';
import { lockDriverRow } from './modules/drivers/drivers.repository.ts';
import { lockGateway } from './modules/gateways/index.ts';
import { assertAnotherActiveAdmin } from './modules/users/users.policies.ts';
import { createTestApp, registerOrganization, type TestContext } from './test/helpers.ts';
import { heldTransaction } from './test/held-transaction.ts';
import { createTestVehicle, type TestVehicle } from './test/vehicles.ts';

// The office's edits against ingest (decision 0220): a vehicle's, device's or driver's edit, a
// driver assignment, a pairing or an administrator's demotion locks the rows it changes or checks,
// and the group commit checks the keys of the same rows for every position it stores. FOR UPDATE
// held those positions back until the edit committed; NO KEY UPDATE does not. A server database or
// Citus only: PGlite is one session, and the second transaction would wait for the first forever.

describe.skipIf(!process.env.TEST_DATABASE_URL && !process.env.TEST_CITUS_URL)("the registry's edit locks and ingest (a server database or Citus)", () => {
  let t: TestContext;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await registerOrganization(t.app, 'Registry Locks')).user.organization!.id;
  });
  afterAll(() => t?.close());

  /** Stores a latest position of a new vehicle (the group commit's key checks) while `hold`'s locks are held, within 2 s. */
  async function storeWhileHeld(hold: (tx: DbOrTx, van: TestVehicle) => Promise<unknown>) {
    const van = await createTestVehicle(t.app.db, orgId, { uniqueId: `registry-locks-${randomUUID()}` });
    const release = await heldTransaction(t.app.db, (tx) => hold(tx, van));
    try {
      await t.app.db.transaction(async (tx) => {
        // The group commit's key checks on the organization, vehicle, device and driver: under FOR UPDATE they waited.
        await tx.execute(sql`set local lock_timeout = '2s'`);
        await tx.insert(latestPositions).values({
          assetId: van.assetId,
          organizationId: orgId,
          gatewayId: van.gatewayId,
          driverId: van.driverId,
          fixTime: new Date(),
          serverTime: new Date(),
          latitude: 41.6,
          longitude: -90.6,
        });
      });
    } finally {
      await release();
    }
    expect(await t.app.db.select({ at: latestPositions.latitude }).from(latestPositions).where(eq(latestPositions.assetId, van.assetId))).toEqual([
      { at: 41.6 },
    ]);
  }

  it('stores a position while the office edits its vehicle, device and driver', async () => {
    // An edit or a driver assignment locks the rows it changes (deletes alone lock them FOR UPDATE).
    await storeWhileHeld(async (tx, van) => {
      await lockAsset(tx, orgId, van.assetId);
      await lockGateway(tx, orgId, van.gatewayId);
      await lockDriverRow(tx, orgId, van.driverId!);
    });
  });

  it('stores a position while an administrator is demoted (the last-admin check locks the organization)', async () => {
    await storeWhileHeld((tx) => assertAnotherActiveAdmin(tx, orgId, randomUUID()));
  });
});
