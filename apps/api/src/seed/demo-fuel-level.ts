import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets } from '../db/schema/index.ts';
import type { FuelEvents } from '../modules/ifta/index.ts';
import { DEMO_FUEL_SENSORS, DEMO_TANK_L } from './simulator/fuel-sensor.ts';
import type { DemoTruck } from './simulator/demo-fleet.ts';

// The demo's fuel-level sensors (issue 68, decision 0276): tractors 110 and 116 get their 250 gal
// tanks in the registry (when none is set), and the week's refuels and drops are found in their
// backfilled positions (written in bulk, past the follower), before the week's card transactions are
// checked against them.

/** Returns how many fuel events the week gave. */
export async function ensureDemoFuelLevel(db: Db, orgId: string, trucks: readonly DemoTruck[], fuelEvents: FuelEvents, from: number): Promise<number> {
  const ids = trucks.filter((t) => t.assetId && DEMO_FUEL_SENSORS.has(t.index)).map((t) => t.assetId!);
  if (ids.length === 0) return 0;
  await db
    .update(assets)
    .set({ tankCapacityL: DEMO_TANK_L })
    .where(and(eq(assets.organizationId, orgId), inArray(assets.id, ids), isNull(assets.tankCapacityL)));
  fuelEvents.tanksChanged(orgId);
  return fuelEvents.recomputeVehicles(orgId, ids, from);
}
