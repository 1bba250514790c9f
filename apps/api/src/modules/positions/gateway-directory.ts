import { createHash } from 'node:crypto';
import { and, desc, eq, isNull, lte, or, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { assetDriverAssignments, assets, gatewayPairings, gateways } from '../../db/schema/index.ts';

/** What ingest needs to know about a device, cached for a few seconds (thousands of requests a second). */
export interface GatewayInfo {
  id: string;
  orgId: string;
  uniqueId: string;
  assetId: string | null;
  /** Since when assetId is paired (null: no pairing history, take it as always). */
  pairedSince: Date | null;
  driverId: string | null;
  driverSince: Date | null;
}

const TTL_MS = 5000;

export const hashIngestToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Resolves devices by unique id or batch token. Pairing and driver changes reach ingest within
 * TTL_MS; fixes older than the current pairing or assignment are attributed from the history tables.
 */
export class GatewayDirectory {
  private byUnique = new Map<string, { at: number; info: GatewayInfo | null }>();
  private byToken = new Map<string, { at: number; info: GatewayInfo | null }>();

  constructor(private readonly db: Db) {}

  async byUniqueId(uniqueId: string): Promise<GatewayInfo | null> {
    const hit = this.byUnique.get(uniqueId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
    const info = await this.load(eq(gateways.uniqueId, uniqueId));
    this.remember(this.byUnique, uniqueId, info);
    return info;
  }

  async byIngestToken(token: string): Promise<GatewayInfo | null> {
    const hash = hashIngestToken(token);
    const hit = this.byToken.get(hash);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
    const info = await this.load(eq(gateways.ingestTokenHash, hash));
    this.remember(this.byToken, hash, info);
    return info;
  }

  /** Forget everything (tests that re-pair devices). */
  clear(): void {
    this.byUnique.clear();
    this.byToken.clear();
  }

  private remember(map: Map<string, { at: number; info: GatewayInfo | null }>, key: string, info: GatewayInfo | null) {
    if (map.size > 100_000) map.clear();
    map.set(key, { at: Date.now(), info });
  }

  private async load(where: ReturnType<typeof eq>): Promise<GatewayInfo | null> {
    const rows = await this.db
      .select({
        id: gateways.id,
        orgId: gateways.organizationId,
        uniqueId: gateways.uniqueId,
        status: gateways.status,
        assetId: gateways.assetId,
        driverId: assets.currentDriverId,
        pairedSince: sql<string | null>`(select max(${gatewayPairings.pairedAt}) from ${gatewayPairings} where ${gatewayPairings.gatewayId} = ${gateways.id} and ${gatewayPairings.unpairedAt} is null)`,
        driverSince: sql<string | null>`(select max(${assetDriverAssignments.startedAt}) from ${assetDriverAssignments} where ${assetDriverAssignments.assetId} = ${gateways.assetId} and ${assetDriverAssignments.endedAt} is null)`,
      })
      .from(gateways)
      .leftJoin(assets, eq(assets.id, gateways.assetId))
      .where(where)
      .limit(1);
    const r = rows[0];
    // An inactive device is treated as unknown: it may not report.
    if (!r || r.status !== 'ACTIVE') return null;
    return {
      id: r.id,
      orgId: r.orgId,
      uniqueId: r.uniqueId,
      assetId: r.assetId,
      driverId: r.assetId ? r.driverId : null,
      pairedSince: r.pairedSince ? new Date(r.pairedSince) : null,
      driverSince: r.driverSince ? new Date(r.driverSince) : null,
    };
  }

  /** The vehicle and driver at `fixTime`: the current ones, or from history for older fixes. */
  async attribution(gw: GatewayInfo, fixTime: Date): Promise<{ assetId: string | null; driverId: string | null }> {
    let assetId = gw.assetId;
    let driverId = gw.driverId;
    if (!gw.pairedSince || fixTime >= gw.pairedSince) {
      if (!gw.driverSince || fixTime >= gw.driverSince || !assetId) return { assetId, driverId };
    } else {
      const p = await this.db
        .select({ assetId: gatewayPairings.assetId })
        .from(gatewayPairings)
        .where(and(eq(gatewayPairings.gatewayId, gw.id), lte(gatewayPairings.pairedAt, fixTime), or(isNull(gatewayPairings.unpairedAt), gt(gatewayPairings.unpairedAt, fixTime))))
        .orderBy(desc(gatewayPairings.pairedAt))
        .limit(1);
      assetId = p[0]?.assetId ?? null;
    }
    if (!assetId) return { assetId: null, driverId: null };
    const a = await this.db
      .select({ driverId: assetDriverAssignments.driverId })
      .from(assetDriverAssignments)
      .where(and(eq(assetDriverAssignments.assetId, assetId), lte(assetDriverAssignments.startedAt, fixTime), or(isNull(assetDriverAssignments.endedAt), gt(assetDriverAssignments.endedAt, fixTime))))
      .orderBy(desc(assetDriverAssignments.startedAt))
      .limit(1);
    driverId = a[0]?.driverId ?? null;
    return { assetId, driverId };
  }
}
