import { asc, and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Asset, AssetDetail, AssetInput, AssetListItem, Page, RemovalResult } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assetDriverAssignments, assets, assetSearchDoc, gatewayPairings, trailerAttachments } from '../../db/schema/index.ts';
import { invalidField } from '../../http/errors.ts';
import { foreignKeyViolation } from '../../db/sql/pg-error.ts';
import { likeTerm, orderBy, sortKey } from '../../http/paging.ts';
import type { ReadScope, Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { assetInGroup } from '../groups/index.ts';
import { releaseAssetLinks } from './asset-links.service.ts';
import { getAssetDetail } from './asset-detail.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { selectAssetPage } from './assets.list-query.ts';
import { assetLabel, lockAsset } from './assets.repository.ts';
import { vehicleOdometers } from './vehicle-odometer.ts';

export interface AssetFilter {
  type?: 'VEHICLE' | 'TRAILER';
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
  search?: string;
}

const SORTS = {
  unitNumber: sql`lower(${assets.unitNumber})`,
  vin: assets.vin,
  make: sql`lower(${assets.make})`,
  model: sql`lower(${assets.model})`,
  year: assets.year,
  plate: assets.plate,
  status: assets.status,
  type: assets.type,
  createdAt: assets.createdAt,
  updatedAt: assets.updatedAt,
};

/** WHERE of the asset list (without the organization, which every query adds). */
export function assetConditions(orgId: string, f: AssetFilter): SQL | undefined {
  return and(
    f.type ? eq(assets.type, f.type) : undefined,
    f.status ? eq(assets.status, f.status) : undefined,
    f.group ? assetInGroup(orgId, f.group, assets.id) : undefined,
    f.search ? sql`${assetSearchDoc} like ${likeTerm(f.search)}` : undefined,
  );
}

/** A page of vehicles and/or trailers: searched, filtered, sorted (unit number by default). */
export async function listAssets({ db, orgId }: ReadScope, q: AssetFilter & { page: number; size: number; sort?: string }): Promise<Page<Asset>> {
  const order = orderBy(q.sort, SORTS, 'unitNumber', asc(assets.id));
  return selectAssetPage(db, orgId, q, { page: q.page, size: q.size, sortKey: sortKey(q.sort, 'unitNumber'), order });
}

/** The list's page with each vehicle's odometer now, as its page shows it (issue 66: one odometer on every screen). */
export async function listAssetRows(scope: ReadScope, q: AssetFilter & { page: number; size: number; sort?: string }): Promise<Page<AssetListItem>> {
  const page = await listAssets(scope, q);
  const vehicles = page.content.filter((a) => a.type === 'VEHICLE').map((a) => a.id);
  const odometers = await vehicleOdometers(scope.db, scope.orgId, vehicles);
  return {
    ...page,
    content: page.content.map((a) => {
      const o = odometers.get(a.id);
      return { ...a, currentOdometer: o ? { km: Math.round(o.metres / 100) / 10, source: o.source, at: o.at?.toISOString() ?? null } : null };
    }),
  };
}

/** Column values of an asset row from the form input (metric storage). */
export function assetValues(input: AssetInput) {
  const common = {
    unitNumber: input.unitNumber,
    vin: input.vin,
    make: input.make,
    model: input.model,
    year: input.year,
    plate: input.plate,
    plateState: input.plateState,
    status: input.status,
    notes: input.notes,
  };
  return input.type === 'VEHICLE'
    ? {
        ...common,
        type: 'VEHICLE' as const,
        fuelType: input.fuelType,
        iftaQualified: input.iftaQualified,
        odometerM: input.odometerKm === null ? null : input.odometerKm * 1000,
        tankCapacityL: input.tankCapacityL,
        trailerType: null,
        lengthM: null,
      }
    : {
        ...common,
        type: 'TRAILER' as const,
        fuelType: null,
        iftaQualified: false,
        odometerM: null,
        tankCapacityL: null,
        trailerType: input.trailerType,
        lengthM: input.lengthM,
      };
}

export async function createAsset({ db, orgId, actor }: Scope, input: AssetInput): Promise<AssetDetail> {
  try {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(assets)
        .values({ organizationId: orgId, ...assetValues(input) })
        .returning();
      if (!row) throw new Error('asset insert returned nothing');
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'ASSET', entityId: row.id, after: row });
      return row.id;
    });
    return await getAssetDetail({ db, orgId }, id);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

export async function getAsset(scope: ReadScope, assetId: string): Promise<AssetDetail> {
  return getAssetDetail(scope, assetId);
}

/** Edits a vehicle or trailer; deactivating it releases its driver, trailers and device. */
export async function updateAsset({ db, orgId, actor }: Scope, assetId: string, input: AssetInput): Promise<AssetDetail> {
  try {
    await db.transaction(async (tx) => {
      const before = await lockAsset(tx, orgId, assetId);
      if (before.type !== input.type) throw invalidField('type', `${assetLabel(before)} cannot become a ${input.type.toLowerCase()}`);
      const now = new Date();
      if (before.status === 'ACTIVE' && input.status === 'INACTIVE') await releaseAssetLinks(tx, orgId, actor, before, now);
      const [after] = await tx
        .update(assets)
        .set({ ...assetValues(input), updatedAt: now })
        .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)))
        .returning();
      await recordActivity(tx, { orgId, actor, action: 'UPDATE', entityType: 'ASSET', entityId: assetId, before, after });
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
  return getAssetDetail({ db, orgId }, assetId);
}

/** True when history rows (assignments, attachments, pairings) reference the asset. */
async function hasHistory(tx: DbOrTx, assetId: string): Promise<boolean> {
  const checks = [
    tx.select({ id: assetDriverAssignments.id }).from(assetDriverAssignments).where(eq(assetDriverAssignments.assetId, assetId)).limit(1),
    tx
      .select({ id: trailerAttachments.id })
      .from(trailerAttachments)
      .where(or(eq(trailerAttachments.vehicleId, assetId), eq(trailerAttachments.trailerId, assetId)))
      .limit(1),
    tx.select({ id: gatewayPairings.id }).from(gatewayPairings).where(eq(gatewayPairings.assetId, assetId)).limit(1),
  ];
  for (const check of checks) if ((await check).length > 0) return true;
  return false;
}

/**
 * Deletes an asset nothing references; one with history (or referenced by other features'
 * records) is deactivated instead, so logs and reports keep pointing at it.
 */
export async function removeAsset({ db, orgId, actor }: Scope, assetId: string): Promise<RemovalResult> {
  return db.transaction(async (tx) => {
    // FOR UPDATE: the delete below needs it, and no position lands between the check and the delete.
    const before = await lockAsset(tx, orgId, assetId, 'Asset', 'update');
    const label = assetLabel(before);
    if (!(await hasHistory(tx, assetId))) {
      try {
        // A savepoint: a foreign key of another feature (positions, logs) makes it a deactivation.
        await tx.transaction(async (sp) => {
          await sp.delete(assets).where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)));
          await recordActivity(sp, { orgId, actor, action: 'DELETE', entityType: 'ASSET', entityId: assetId, before });
        });
        return { result: 'DELETED' as const, message: `${label} was deleted` };
      } catch (err) {
        if (!foreignKeyViolation(err)) throw err;
      }
    }
    const now = new Date();
    if (before.status === 'ACTIVE') await releaseAssetLinks(tx, orgId, actor, before, now);
    const [after] = await tx.update(assets).set({ status: 'INACTIVE', updatedAt: now }).where(eq(assets.id, assetId)).returning();
    await recordActivity(tx, { orgId, actor, action: 'DEACTIVATE', entityType: 'ASSET', entityId: assetId, before, after });
    return { result: 'DEACTIVATED' as const, message: `${label} has history, so it was deactivated instead of deleted` };
  });
}
