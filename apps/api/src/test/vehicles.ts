import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets, drivers, gateways } from '../db/schema/index.ts';
import { hashIngestToken } from '../modules/positions/pipeline/gateway-directory.ts';
import type { PositionRow } from '../modules/positions/pipeline/position-row.ts';
import { putDeviceIds } from '../modules/gateways/device-ids.ts';

export interface TestVehicle {
  gatewayId: string;
  assetId: string;
  driverId: string | null;
  uniqueId: string;
  token: string;
}

/**
 * A device paired with a vehicle (and a driver unless `driver: false`), written straight to the
 * tables: the fleet-registry API owns creating them, tests only need the rows.
 */
export async function createTestVehicle(
  db: Db,
  orgId: string,
  opts: { uniqueId: string; unitNumber?: string; driver?: boolean; paired?: boolean },
): Promise<TestVehicle> {
  const token = randomBytes(24).toString('base64url');
  const [asset] = await db
    .insert(assets)
    .values({ organizationId: orgId, type: 'VEHICLE', unitNumber: opts.unitNumber ?? `U-${opts.uniqueId}` })
    .returning({ id: assets.id });
  let driverId: string | null = null;
  if (opts.driver !== false) {
    const [d] = await db
      .insert(drivers)
      .values({ organizationId: orgId, firstName: 'Dana', lastName: `Driver ${opts.uniqueId}` })
      .returning({ id: drivers.id });
    driverId = d!.id;
    await db.update(assets).set({ currentDriverId: driverId }).where(eq(assets.id, asset!.id));
  }
  const [gw] = await db
    .insert(gateways)
    .values({
      organizationId: orgId,
      uniqueId: opts.uniqueId,
      name: `Device ${opts.uniqueId}`,
      assetId: opts.paired === false ? null : asset!.id,
      ingestTokenHash: hashIngestToken(token),
    })
    .returning();
  // The device-id directory, as the device service writes it (migration 0036).
  await putDeviceIds(db, [gw!]);
  return { gatewayId: gw!.id, assetId: asset!.id, driverId, uniqueId: opts.uniqueId, token };
}

/** A fix of the test vehicle at `fixTime`, as ingest hands it to the group commit (what a test does not care about is plain). */
export function testPositionRow(v: TestVehicle, orgId: string, fixTime: Date, over: Partial<PositionRow> = {}): PositionRow {
  return {
    organizationId: orgId,
    gatewayId: v.gatewayId,
    assetId: v.assetId,
    driverId: v.driverId,
    fixTime,
    latitude: 41.5,
    longitude: -90.5,
    speed: 40,
    course: 90,
    altitude: null,
    accuracy: null,
    odometer: null,
    odometerSource: null,
    engineHours: null,
    ignition: true,
    protocol: 'osmand',
    attributes: {},
    ...over,
  };
}
