import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Asset } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, gateways, trailerAttachments } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { groupsOfAssets } from '../groups/groups.filter.ts';
import { presentAsset } from './assets.presenter.ts';

const towingVehicle = alias(assets, 'towing_vehicle');
const openAttachment = alias(trailerAttachments, 'open_attachment');

/**
 * Assets with their links (driver, paired device, towing vehicle, attached trailers, groups),
 * presented. `where` must include the organization condition; three queries whatever the count.
 */
export async function selectAssets(
  db: DbOrTx,
  orgId: string,
  where: SQL | undefined,
  opts: { orderBy?: SQL[]; limit?: number; offset?: number } = {},
): Promise<Asset[]> {
  let q = db
    .select({
      asset: assets,
      driverId: drivers.id,
      driverFirstName: drivers.firstName,
      driverLastName: drivers.lastName,
      deviceId: gateways.id,
      deviceUniqueId: gateways.uniqueId,
      deviceName: gateways.name,
      deviceLastSeenAt: gateways.lastSeenAt,
      towingId: towingVehicle.id,
      towingUnit: towingVehicle.unitNumber,
    })
    .from(assets)
    .leftJoin(drivers, eq(drivers.id, assets.currentDriverId))
    .leftJoin(gateways, eq(gateways.assetId, assets.id))
    .leftJoin(openAttachment, and(eq(openAttachment.trailerId, assets.id), isNull(openAttachment.detachedAt)))
    .leftJoin(towingVehicle, eq(towingVehicle.id, openAttachment.vehicleId))
    .where(and(eq(assets.organizationId, orgId), where))
    .$dynamic();
  if (opts.orderBy) q = q.orderBy(...opts.orderBy);
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset) q = q.offset(opts.offset);
  const rows = await q;
  const ids = rows.map((r) => r.asset.id);
  const vehicleIds = rows.filter((r) => r.asset.type === 'VEHICLE').map((r) => r.asset.id);
  const [trailers, groups] = await Promise.all([trailersOf(db, orgId, vehicleIds), groupsOfAssets(db, orgId, ids)]);
  return rows.map((r) =>
    presentAsset(r.asset, {
      driver: r.driverId ? { id: r.driverId, firstName: r.driverFirstName ?? '', lastName: r.driverLastName ?? '' } : null,
      device: r.deviceId ? { id: r.deviceId, uniqueId: r.deviceUniqueId ?? '', name: r.deviceName ?? '', lastSeenAt: r.deviceLastSeenAt } : null,
      attachedTo: r.towingId ? { id: r.towingId, unitNumber: r.towingUnit ?? '' } : null,
      trailers: trailers.get(r.asset.id) ?? [],
      groups: groups.get(r.asset.id) ?? [],
    }),
  );
}

async function trailersOf(db: DbOrTx, orgId: string, vehicleIds: string[]): Promise<Map<string, Array<{ id: string; unitNumber: string }>>> {
  const out = new Map<string, Array<{ id: string; unitNumber: string }>>();
  if (vehicleIds.length === 0) return out;
  const rows = await db
    .select({ vehicleId: trailerAttachments.vehicleId, id: assets.id, unitNumber: assets.unitNumber })
    .from(trailerAttachments)
    .innerJoin(assets, eq(assets.id, trailerAttachments.trailerId))
    .where(and(eq(trailerAttachments.organizationId, orgId), inArray(trailerAttachments.vehicleId, vehicleIds), isNull(trailerAttachments.detachedAt)))
    .orderBy(trailerAttachments.attachedAt);
  for (const r of rows) out.set(r.vehicleId, [...(out.get(r.vehicleId) ?? []), { id: r.id, unitNumber: r.unitNumber }]);
  return out;
}

/** One presented asset of the organization, or 404. */
export async function getPresentedAsset(db: DbOrTx, orgId: string, assetId: string): Promise<Asset> {
  const [a] = await selectAssets(db, orgId, eq(assets.id, assetId));
  if (!a) throw notFound('Asset');
  return a;
}

/** The asset row locked for the rest of the transaction (serializes links on one asset). */
export async function lockAsset(tx: DbOrTx, orgId: string, assetId: string, what = 'Asset') {
  const [row] = await tx
    .select()
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)))
    .for('update');
  if (!row) throw notFound(what);
  return row;
}

export const assetLabel = (a: { type: string; unitNumber: string }) => `${a.type === 'TRAILER' ? 'Trailer' : 'Vehicle'} ${a.unitNumber}`;

/** Count of rows as an int on both drivers. */
export const countAll = sql<number>`count(*)::int`;
