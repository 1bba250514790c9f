import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Gateway, GatewayDetail } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, deviceModels, gatewayPairings, gateways } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RowLock } from '../../db/sql/row-lock.ts';
import { groupsOfAssets } from '../groups/index.ts';
import { engineDataSeen, noEngineData } from './engine-data-seen.ts';

/** Devices with their model and paired vehicle, presented (never the ingest token hash). */
export async function selectGateways(
  db: DbOrTx,
  orgId: string,
  where: SQL | undefined,
  opts: { orderBy?: SQL[]; limit?: number; offset?: number } = {},
): Promise<Gateway[]> {
  let q = db
    .select({
      g: gateways,
      model: { id: deviceModels.id, name: deviceModels.name, manufacturer: deviceModels.manufacturer, protocol: deviceModels.protocol },
      asset: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type },
    })
    .from(gateways)
    .leftJoin(deviceModels, eq(deviceModels.id, gateways.deviceModelId))
    .leftJoin(assets, and(eq(assets.id, gateways.assetId), eq(assets.organizationId, gateways.organizationId)))
    .where(and(eq(gateways.organizationId, orgId), where))
    .$dynamic();
  if (opts.orderBy) q = q.orderBy(...opts.orderBy);
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset) q = q.offset(opts.offset);
  const rows = await q;
  // A device is in the groups of the vehicle it is paired with.
  const groups = await groupsOfAssets(
    db,
    orgId,
    rows.flatMap((r) => (r.g.assetId ? [r.g.assetId] : [])),
  );
  const engine = await engineDataSeen(
    db,
    orgId,
    rows.map((r) => r.g.id),
  );
  return rows.map(({ g, model, asset }) => ({
    id: g.id,
    organizationId: g.organizationId,
    uniqueId: g.uniqueId,
    name: g.name,
    deviceModel: model?.id ? model : null,
    phone: g.phone,
    firmware: g.firmware,
    status: g.status,
    asset: asset?.id ? asset : null,
    lastSeenAt: g.lastSeenAt?.toISOString() ?? null,
    hasIngestToken: g.ingestTokenHash !== null,
    engineData: engine.get(g.id) ?? noEngineData(),
    notes: g.notes,
    useReceivedTime: g.useReceivedTime,
    groups: g.assetId ? (groups.get(g.assetId) ?? []) : [],
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  }));
}

/** Device detail (devices/{id}): model, paired vehicle, pairing history, last seen. */
export async function getGatewayDetail(db: DbOrTx, orgId: string, id: string): Promise<GatewayDetail> {
  const [g] = await selectGateways(db, orgId, eq(gateways.id, id));
  if (!g) throw notFound('Device');
  const history = await db
    .select({ p: gatewayPairings, a: { id: assets.id, unitNumber: assets.unitNumber, type: assets.type } })
    .from(gatewayPairings)
    .innerJoin(assets, and(eq(assets.id, gatewayPairings.assetId), eq(assets.organizationId, gatewayPairings.organizationId)))
    .where(and(eq(gatewayPairings.organizationId, orgId), eq(gatewayPairings.gatewayId, id)))
    .orderBy(desc(gatewayPairings.pairedAt))
    .limit(50);
  return {
    ...g,
    pairingHistory: history.map((r) => ({ from: r.p.pairedAt.toISOString(), to: r.p.unpairedAt?.toISOString() ?? null, asset: r.a })),
  };
}

/** Locks the organization's device row for a change (404 when it is not the organization's). */
export async function lockGateway(tx: DbOrTx, orgId: string, id: string, strength: RowLock = 'no key update') {
  const [g] = await tx
    .select()
    .from(gateways)
    .where(and(eq(gateways.id, id), eq(gateways.organizationId, orgId)))
    .for(strength);
  if (!g) throw notFound('Device');
  return g;
}
