import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';
import { recordCardReads, type CardReadInput } from '../modules/assets/index.ts';
import type { DemoTruck } from './simulator/demo-fleet.ts';

// The demo's driver cards (issue 73, decision 0324): the first Teltonika truck's driver has an
// iButton, which the truck's device read this morning (through the same card reads a device's
// packets go through); the other Teltonika truck's device read a card no driver has, forty minutes
// ago, so its vehicle page shows "Unknown card …" with the link to give it to a driver. Made once,
// at the first start (a part marked done); the reads are keyed by device and time all the same.

/** The demo driver's card, 16 hex digits as element 78 arrives. */
export const DEMO_DRIVER_CARD = '1A0000004D5E2C01';
/** A card no demo driver has. */
export const DEMO_UNKNOWN_CARD = '0A1B2C3D4E5F6071';

const MIN = 60_000;

export interface DemoDriverCards {
  driver: string;
  vehicle: string;
  unknownOn: string | null;
}

export async function ensureDemoDriverCards(db: Db, orgId: string, trucks: readonly DemoTruck[], now: number): Promise<DemoDriverCards | null> {
  const engines = trucks.filter((t) => t.engine && t.assetId && t.driverId).sort((a, b) => a.index - b.index);
  const known = engines[0];
  if (!known) return null;
  const [driver] = rowsOf<{ name: string }>(
    await db.execute(sql`update drivers set card_number = ${DEMO_DRIVER_CARD}, updated_at = now()
      where organization_id = ${orgId} and id = ${known.driverId} and card_number is null
        and not exists (select 1 from drivers o where o.organization_id = ${orgId} and o.card_number = ${DEMO_DRIVER_CARD})
      returning first_name || ' ' || last_name as name`),
  );
  if (!driver) return null;
  const unit = (assetId: string) => db.execute(sql`select unit_number as unit from assets where organization_id = ${orgId} and id = ${assetId}`);
  const minute = (ms: number) => new Date(Math.floor(ms / MIN) * MIN);
  const reads: CardReadInput[] = [
    { organizationId: orgId, gatewayId: known.gatewayId, assetId: known.assetId, at: minute(now - 3 * 60 * MIN), cardNumber: DEMO_DRIVER_CARD },
  ];
  const other = engines[1];
  if (other)
    reads.push({ organizationId: orgId, gatewayId: other.gatewayId, assetId: other.assetId, at: minute(now - 40 * MIN), cardNumber: DEMO_UNKNOWN_CARD });
  await recordCardReads(db, reads);
  return {
    driver: driver.name,
    vehicle: rowsOf<{ unit: string }>(await unit(known.assetId!))[0]?.unit ?? '',
    unknownOn: other ? (rowsOf<{ unit: string }>(await unit(other.assetId!))[0]?.unit ?? null) : null,
  };
}
