import type { LiveVehicle } from '@fleet/api-contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Listener } from '../../db/client.ts';
import { assets, drivers, groupAssets, latestPositions, organizations } from '../../db/schema/index.ts';
import type { ReadScope } from '../auth/index.ts';
import { POSITIONS_CHANNEL } from './pipeline/position-store.ts';
import { telematicsSettings, vehicleStatus } from './vehicle-status.ts';

/** The live vehicles of an organization (all, or the given ones), with status computed at the scope's `now`. */
export async function liveVehicles({ db, orgId, now: nowMs }: ReadScope, assetIds?: readonly string[]): Promise<LiveVehicle[]> {
  const now = nowMs === undefined ? new Date() : new Date(nowMs);
  if (assetIds && assetIds.length === 0) return [];
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  const settings = telematicsSettings(org?.settings);
  const rows = await db
    .select({
      assetId: latestPositions.assetId,
      unitNumber: assets.unitNumber,
      gatewayId: latestPositions.gatewayId,
      driverId: latestPositions.driverId,
      driverFirst: drivers.firstName,
      driverLast: drivers.lastName,
      latitude: latestPositions.latitude,
      longitude: latestPositions.longitude,
      speed: latestPositions.speed,
      course: latestPositions.course,
      ignition: latestPositions.ignition,
      fixTime: latestPositions.fixTime,
      serverTime: latestPositions.serverTime,
      lastMovingAt: latestPositions.lastMovingAt,
      stationarySince: latestPositions.stationarySince,
      // The organization as the parameter, not the outer row's: Citus keeps the sub-select on its shard.
      groupIds: sql<
        string[] | null
      >`(select array_agg(${groupAssets.groupId}) from ${groupAssets} where ${groupAssets.organizationId} = ${orgId} and ${groupAssets.assetId} = ${latestPositions.assetId})`,
    })
    .from(latestPositions)
    .innerJoin(assets, and(eq(assets.id, latestPositions.assetId), eq(assets.organizationId, latestPositions.organizationId)))
    .leftJoin(drivers, and(eq(drivers.id, latestPositions.driverId), eq(drivers.organizationId, latestPositions.organizationId)))
    .where(and(eq(latestPositions.organizationId, orgId), assetIds ? inArray(latestPositions.assetId, [...assetIds]) : undefined))
    .orderBy(assets.unitNumber);
  return rows.map((r) => {
    const st = vehicleStatus(
      { speed: r.speed, ignition: r.ignition, lastReportAt: r.serverTime, lastMovingAt: r.lastMovingAt, stationarySince: r.stationarySince },
      now,
      settings,
    );
    return {
      assetId: r.assetId,
      unitNumber: r.unitNumber,
      gatewayId: r.gatewayId,
      driverId: r.driverId,
      driverName: r.driverFirst ? `${r.driverFirst} ${r.driverLast ?? ''}`.trim() : null,
      latitude: r.latitude,
      longitude: r.longitude,
      speed: r.speed,
      course: r.course,
      ignition: r.ignition,
      fixTime: r.fixTime.toISOString(),
      status: st.status,
      statusSince: st.since ? st.since.toISOString() : null,
      groupIds: r.groupIds ?? [],
    };
  });
}

/** 404 unless the group belongs to the organization (the groups repository owns the check). */
export { assertGroup } from '../groups/index.ts';

export interface LiveSubscriber {
  orgId: string;
  groupId: string | null;
  send(vehicles: LiveVehicle[]): void;
  /** Ends the connection (server shutdown). */
  close(): void;
}

/**
 * Fan-out of vehicle changes to the SSE connections of this API instance. Every instance LISTENs
 * on the channel that ingest NOTIFYs at commit, so a position written through any instance reaches
 * every browser. One query per notification and instance, whatever the number of connections.
 * A sweep re-evaluates statuses that change with time alone (idling, offline).
 */
export class LiveHub {
  private subs = new Map<string, Set<LiveSubscriber>>();
  private lastStatus = new Map<string, Map<string, string>>();
  private listener: Listener | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: Database,
    private readonly log: (err: unknown) => void,
    private readonly sweepMs = 30_000,
  ) {}

  async start(): Promise<void> {
    this.listener = await this.database.listen(
      POSITIONS_CHANNEL,
      (payload) => void this.onNotify(payload).catch(this.log),
      // Positions committed while the connection was lost were not notified: send everything.
      () => void this.resend().catch(this.log),
    );
    this.sweepTimer = setInterval(() => void this.sweep().catch(this.log), this.sweepMs);
    this.sweepTimer.unref();
  }

  /** Ends every open stream (so the server's close does not wait on them) and stops listening. */
  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const set of this.subs.values()) for (const sub of set) sub.close();
    this.subs.clear();
    await this.listener?.stop();
  }

  subscribe(sub: LiveSubscriber): () => void {
    const set = this.subs.get(sub.orgId) ?? new Set();
    set.add(sub);
    this.subs.set(sub.orgId, set);
    return () => {
      set.delete(sub);
      if (set.size === 0) {
        this.subs.delete(sub.orgId);
        this.lastStatus.delete(sub.orgId);
      }
    };
  }

  get connections(): number {
    let n = 0;
    for (const s of this.subs.values()) n += s.size;
    return n;
  }

  private remember(orgId: string, vehicles: LiveVehicle[]): void {
    const m = this.lastStatus.get(orgId) ?? new Map<string, string>();
    for (const v of vehicles) m.set(v.assetId, v.status);
    this.lastStatus.set(orgId, m);
  }

  private deliver(orgId: string, vehicles: LiveVehicle[]): void {
    const set = this.subs.get(orgId);
    if (!set || vehicles.length === 0) return;
    for (const sub of set) {
      const mine = sub.groupId ? vehicles.filter((v) => v.groupIds.includes(sub.groupId!)) : vehicles;
      if (mine.length) sub.send(mine);
    }
  }

  private async onNotify(payload: string): Promise<void> {
    const msg = JSON.parse(payload) as { o: string; a: string[] };
    if (!this.subs.has(msg.o)) return;
    const vehicles = await liveVehicles({ db: this.database.db, orgId: msg.o }, msg.a);
    this.remember(msg.o, vehicles);
    this.deliver(msg.o, vehicles);
  }

  private async resend(): Promise<void> {
    for (const orgId of [...this.subs.keys()]) {
      const vehicles = await liveVehicles({ db: this.database.db, orgId });
      this.remember(orgId, vehicles);
      this.deliver(orgId, vehicles);
    }
  }

  private async sweep(): Promise<void> {
    for (const orgId of [...this.subs.keys()]) {
      const vehicles = await liveVehicles({ db: this.database.db, orgId });
      const last = this.lastStatus.get(orgId);
      const changed = vehicles.filter((v) => last?.get(v.assetId) !== v.status);
      this.remember(orgId, vehicles);
      this.deliver(orgId, changed);
    }
  }

  /**
   * Delivers vehicle changes to this instance's subscribers exactly as a notification would
   * (same filtering by group, same serialisation in the stream route), without the database round
   * trip. For the live-map benchmark (`bench/map-fps.ts --feed stream`), which measures the page
   * apart from ingest's write throughput.
   */
  publish(orgId: string, vehicles: LiveVehicle[]): void {
    this.remember(orgId, vehicles);
    this.deliver(orgId, vehicles);
  }

  /** Records what a new connection was sent so the sweep only reports real changes. */
  noteSnapshot(orgId: string, vehicles: LiveVehicle[]): void {
    this.remember(orgId, vehicles);
  }
}
