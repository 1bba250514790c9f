import { and, desc, eq, gt, isNull, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets, driverCardReads, drivers } from '../../db/schema/index.ts';
import { countAll } from '../../db/sql/count-all.ts';

// The driver card reads' SQL (decision 0324): each change of card a device read, once per (device, time).

export type CardReadRow = typeof driverCardReads.$inferSelect;

/** The device's card read at or before `at` (the card in the reader then). */
export async function lastCardReadAtOrBefore(tx: DbOrTx, orgId: string, gatewayId: string, at: Date): Promise<CardReadRow | undefined> {
  const [row] = await tx
    .select()
    .from(driverCardReads)
    .where(and(eq(driverCardReads.organizationId, orgId), eq(driverCardReads.gatewayId, gatewayId), lte(driverCardReads.readAt, at)))
    .orderBy(desc(driverCardReads.readAt))
    .limit(1);
  return row;
}

/** Whether the device read a card after `at` (a record sent late must not undo a later read). */
export async function cardReadAfter(tx: DbOrTx, orgId: string, gatewayId: string, at: Date): Promise<boolean> {
  const [row] = await tx
    .select({ id: driverCardReads.id })
    .from(driverCardReads)
    .where(and(eq(driverCardReads.organizationId, orgId), eq(driverCardReads.gatewayId, gatewayId), gt(driverCardReads.readAt, at)))
    .limit(1);
  return row !== undefined;
}

/** Records a read; null when the device's read at that time is already recorded (a resend). */
export async function insertCardRead(
  tx: DbOrTx,
  values: { organizationId: string; gatewayId: string; readAt: Date; assetId: string | null; cardNumber: string; driverId: string | null },
): Promise<string | null> {
  const [row] = await tx
    .insert(driverCardReads)
    .values(values)
    .onConflictDoNothing({ target: [driverCardReads.organizationId, driverCardReads.gatewayId, driverCardReads.readAt] })
    .returning({ id: driverCardReads.id });
  return row?.id ?? null;
}

export async function markCardReadAssigned(tx: DbOrTx, orgId: string, id: string): Promise<void> {
  await tx
    .update(driverCardReads)
    .set({ assigned: true })
    .where(and(eq(driverCardReads.organizationId, orgId), eq(driverCardReads.id, id)));
}

/** The organization's driver with the card (not locked: the vehicle is locked first, as every assignment does). */
export async function driverIdByCard(tx: DbOrTx, orgId: string, cardNumber: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: drivers.id })
    .from(drivers)
    .where(and(eq(drivers.organizationId, orgId), eq(drivers.cardNumber, cardNumber)));
  return row?.id ?? null;
}

/** A vehicle's latest card reads, newest first, with the driver of each card as on file now. */
export async function cardReadsOfAsset(
  db: DbOrTx,
  orgId: string,
  assetId: string,
  limit: number,
): Promise<Array<{ read: CardReadRow; driverId: string | null; firstName: string | null; lastName: string | null }>> {
  return db
    .select({ read: driverCardReads, driverId: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName })
    .from(driverCardReads)
    .leftJoin(drivers, and(eq(drivers.organizationId, driverCardReads.organizationId), eq(drivers.cardNumber, driverCardReads.cardNumber)))
    .where(and(eq(driverCardReads.organizationId, orgId), eq(driverCardReads.assetId, assetId)))
    .orderBy(desc(driverCardReads.readAt))
    .limit(limit);
}

/** How many of a vehicle's reads are of a card no driver has (now: a card added to a driver stops counting). */
export async function unknownCardReadCount(db: DbOrTx, orgId: string, assetId: string): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(driverCardReads)
    .leftJoin(drivers, and(eq(drivers.organizationId, driverCardReads.organizationId), eq(drivers.cardNumber, driverCardReads.cardNumber)))
    .where(and(eq(driverCardReads.organizationId, orgId), eq(driverCardReads.assetId, assetId), isNull(drivers.id)));
  return Number(row?.n ?? 0);
}

/** Whether the organization has the vehicle or trailer (a deleted one's reads are kept, never assigned). */
export async function assetExists(db: DbOrTx, orgId: string, assetId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.id, assetId)));
  return row !== undefined;
}
