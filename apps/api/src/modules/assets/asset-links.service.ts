import { and, count, eq, isNull } from 'drizzle-orm';
import type { AssetDetail } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assetDriverAssignments, assets, trailerAttachments } from '../../db/schema/index.ts';
import { conflict, invalidField } from '../../http/errors.ts';
import type { Actor, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { lockDriverRow } from '../drivers/index.ts';
import { unpairAssetInTx } from './device-unpairing.ts';
import { assetLabel, lockAsset } from './assets.repository.ts';
import { getAssetDetail } from './asset-detail.ts';

/** Doubles and triples: at most three trailers behind one power unit. */
export const MAX_TRAILERS_PER_VEHICLE = 3;

type AssetRow = typeof assets.$inferSelect;

function assertActiveVehicle(a: AssetRow, field: string): void {
  if (a.type !== 'VEHICLE') throw invalidField(field, `${assetLabel(a)} is a trailer, not a vehicle`);
  if (a.status !== 'ACTIVE') throw conflict(`${assetLabel(a)} is inactive; reactivate it first`);
}

/** Ends the vehicle's open assignment (if any) and clears its current driver. */
async function endAssignment(tx: DbOrTx, orgId: string, actor: Actor, vehicle: AssetRow, at: Date): Promise<void> {
  if (!vehicle.currentDriverId) return;
  await tx
    .update(assetDriverAssignments)
    .set({ endedAt: at })
    .where(and(eq(assetDriverAssignments.assetId, vehicle.id), isNull(assetDriverAssignments.endedAt)));
  await tx.update(assets).set({ currentDriverId: null, updatedAt: at }).where(eq(assets.id, vehicle.id));
  await recordActivity(tx, {
    orgId,
    actor,
    action: 'UNASSIGN_DRIVER',
    entityType: 'ASSET',
    entityId: vehicle.id,
    before: { driverId: vehicle.currentDriverId },
    after: { driverId: null },
  });
}

/**
 * Assigns a driver to a vehicle. The vehicle's previous driver and the driver's previous vehicle
 * are released first, so `assets.current_driver_id` and the open assignment rows always agree.
 */
export async function assignDriverToVehicle({ db, orgId, actor }: Scope, assetId: string, driverId: string): Promise<AssetDetail> {
  await db.transaction(async (tx) => {
    const vehicle = await lockAsset(tx, orgId, assetId, 'Vehicle');
    assertActiveVehicle(vehicle, 'assetId');
    const driver = await lockDriverRow(tx, orgId, driverId);
    if (driver.status !== 'ACTIVE') throw conflict(`Driver ${driver.firstName} ${driver.lastName} is inactive; reactivate them first`);
    await assignLockedDriver(tx, orgId, actor, vehicle, driver);
  });
  return getAssetDetail({ db, orgId }, assetId);
}

/**
 * The assignment itself, inside the caller's transaction, on a vehicle and a driver it has locked
 * and checked (active both): the one path a person's assignment and a card read (decision 0324)
 * share. `context` is stored with the activity (the card that identified the driver). Returns
 * whether anything changed (false: the driver already drives the vehicle).
 */
export async function assignLockedDriver(
  tx: DbOrTx,
  orgId: string,
  actor: Actor,
  vehicle: AssetRow,
  driver: { id: string; firstName: string; lastName: string },
  context: Record<string, unknown> = {},
): Promise<boolean> {
  const driverId = driver.id;
  if (vehicle.currentDriverId === driverId) return false;
  const now = new Date();
  await endAssignment(tx, orgId, actor, vehicle, now);
  const [previous] = await tx
    .select()
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, driverId)))
    .for('no key update');
  if (previous) await endAssignment(tx, orgId, actor, previous, now);
  await tx.update(assets).set({ currentDriverId: driverId, updatedAt: now }).where(eq(assets.id, vehicle.id));
  await tx.insert(assetDriverAssignments).values({ organizationId: orgId, assetId: vehicle.id, driverId, startedAt: now });
  await recordActivity(tx, {
    orgId,
    actor,
    action: 'ASSIGN_DRIVER',
    entityType: 'ASSET',
    entityId: vehicle.id,
    before: { driverId: vehicle.currentDriverId, driverPreviousVehicleId: previous?.id ?? null },
    after: { driverId, driverName: `${driver.firstName} ${driver.lastName}`, unitNumber: vehicle.unitNumber, ...context },
  });
  return true;
}

/** Ends the vehicle's current driver assignment; nothing changes when none is open. */
export async function unassignDriverFromVehicle({ db, orgId, actor }: Scope, assetId: string): Promise<AssetDetail> {
  await db.transaction(async (tx) => {
    const vehicle = await lockAsset(tx, orgId, assetId, 'Vehicle');
    if (vehicle.type !== 'VEHICLE') throw invalidField('assetId', `${assetLabel(vehicle)} is a trailer, not a vehicle`);
    await endAssignment(tx, orgId, actor, vehicle, new Date());
  });
  return getAssetDetail({ db, orgId }, assetId);
}

async function detachInTx(tx: DbOrTx, orgId: string, actor: Actor, vehicleId: string, trailerId: string, at: Date): Promise<boolean> {
  const closed = await tx
    .update(trailerAttachments)
    .set({ detachedAt: at })
    .where(
      and(
        eq(trailerAttachments.organizationId, orgId),
        eq(trailerAttachments.vehicleId, vehicleId),
        eq(trailerAttachments.trailerId, trailerId),
        isNull(trailerAttachments.detachedAt),
      ),
    )
    .returning({ id: trailerAttachments.id });
  if (closed.length === 0) return false;
  for (const entityId of [vehicleId, trailerId]) {
    await recordActivity(tx, { orgId, actor, action: 'DETACH_TRAILER', entityType: 'ASSET', entityId, before: { vehicleId, trailerId }, after: null });
  }
  return true;
}

/** Attaches a trailer to a vehicle; a trailer hanging on another vehicle is moved. */
export async function attachTrailer({ db, orgId, actor }: Scope, vehicleId: string, trailerId: string): Promise<AssetDetail> {
  await db.transaction(async (tx) => {
    const vehicle = await lockAsset(tx, orgId, vehicleId, 'Vehicle');
    assertActiveVehicle(vehicle, 'assetId');
    const trailer = await lockAsset(tx, orgId, trailerId, 'Trailer');
    if (trailer.type !== 'TRAILER') throw invalidField('id', `${assetLabel(trailer)} is not a trailer`);
    if (trailer.status !== 'ACTIVE') throw conflict(`${assetLabel(trailer)} is inactive; reactivate it first`);
    const [open] = await tx
      .select({ vehicleId: trailerAttachments.vehicleId })
      .from(trailerAttachments)
      .where(and(eq(trailerAttachments.trailerId, trailerId), isNull(trailerAttachments.detachedAt)));
    if (open?.vehicleId === vehicleId) return;
    const now = new Date();
    if (open) await detachInTx(tx, orgId, actor, open.vehicleId, trailerId, now);
    const [n] = await tx
      .select({ n: count() })
      .from(trailerAttachments)
      .where(and(eq(trailerAttachments.vehicleId, vehicleId), isNull(trailerAttachments.detachedAt)));
    if ((n?.n ?? 0) >= MAX_TRAILERS_PER_VEHICLE) {
      throw conflict(`${assetLabel(vehicle)} already pulls ${MAX_TRAILERS_PER_VEHICLE} trailers; detach one first`);
    }
    await tx.insert(trailerAttachments).values({ organizationId: orgId, vehicleId, trailerId, attachedAt: now });
    for (const entityId of [vehicleId, trailerId]) {
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'ATTACH_TRAILER',
        entityType: 'ASSET',
        entityId,
        before: open ? { vehicleId: open.vehicleId } : null,
        after: { vehicleId, vehicleUnit: vehicle.unitNumber, trailerId, trailerUnit: trailer.unitNumber },
      });
    }
  });
  return getAssetDetail({ db, orgId }, vehicleId);
}

/** Detaches a trailer from the vehicle; 409 when it is not attached to it. */
export async function detachTrailer({ db, orgId, actor }: Scope, vehicleId: string, trailerId: string): Promise<AssetDetail> {
  await db.transaction(async (tx) => {
    const vehicle = await lockAsset(tx, orgId, vehicleId, 'Vehicle');
    const trailer = await lockAsset(tx, orgId, trailerId, 'Trailer');
    if (!(await detachInTx(tx, orgId, actor, vehicleId, trailerId, new Date()))) {
      throw conflict(`${assetLabel(trailer)} is not attached to ${assetLabel(vehicle)}`);
    }
  });
  return getAssetDetail({ db, orgId }, vehicleId);
}

/**
 * Releases everything hanging on an asset being deactivated: its driver, its trailers (or the
 * vehicle it hangs on), its device. History rows stay; only the open ones are closed.
 */
export async function releaseAssetLinks(tx: DbOrTx, orgId: string, actor: Actor, asset: AssetRow, at: Date): Promise<void> {
  await endAssignment(tx, orgId, actor, asset, at);
  const open = await tx
    .select({ vehicleId: trailerAttachments.vehicleId, trailerId: trailerAttachments.trailerId })
    .from(trailerAttachments)
    .where(
      and(
        eq(trailerAttachments.organizationId, orgId),
        isNull(trailerAttachments.detachedAt),
        asset.type === 'VEHICLE' ? eq(trailerAttachments.vehicleId, asset.id) : eq(trailerAttachments.trailerId, asset.id),
      ),
    );
  for (const o of open) await detachInTx(tx, orgId, actor, o.vehicleId, o.trailerId, at);
  await unpairAssetInTx(tx, orgId, actor, asset.id, at);
}
