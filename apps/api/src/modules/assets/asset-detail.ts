import { and, desc, eq, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AssetDetail } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { activityLog, assetDriverAssignments, assets, drivers, gatewayPairings, gateways, trailerAttachments } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { selectListedAsset } from './assets.list-query.ts';
import { vehicleOdometerAt } from './vehicle-odometer.ts';

const HISTORY_LIMIT = 20;
const ACTIVITY_LIMIT = 15;
const other = alias(assets, 'other_asset');

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Vehicle or trailer detail: the record, driver/trailer/device history and recent activity. */
export async function getAssetDetail({ db, orgId }: { db: DbOrTx; orgId: string }, assetId: string): Promise<AssetDetail> {
  // The record exactly as the list shows it (assets.test checks they agree).
  const asset = await selectListedAsset(db, orgId, assetId);
  if (!asset) throw notFound('Asset');
  const [odometer, driverHistory, trailerHistory, deviceHistory, activity] = await Promise.all([
    asset.type === 'VEHICLE' ? vehicleOdometerAt(db, orgId, assetId) : null,
    db
      .select({ a: assetDriverAssignments, d: { id: drivers.id, firstName: drivers.firstName, lastName: drivers.lastName } })
      .from(assetDriverAssignments)
      .innerJoin(drivers, and(eq(drivers.id, assetDriverAssignments.driverId), eq(drivers.organizationId, assetDriverAssignments.organizationId)))
      .where(and(eq(assetDriverAssignments.organizationId, orgId), eq(assetDriverAssignments.assetId, assetId)))
      .orderBy(desc(assetDriverAssignments.startedAt))
      .limit(HISTORY_LIMIT),
    db
      .select({ t: trailerAttachments, o: { id: other.id, unitNumber: other.unitNumber, type: other.type } })
      .from(trailerAttachments)
      .innerJoin(
        other,
        and(
          // Outside the OR: Citus co-locates the join only on an equality of the organization.
          eq(other.organizationId, trailerAttachments.organizationId),
          or(
            and(eq(trailerAttachments.vehicleId, assetId), eq(other.id, trailerAttachments.trailerId)),
            and(eq(trailerAttachments.trailerId, assetId), eq(other.id, trailerAttachments.vehicleId)),
          ),
        ),
      )
      .where(eq(trailerAttachments.organizationId, orgId))
      .orderBy(desc(trailerAttachments.attachedAt))
      .limit(HISTORY_LIMIT),
    db
      .select({ p: gatewayPairings, g: { id: gateways.id, uniqueId: gateways.uniqueId, name: gateways.name, lastSeenAt: gateways.lastSeenAt } })
      .from(gatewayPairings)
      .innerJoin(gateways, and(eq(gateways.id, gatewayPairings.gatewayId), eq(gateways.organizationId, gatewayPairings.organizationId)))
      .where(and(eq(gatewayPairings.organizationId, orgId), eq(gatewayPairings.assetId, assetId)))
      .orderBy(desc(gatewayPairings.pairedAt))
      .limit(HISTORY_LIMIT),
    db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.organizationId, orgId), eq(activityLog.entityId, assetId)))
      .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
      .limit(ACTIVITY_LIMIT),
  ]);
  return {
    ...asset,
    currentOdometer: odometer ? { km: Math.round(odometer.metres / 100) / 10, source: odometer.source, at: iso(odometer.at) } : null,
    driverHistory: driverHistory.map((r) => ({ from: r.a.startedAt.toISOString(), to: iso(r.a.endedAt), driver: r.d })),
    trailerHistory: trailerHistory.map((r) => ({ from: r.t.attachedAt.toISOString(), to: iso(r.t.detachedAt), asset: r.o })),
    deviceHistory: deviceHistory.map((r) => ({
      from: r.p.pairedAt.toISOString(),
      to: iso(r.p.unpairedAt),
      device: { ...r.g, lastSeenAt: iso(r.g.lastSeenAt) },
    })),
    recentActivity: activity.map((r) => ({
      id: r.id,
      action: r.action,
      entityType: r.entityType,
      actorEmail: r.actorEmail,
      createdAt: r.createdAt.toISOString(),
      changes: jsonChanges(r.changes),
    })),
  };
}

/** The activity row's jsonb: JSON by construction (the database stored it), typed as the contract's JSON values. */
const jsonChanges = (changes: { before?: unknown; after?: unknown } | null) => changes as AssetDetail['recentActivity'][number]['changes'];
