import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets, drivers, places } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';

// The ids a load points at must be the organization's (decision 0166): another organization's or an
// unknown id is a 400 naming the field, as the maintenance and IFTA forms answer a foreign vehicle.
// The tractor must be a vehicle and the trailer a trailer.

export interface LoadRefs {
  driverIds: readonly string[];
  assetId?: string | null;
  trailerId?: string | null;
  customerPlaceId?: string | null;
  /** Each stop's place, in stop order (the path is `stops.{i}.placeId`). */
  stopPlaceIds?: ReadonlyArray<string | null | undefined>;
}

/** The places that are the organization's, with their centre (an import fills a stop's position from it). */
export async function orgPlaces(db: DbOrTx, orgId: string, ids: readonly string[]): Promise<Map<string, { name: string; lat: number; lon: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: places.id, name: places.name, minLat: places.minLat, maxLat: places.maxLat, minLon: places.minLon, maxLon: places.maxLon })
    .from(places)
    .where(and(eq(places.organizationId, orgId), inArray(places.id, [...new Set(ids)])));
  return new Map(rows.map((p) => [p.id, { name: p.name, lat: (p.minLat + p.maxLat) / 2, lon: (p.minLon + p.maxLon) / 2 }]));
}

/** 400 naming the first field whose id is not the organization's (or not of the right kind). */
export async function checkLoadRefs(db: DbOrTx, orgId: string, r: LoadRefs): Promise<void> {
  if (r.driverIds.length) {
    const found = await db
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(eq(drivers.organizationId, orgId), inArray(drivers.id, [...r.driverIds])));
    if (found.length !== new Set(r.driverIds).size) throw invalidField('driverIds', 'Drivers must be drivers of this organization');
  }
  const unit = async (id: string | null | undefined, type: 'VEHICLE' | 'TRAILER', field: string, message: string) => {
    if (!id) return;
    const [a] = await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.id, id), eq(assets.organizationId, orgId), eq(assets.type, type)));
    if (!a) throw invalidField(field, message);
  };
  await unit(r.assetId, 'VEHICLE', 'assetId', 'Tractor must be a vehicle of this organization');
  await unit(r.trailerId, 'TRAILER', 'trailerId', 'Trailer must be a trailer of this organization');
  const wanted = [r.customerPlaceId, ...(r.stopPlaceIds ?? [])].filter((id): id is string => !!id);
  const known = await orgPlaces(db, orgId, wanted);
  if (r.customerPlaceId && !known.has(r.customerPlaceId)) throw invalidField('customerPlaceId', 'Customer place must be a place of this organization');
  r.stopPlaceIds?.forEach((id, i) => {
    if (id && !known.has(id)) throw invalidField(`stops.${i}.placeId`, 'Place must be a place of this organization');
  });
}

/** The tractor of an assignment: the one given, else the lead driver's current vehicle (`undefined` = not given; `null` = none). */
export async function tractorOf(db: DbOrTx, orgId: string, given: string | null | undefined, leadDriverId: string | undefined): Promise<string | null> {
  if (given !== undefined) return given;
  if (!leadDriverId) return null;
  const [a] = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), eq(assets.currentDriverId, leadDriverId), eq(assets.type, 'VEHICLE')));
  return a?.id ?? null;
}
