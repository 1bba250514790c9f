import { createHash } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { assetDriverAssignments, assets, deviceIds, gatewayPairings, gateways } from '../../../db/schema/index.ts';

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
  /** Store fixes at the time received, not the device's clock (the device's setting, Traccar's `time.override`). */
  useReceivedTime: boolean;
}

/** How long a device's pairing is trusted from memory (exported: a pairing sweeps once more after it). */
export const TTL_MS = 5000;
const REFRESH_BATCH_MS = 100;

interface Entry {
  at: number;
  info: GatewayInfo | null;
  refreshing: boolean;
}

export const hashIngestToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The current vehicle and driver when they were already in place at `fixTime` (the common case:
 * a live fix), answered without a promise; null when the fix predates them and history decides.
 */
export function currentAttribution(gw: GatewayInfo, fixTime: Date): { assetId: string | null; driverId: string | null } | null {
  if (gw.pairedSince && fixTime < gw.pairedSince) return null;
  if (gw.assetId && gw.driverSince && fixTime < gw.driverSince) return null;
  return { assetId: gw.assetId, driverId: gw.driverId };
}

/**
 * Resolves devices by unique id or batch token. Pairing and driver changes reach ingest within
 * about TTL_MS; fixes older than the current pairing or assignment are attributed from the history
 * tables.
 */
export class GatewayDirectory {
  private byUnique = new Map<string, Entry>();
  private byToken = new Map<string, Entry>();
  private pending = new Map<string, Array<{ resolve: (info: GatewayInfo | null) => void; reject: (err: unknown) => void }>>();
  private pendingTimer: NodeJS.Timeout | null = null;
  private refreshing = new Set<string>();
  private refreshTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    /** Devices (and unknown ids) remembered at most, by unique id and by token each (DEVICE_CACHE_ENTRIES). */
    readonly maxEntries = 50_000,
  ) {}

  get size(): number {
    return this.byUnique.size + this.byToken.size;
  }

  /**
   * The device with this unique id. A known entry is answered from memory at once; after TTL_MS it
   * is refreshed in the background (the hot path never waits on the database). Misses arriving
   * together are looked up with one query.
   */
  async byUniqueId(uniqueId: string): Promise<GatewayInfo | null> {
    const hit = this.byUnique.get(uniqueId);
    if (hit) {
      if (Date.now() - hit.at >= TTL_MS && !hit.refreshing) {
        hit.refreshing = true;
        this.queueRefresh(uniqueId);
      }
      return hit.info;
    }
    return this.lookup(uniqueId);
  }

  /**
   * Background refreshes are gathered for REFRESH_BATCH_MS and loaded with one query: a thousand
   * devices reporting every second would otherwise cost a query every few milliseconds.
   */
  private queueRefresh(uniqueId: string): void {
    this.refreshing.add(uniqueId);
    this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = null;
      const ids = [...this.refreshing];
      this.refreshing.clear();
      this.reread(ids)
        .then((found) => {
          for (const id of ids) this.remember(this.byUnique, id, found.get(id) ?? null);
        })
        .catch(() => {
          // Keep serving the cached entries; the next request after TTL retries.
          for (const id of ids) {
            const e = this.byUnique.get(id);
            if (e) e.refreshing = false;
          }
        });
    }, REFRESH_BATCH_MS);
    this.refreshTimer.unref();
  }

  async byIngestToken(token: string): Promise<GatewayInfo | null> {
    const hash = hashIngestToken(token);
    const hit = this.byToken.get(hash);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
    const info = (await this.resolve(eq(deviceIds.ingestTokenHash, hash)))[0] ?? null;
    this.remember(this.byToken, hash, info);
    return info;
  }

  /**
   * Forgets one device (after its pairing changed here), so this instance's next fix of it reads
   * the new pairing at once; other instances learn it within TTL_MS.
   */
  forget(gatewayId: string): void {
    for (const map of [this.byUnique, this.byToken]) {
      for (const [key, e] of map) if (e.info?.id === gatewayId) map.delete(key);
    }
  }

  /** Forgets what is remembered of a unique id (a device just registered with it: no longer unknown here). */
  forgetUniqueId(uniqueId: string): void {
    this.byUnique.delete(uniqueId);
  }

  /** Forget everything (tests that re-pair devices). */
  clear(): void {
    this.byUnique.clear();
    this.byToken.clear();
  }

  private lookup(uniqueId: string): Promise<GatewayInfo | null> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(uniqueId);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(uniqueId, [{ resolve, reject }]);
      this.pendingTimer ??= setTimeout(() => {
        this.pendingTimer = null;
        const batch = this.pending;
        this.pending = new Map();
        this.resolve(inArray(deviceIds.uniqueId, [...batch.keys()]))
          .then((infos) => {
            const found = new Map(infos.map((i) => [i.uniqueId, i]));
            for (const [id, resolvers] of batch) {
              const info = found.get(id) ?? null;
              // Unknown ids are remembered too, so a misconfigured phone cannot hammer the database.
              this.remember(this.byUnique, id, info);
              for (const w of resolvers) w.resolve(info);
            }
          })
          .catch((err) => {
            for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
          });
      }, 1);
    });
  }

  private remember(map: Map<string, Entry>, key: string, info: GatewayInfo | null) {
    map.delete(key);
    // Oldest first: a flood of made-up device ids cannot grow the process without bound.
    while (map.size >= this.maxEntries) map.delete(map.keys().next().value!);
    map.set(key, { at: Date.now(), info, refreshing: false });
  }

  /**
   * Remembered unique ids read again. A known device is read from its organization's table by its
   * id, without the directory: on Citus the directory read is a statement of its own on the
   * coordinator for each refresh, a third of ingest's statements there at a fix per device every
   * few seconds (issue 49). Unknown ids, and devices no longer found so (deleted, inactive, given
   * another unique id), go through the directory as a first look-up does.
   */
  private async reread(uniqueIds: readonly string[]): Promise<Map<string, GatewayInfo>> {
    const byOrg = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const u of uniqueIds) {
      const info = this.byUnique.get(u)?.info;
      if (info) byOrg.set(info.orgId, [...(byOrg.get(info.orgId) ?? []), info.id]);
      else unknown.push(u);
    }
    const found = new Map<string, GatewayInfo>();
    for (const [orgId, ids] of byOrg) for (const i of await this.load(orgId, ids)) found.set(i.uniqueId, i);
    const rest = unknown.concat(uniqueIds.filter((u) => !found.has(u) && this.byUnique.get(u)?.info));
    if (rest.length) for (const i of await this.resolve(inArray(deviceIds.uniqueId, rest))) found.set(i.uniqueId, i);
    return found;
  }

  /**
   * Devices found through the device-id directory (migration 0036: on Citus a reference table read
   * on the coordinator), then read from their organization's tables, one query per organization
   * naming it, so that on Citus each goes to that organization's worker alone.
   */
  private async resolve(where: SQL): Promise<GatewayInfo[]> {
    const found = await this.db.select({ orgId: deviceIds.organizationId, gatewayId: deviceIds.gatewayId }).from(deviceIds).where(where);
    const byOrg = new Map<string, string[]>();
    for (const r of found) byOrg.set(r.orgId, [...(byOrg.get(r.orgId) ?? []), r.gatewayId]);
    const out: GatewayInfo[] = [];
    for (const [orgId, ids] of byOrg) out.push(...(await this.load(orgId, ids)));
    return out;
  }

  private async load(orgId: string, gatewayIds: string[]): Promise<GatewayInfo[]> {
    const rows = await this.db
      .select({
        id: gateways.id,
        orgId: gateways.organizationId,
        uniqueId: gateways.uniqueId,
        status: gateways.status,
        assetId: gateways.assetId,
        useReceivedTime: gateways.useReceivedTime,
        driverId: assets.currentDriverId,
        pairedSince: sql<
          string | null
        >`(select max(${gatewayPairings.pairedAt}) from ${gatewayPairings} where ${gatewayPairings.organizationId} = ${orgId} and ${gatewayPairings.gatewayId} = ${gateways.id} and ${gatewayPairings.unpairedAt} is null)`,
        driverSince: sql<
          string | null
        >`(select max(${assetDriverAssignments.startedAt}) from ${assetDriverAssignments} where ${assetDriverAssignments.organizationId} = ${orgId} and ${assetDriverAssignments.assetId} = ${gateways.assetId} and ${assetDriverAssignments.endedAt} is null)`,
      })
      .from(gateways)
      .leftJoin(assets, and(eq(assets.id, gateways.assetId), eq(assets.organizationId, gateways.organizationId)))
      .where(and(eq(gateways.organizationId, orgId), inArray(gateways.id, gatewayIds)));
    // An inactive device is treated as unknown: it may not report.
    return rows
      .filter((r) => r.status === 'ACTIVE')
      .map((r) => ({
        id: r.id,
        orgId: r.orgId,
        uniqueId: r.uniqueId,
        assetId: r.assetId,
        driverId: r.assetId ? r.driverId : null,
        pairedSince: r.pairedSince ? new Date(r.pairedSince) : null,
        driverSince: r.driverSince ? new Date(r.driverSince) : null,
        useReceivedTime: r.useReceivedTime,
      }));
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
        .where(
          and(
            eq(gatewayPairings.organizationId, gw.orgId),
            eq(gatewayPairings.gatewayId, gw.id),
            lte(gatewayPairings.pairedAt, fixTime),
            or(isNull(gatewayPairings.unpairedAt), gt(gatewayPairings.unpairedAt, fixTime)),
          ),
        )
        .orderBy(desc(gatewayPairings.pairedAt))
        .limit(1);
      assetId = p[0]?.assetId ?? null;
    }
    if (!assetId) return { assetId: null, driverId: null };
    const a = await this.db
      .select({ driverId: assetDriverAssignments.driverId })
      .from(assetDriverAssignments)
      .where(
        and(
          eq(assetDriverAssignments.organizationId, gw.orgId),
          eq(assetDriverAssignments.assetId, assetId),
          lte(assetDriverAssignments.startedAt, fixTime),
          or(isNull(assetDriverAssignments.endedAt), gt(assetDriverAssignments.endedAt, fixTime)),
        ),
      )
      .orderBy(desc(assetDriverAssignments.startedAt))
      .limit(1);
    driverId = a[0]?.driverId ?? null;
    return { assetId, driverId };
  }
}
