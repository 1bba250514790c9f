import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Asset } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, gateways, trailerAttachments } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { presentAsset } from './assets.presenter.ts';
import type { RowLock } from '../../db/sql/row-lock.ts';

const towingVehicle = alias(assets, 'towing_vehicle');

// Trailers hooked to a vehicle now, and an asset's groups, as JSON arrays in the same query: one
// round trip for a page instead of three. The outer table is "assets" (not aliased) in selectAssets.
// The organization is the parameter, not the outer row's: Citus keeps the sub-select on its shard.
const openTrailersJson = (orgId: string) => sql<Array<{ id: string; unitNumber: string }> | null>`(
  select json_agg(json_build_object('id', t.id, 'unitNumber', t.unit_number) order by ta.attached_at)
  from trailer_attachments ta join assets t on t.id = ta.trailer_id and t.organization_id = ta.organization_id
  where ta.organization_id = ${orgId} and ta.vehicle_id = "assets"."id" and ta.detached_at is null)`;
const groupsJson = (orgId: string) => sql<Array<{ id: string; name: string }> | null>`(
  select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
  from group_assets ga join groups g on g.id = ga.group_id and g.organization_id = ga.organization_id
  where ga.organization_id = ${orgId} and ga.asset_id = "assets"."id")`;
const openAttachment = alias(trailerAttachments, 'open_attachment');

/**
 * Assets with their links (driver, paired device, towing vehicle, attached trailers, groups),
 * presented. `where` is the filter without the organization, which is always added; with a
 * limit, two queries (the page of ids, then its rows with links), whatever the page size.
 */
export async function selectAssets(
  db: DbOrTx,
  orgId: string,
  where: SQL | undefined,
  opts: { orderBy?: SQL[]; limit?: number; offset?: number } = {},
): Promise<Asset[]> {
  // A page is chosen on the assets table alone (ids in order), then only those rows get their
  // joins and JSON sub-selects: deep pages and sorts never compute links for skipped rows.
  let pageIds: string[] | null = null;
  if (opts.limit !== undefined) {
    let ids = db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.organizationId, orgId), where))
      .$dynamic();
    if (opts.orderBy) ids = ids.orderBy(...opts.orderBy);
    pageIds = (await ids.limit(opts.limit).offset(opts.offset ?? 0)).map((r) => r.id);
    if (pageIds.length === 0) return [];
  }
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
      trailers: openTrailersJson(orgId),
      groups: groupsJson(orgId),
    })
    .from(assets)
    .leftJoin(drivers, and(eq(drivers.id, assets.currentDriverId), eq(drivers.organizationId, assets.organizationId)))
    .leftJoin(gateways, and(eq(gateways.assetId, assets.id), eq(gateways.organizationId, assets.organizationId)))
    .leftJoin(
      openAttachment,
      and(eq(openAttachment.trailerId, assets.id), eq(openAttachment.organizationId, assets.organizationId), isNull(openAttachment.detachedAt)),
    )
    .leftJoin(towingVehicle, and(eq(towingVehicle.id, openAttachment.vehicleId), eq(towingVehicle.organizationId, openAttachment.organizationId)))
    .where(and(eq(assets.organizationId, orgId), pageIds ? inArray(assets.id, pageIds) : where))
    .$dynamic();
  if (opts.orderBy && !pageIds) q = q.orderBy(...opts.orderBy);
  const fetched = await q;
  const rank = new Map(pageIds?.map((id, i) => [id, i]));
  const rows = pageIds ? fetched.sort((x, y) => (rank.get(x.asset.id) ?? 0) - (rank.get(y.asset.id) ?? 0)) : fetched;
  return rows.map((r) =>
    presentAsset(r.asset, {
      driver: r.driverId ? { id: r.driverId, firstName: r.driverFirstName ?? '', lastName: r.driverLastName ?? '' } : null,
      device: r.deviceId ? { id: r.deviceId, uniqueId: r.deviceUniqueId ?? '', name: r.deviceName ?? '', lastSeenAt: r.deviceLastSeenAt } : null,
      attachedTo: r.towingId ? { id: r.towingId, unitNumber: r.towingUnit ?? '' } : null,
      trailers: r.trailers ?? [],
      groups: r.groups ?? [],
    }),
  );
}

/**
 * The asset row locked for the rest of the transaction (serializes links and edits on one asset).
 * NO KEY UPDATE unless a delete follows: it does not hold back the key checks of rows naming the
 * asset, the group commit's positions among them (decision 0220).
 */
export async function lockAsset(tx: DbOrTx, orgId: string, assetId: string, what = 'Asset', strength: RowLock = 'no key update') {
  const [row] = await tx
    .select()
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)))
    .for(strength);
  if (!row) throw notFound(what);
  return row;
}

export const assetLabel = (a: { type: string; unitNumber: string }) => `${a.type === 'TRAILER' ? 'Trailer' : 'Vehicle'} ${a.unitNumber}`;
