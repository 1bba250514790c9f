import type { DriverCardReadList } from '@fleet/api-contract';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { Actor, ReadScope } from '../auth/index.ts';
import { lockDriverRow } from '../drivers/index.ts';
import { assignLockedDriver } from './asset-links.service.ts';
import { lockAsset } from './assets.repository.ts';
import * as repo from './driver-cards.repository.ts';

// The driver's card (issue 73, decision 0324): a device's iButton or RFID reader names the card in
// its records (element 78, RFID 207: `driverCard`, 16 hex digits). A change of card is recorded
// once per (device, time) and, when a driver of the organization has the card, makes them the
// vehicle's driver through the assignment every person's assignment takes, in the same
// transaction: a resend, or a replay after a restart, finds the read recorded and does nothing.

/** Who a card read's assignment is by, in the activity log: no person ("System"). */
const CARD_READER: Actor = { userId: null, email: null, role: 'DEVICE', ip: null };

/** A card a device read in a stored record. */
export interface CardReadInput {
  organizationId: string;
  gatewayId: string;
  /** The vehicle the device was paired with at the record's time (null: none). */
  assetId: string | null;
  at: Date;
  /** 16 upper-case hex digits. */
  cardNumber: string;
}

/** Records one read when the card differs from the device's last; assigns its driver. */
async function recordOne(db: Db, r: CardReadInput): Promise<void> {
  const orgId = r.organizationId;
  await db.transaction(async (tx) => {
    const last = await repo.lastCardReadAtOrBefore(tx, orgId, r.gatewayId, r.at);
    // The same card still in the reader (or this very read resent): nothing new.
    if (last?.cardNumber === r.cardNumber) return;
    const driverId = await repo.driverIdByCard(tx, orgId, r.cardNumber);
    const id = await repo.insertCardRead(tx, {
      organizationId: orgId,
      gatewayId: r.gatewayId,
      readAt: r.at,
      assetId: r.assetId,
      cardNumber: r.cardNumber,
      driverId,
    });
    if (!id || !driverId || !r.assetId) return;
    // A record sent late never undoes a later card's assignment.
    if (await repo.cardReadAfter(tx, orgId, r.gatewayId, r.at)) return;
    if (!(await repo.assetExists(tx, orgId, r.assetId))) return;
    // Locked in the order every assignment locks them: the vehicle, then the driver.
    const vehicle = await lockAsset(tx, orgId, r.assetId, 'Vehicle');
    const driver = await lockDriverRow(tx, orgId, driverId);
    // An inactive vehicle or driver is recorded as read, never an error to the device.
    if (vehicle.type !== 'VEHICLE' || vehicle.status !== 'ACTIVE' || driver.status !== 'ACTIVE') return;
    if (await assignLockedDriver(tx, orgId, CARD_READER, vehicle, driver, { cardNumber: r.cardNumber })) await repo.markCardReadAssigned(tx, orgId, id);
  });
}

/**
 * The card reads of stored records (taken or already held), in each device's time order, handed
 * in before the device is answered: what is acknowledged is recorded, and what is recorded is not
 * recorded again.
 */
export async function recordCardReads(db: Db, reads: readonly CardReadInput[]): Promise<void> {
  const ordered = [...reads].sort((a, b) => a.gatewayId.localeCompare(b.gatewayId) || a.at.getTime() - b.at.getTime());
  for (const r of ordered) await recordOne(db, r);
}

const READS_SHOWN = 10;

/** A vehicle's latest card reads and how many are of unknown cards (its page). */
export async function vehicleCardReads(scope: ReadScope, assetId: string): Promise<DriverCardReadList> {
  // Another organization's vehicle is not found, never forbidden (tenancy).
  if (!(await repo.assetExists(scope.db, scope.orgId, assetId))) throw notFound('Vehicle');
  const rows = await repo.cardReadsOfAsset(scope.db, scope.orgId, assetId, READS_SHOWN);
  return {
    items: rows.map((x) => ({
      id: x.read.id,
      cardNumber: x.read.cardNumber,
      readAt: x.read.readAt.toISOString(),
      driver: x.driverId ? { id: x.driverId, name: `${x.firstName ?? ''} ${x.lastName ?? ''}`.trim() } : null,
      assigned: x.read.assigned,
    })),
    unknownCount: await repo.unknownCardReadCount(scope.db, scope.orgId, assetId),
  };
}
