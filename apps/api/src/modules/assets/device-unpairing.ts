import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { gatewayPairings, gateways } from '../../db/schema/index.ts';
import type { Actor } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';

// Ending a device's pairing: the pairing is one of an asset's links (as a driver's assignment and a
// trailer's attachment are), so it ends here, where a deactivated asset releases its links; the
// gateways module, which pairs devices to assets, stands above assets and ends pairings through this.

type GatewayRow = typeof gateways.$inferSelect;

/** Closes the device's open pairing and clears `gateways.asset_id`; nothing when unpaired. */
export async function unpairInTx(tx: DbOrTx, orgId: string, actor: Actor, g: GatewayRow, at: Date): Promise<void> {
  if (!g.assetId) return;
  await tx
    .update(gatewayPairings)
    .set({ unpairedAt: at })
    .where(and(eq(gatewayPairings.gatewayId, g.id), isNull(gatewayPairings.unpairedAt)));
  await tx.update(gateways).set({ assetId: null, updatedAt: at }).where(eq(gateways.id, g.id));
  for (const [entityType, entityId] of [
    ['GATEWAY', g.id],
    ['ASSET', g.assetId],
  ] as const) {
    await recordActivity(tx, {
      orgId,
      actor,
      action: 'UNPAIR_DEVICE',
      entityType,
      entityId,
      before: { gatewayId: g.id, uniqueId: g.uniqueId, assetId: g.assetId },
      after: null,
    });
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
