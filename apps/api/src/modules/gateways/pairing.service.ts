import { and, eq, isNull } from 'drizzle-orm';
import type { GatewayDetail } from '@fleet/api-contract';
import type { Db, DbOrTx } from '../../db/client.ts';
import { gatewayPairings, gateways } from '../../db/schema/index.ts';
import { conflict, invalidField, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../plugins/types.ts';
import { recordActivity } from '../activity-log/activity-log.service.ts';
import { assetLabel, lockAsset } from '../assets/assets.repository.ts';
import { getGatewayDetail } from './gateways.repository.ts';

interface Scope {
  db: Db;
  orgId: string;
  actor: Actor;
}

export async function lockGateway(tx: DbOrTx, orgId: string, id: string) {
  const [g] = await tx
    .select()
    .from(gateways)
    .where(and(eq(gateways.id, id), eq(gateways.organizationId, orgId)))
    .for('update');
  if (!g) throw notFound('Device');
  return g;
}

type GatewayRow = typeof gateways.$inferSelect;

/** Closes the device's open pairing and clears `gateways.asset_id`; nothing when unpaired. */
async function unpairInTx(tx: DbOrTx, orgId: string, actor: Actor, g: GatewayRow, at: Date): Promise<void> {
  if (!g.assetId) return;
  await tx
    .update(gatewayPairings)
    .set({ unpairedAt: at })
    .where(and(eq(gatewayPairings.gatewayId, g.id), isNull(gatewayPairings.unpairedAt)));
  await tx.update(gateways).set({ assetId: null, updatedAt: at }).where(eq(gateways.id, g.id));
  for (const [entityType, entityId] of [['GATEWAY', g.id], ['ASSET', g.assetId]] as const) {
    await recordActivity(tx, { orgId, actor, action: 'UNPAIR_DEVICE', entityType, entityId, before: { gatewayId: g.id, uniqueId: g.uniqueId, assetId: g.assetId }, after: null });
  }
}

/** Unpairs whatever device is paired to the asset (used when the asset is deactivated). */
export async function unpairAssetInTx(tx: DbOrTx, orgId: string, actor: Actor, assetId: string, at: Date): Promise<void> {
  const [g] = await tx
    .select()
    .from(gateways)
    .where(and(eq(gateways.organizationId, orgId), eq(gateways.assetId, assetId)))
    .for('update');
  if (g) await unpairInTx(tx, orgId, actor, g, at);
}

/**
 * Pairs a device with a vehicle: one device per vehicle at a time. A device paired elsewhere is
 * moved (its old pairing closed); a vehicle that already has another device answers 409.
 */
export async function pairDevice({ db, orgId, actor }: Scope, gatewayId: string, assetId: string): Promise<GatewayDetail> {
  await db.transaction(async (tx) => {
    const g = await lockGateway(tx, orgId, gatewayId);
    if (g.status !== 'ACTIVE') throw conflict(`Device ${g.name} is inactive; reactivate it first`);
    const vehicle = await lockAsset(tx, orgId, assetId, 'Vehicle');
    if (vehicle.type !== 'VEHICLE') throw invalidField('assetId', `${assetLabel(vehicle)} is a trailer; devices pair with vehicles`);
    if (vehicle.status !== 'ACTIVE') throw conflict(`${assetLabel(vehicle)} is inactive; reactivate it first`);
    if (g.assetId === assetId) return;
    const [occupant] = await tx.select().from(gateways).where(and(eq(gateways.assetId, assetId), eq(gateways.organizationId, orgId)));
    if (occupant) throw conflict(`${assetLabel(vehicle)} already has device ${occupant.name} (${occupant.uniqueId}); unpair it first`);
    const now = new Date();
    await unpairInTx(tx, orgId, actor, g, now);
    await tx.update(gateways).set({ assetId, updatedAt: now }).where(eq(gateways.id, g.id));
    await tx.insert(gatewayPairings).values({ organizationId: orgId, gatewayId: g.id, assetId, pairedAt: now });
    for (const [entityType, entityId] of [['GATEWAY', g.id], ['ASSET', assetId]] as const) {
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'PAIR_DEVICE',
        entityType,
        entityId,
        before: { assetId: g.assetId },
        after: { gatewayId: g.id, uniqueId: g.uniqueId, assetId, unitNumber: vehicle.unitNumber },
      });
    }
  });
  return getGatewayDetail(db, orgId, gatewayId);
}

/** Unpairs the device; nothing changes when it is not paired. */
export async function unpairDevice({ db, orgId, actor }: Scope, gatewayId: string): Promise<GatewayDetail> {
  await db.transaction(async (tx) => {
    const g = await lockGateway(tx, orgId, gatewayId);
    await unpairInTx(tx, orgId, actor, g, new Date());
  });
  return getGatewayDetail(db, orgId, gatewayId);
}
