import { MAX_FUTURE_FIX_MS } from '@fleet/api-contract';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { gateways, latestPositions, positions } from '../../db/schema/index.ts';
import type { DecodedFix } from './osmand.decoder.ts';
import type { GatewayDirectory, GatewayInfo } from './gateway-directory.ts';
import { MOVING_SPEED_KMH } from './vehicle-status.ts';

/** NOTIFY channel: a JSON `{o: orgId, a: [assetId…]}` after each commit that moved vehicles. */
export const POSITIONS_CHANNEL = 'positions_changed';

export type Protocol = 'osmand' | 'batch' | 'simulator';

/** A fix checked and attributed, ready to store. */
export interface PositionRow {
  organizationId: string;
  gatewayId: string;
  assetId: string | null;
  driverId: string | null;
  fixTime: Date;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  accuracy: number | null;
  odometer: number | null;
  ignition: boolean | null;
  protocol: Protocol;
  attributes: Record<string, unknown>;
}

export class FixError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Refuses impossible fixes (the rule): coordinates out of range, a time in the future. */
export function checkFix(fix: { latitude: number; longitude: number; fixTime: Date }, now = Date.now()): void {
  if (!Number.isFinite(fix.latitude) || fix.latitude < -90 || fix.latitude > 90) throw new FixError('lat', `latitude ${fix.latitude} is outside -90..90`);
  if (!Number.isFinite(fix.longitude) || fix.longitude < -180 || fix.longitude > 180) throw new FixError('lon', `longitude ${fix.longitude} is outside -180..180`);
  if (Number.isNaN(fix.fixTime.getTime())) throw new FixError('timestamp', 'the fix time is not a time');
  if (fix.fixTime.getTime() > now + MAX_FUTURE_FIX_MS) {
    throw new FixError('timestamp', `fix time ${fix.fixTime.toISOString()} is more than 10 minutes in the future`);
  }
}

/**
 * Turns a decoded OsmAnd fix into a row: server time when the device sent none, the device's last
 * known location when it sent none (cell/Wi-Fi-only reports), the vehicle and driver at fix time.
 * Returns null when there is no location at all to store (a first report without coordinates).
 */
export async function toRow(db: Db, dir: GatewayDirectory, gw: GatewayInfo, fix: DecodedFix, protocol: Protocol, now = new Date()): Promise<PositionRow | null> {
  const fixTime = fix.fixTime ?? now;
  let { latitude, longitude } = fix;
  if (latitude === null || longitude === null) {
    const last = await db
      .select({ latitude: positions.latitude, longitude: positions.longitude })
      .from(positions)
      .where(eq(positions.gatewayId, gw.id))
      .orderBy(desc(positions.fixTime))
      .limit(1);
    if (!last[0]) return null;
    latitude = last[0].latitude;
    longitude = last[0].longitude;
    fix.attributes.approximate = true;
  }
  checkFix({ latitude, longitude, fixTime }, now.getTime());
  const who = await dir.attribution(gw, fixTime);
  return {
    organizationId: gw.orgId,
    gatewayId: gw.id,
    assetId: who.assetId,
    driverId: who.driverId,
    fixTime,
    latitude,
    longitude,
    speed: fix.speed,
    course: fix.course,
    altitude: fix.altitude,
    accuracy: fix.accuracy,
    odometer: fix.odometer,
    ignition: fix.ignition,
    protocol,
    attributes: fix.attributes,
  };
}

export interface WriteResult {
  /** For each input row: true when newly stored, false when it was already stored (duplicate). */
  stored: boolean[];
}

const key = (gatewayId: string, t: Date) => `${gatewayId}|${t.getTime()}`;

/**
 * Writes rows in the caller's transaction: positions (idempotent on gateway and fix time), the
 * latest position and status inputs per vehicle, the devices' last-seen time, and one NOTIFY per
 * organization delivered at commit.
 */
export async function writePositions(tx: Tx, rows: readonly PositionRow[], now = new Date()): Promise<WriteResult> {
  if (rows.length === 0) return { stored: [] };
  const inserted = await tx
    .insert(positions)
    .values(rows.map((r) => ({ ...r, serverTime: now })))
    .onConflictDoNothing()
    .returning({ gatewayId: positions.gatewayId, fixTime: positions.fixTime });
  const insertedKeys = new Set(inserted.map((r) => key(r.gatewayId, r.fixTime)));
  // Two equal fixes in one batch: the first is "stored", the second a duplicate.
  const stored = rows.map((r) => {
    const k = key(r.gatewayId, r.fixTime);
    if (!insertedKeys.has(k)) return false;
    insertedKeys.delete(k);
    return true;
  });

  const newRows = rows.filter((_, i) => stored[i] && rows[i]!.assetId);
  await updateLatest(tx, newRows, now);

  const gatewayIds = [...new Set(rows.map((r) => r.gatewayId))];
  await tx.update(gateways).set({ lastSeenAt: now }).where(inArray(gateways.id, gatewayIds));
  return { stored };
}

async function updateLatest(tx: Tx, rows: readonly PositionRow[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const byAsset = new Map<string, PositionRow[]>();
  for (const r of rows) {
    const list = byAsset.get(r.assetId!) ?? [];
    list.push(r);
    byAsset.set(r.assetId!, list);
  }
  const assetIds = [...byAsset.keys()];
  // Locked so that two instances writing the same vehicle serialise on it.
  const current = await tx
    .select({ assetId: latestPositions.assetId, fixTime: latestPositions.fixTime, lastMovingAt: latestPositions.lastMovingAt, stationarySince: latestPositions.stationarySince })
    .from(latestPositions)
    .where(inArray(latestPositions.assetId, assetIds))
    .for('update');
  const currentBy = new Map(current.map((c) => [c.assetId, c]));
  const upserts: (typeof latestPositions.$inferInsert)[] = [];
  const orgAssets = new Map<string, string[]>();
  for (const [assetId, list] of byAsset) {
    const cur = currentBy.get(assetId);
    // Only fixes newer than what the map shows move it; a buffered old fix is history only.
    const newer = list.filter((r) => !cur || r.fixTime > cur.fixTime).sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
    if (newer.length === 0) continue;
    let lastMovingAt = cur?.lastMovingAt ?? null;
    let stationarySince = cur ? cur.stationarySince : null;
    for (const r of newer) {
      if (r.speed !== null && r.speed >= MOVING_SPEED_KMH) {
        lastMovingAt = r.fixTime;
        stationarySince = null;
      } else if (!stationarySince) {
        stationarySince = r.fixTime;
      }
    }
    const last = newer[newer.length - 1]!;
    upserts.push({
      assetId,
      organizationId: last.organizationId,
      gatewayId: last.gatewayId,
      driverId: last.driverId,
      fixTime: last.fixTime,
      serverTime: now,
      latitude: last.latitude,
      longitude: last.longitude,
      speed: last.speed,
      course: last.course,
      altitude: last.altitude,
      accuracy: last.accuracy,
      odometer: last.odometer,
      ignition: last.ignition,
      lastMovingAt,
      stationarySince,
      attributes: last.attributes,
    });
    const list2 = orgAssets.get(last.organizationId) ?? [];
    list2.push(assetId);
    orgAssets.set(last.organizationId, list2);
  }
  if (upserts.length === 0) return;
  const ex = (col: string) => sql.raw(`excluded.${col}`);
  await tx
    .insert(latestPositions)
    .values(upserts)
    .onConflictDoUpdate({
      target: latestPositions.assetId,
      set: {
        organizationId: ex('organization_id'),
        gatewayId: ex('gateway_id'),
        driverId: ex('driver_id'),
        fixTime: ex('fix_time'),
        serverTime: ex('server_time'),
        latitude: ex('latitude'),
        longitude: ex('longitude'),
        speed: ex('speed'),
        course: ex('course'),
        altitude: ex('altitude'),
        accuracy: ex('accuracy'),
        odometer: ex('odometer'),
        ignition: ex('ignition'),
        lastMovingAt: ex('last_moving_at'),
        stationarySince: ex('stationary_since'),
        attributes: ex('attributes'),
      },
      setWhere: sql`${latestPositions.fixTime} < excluded.fix_time`,
    });
  // NOTIFY payloads are capped at 8000 bytes: 150 ids of 36 characters fit with room to spare.
  for (const [orgId, ids] of orgAssets) {
    for (let i = 0; i < ids.length; i += 150) {
      await tx.execute(sql`select pg_notify(${POSITIONS_CHANNEL}, ${JSON.stringify({ o: orgId, a: ids.slice(i, i + 150) })})`);
    }
  }
}

interface Pending {
  rows: PositionRow[];
  resolve: (r: WriteResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: rows that arrive within `windowMs` of each other (or while a write is running) are
 * written in one transaction, and every request is answered only after that transaction commits.
 * One writer at a time per process keeps vehicles' latest rows from deadlocking each other.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private queuedRows = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Transactions committed so far (tests and benchmarks read it). */
  transactions = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { windowMs?: number; maxRows?: number } = {},
  ) {}

  /** Resolves once the rows are committed. */
  write(rows: PositionRow[]): Promise<WriteResult> {
    if (this.closed) return Promise.reject(new Error('ingest is shutting down'));
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      this.queuedRows += rows.length;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.timer) return;
    if (this.queuedRows >= (this.opts.maxRows ?? 2000)) {
      void this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.opts.windowMs ?? 2);
  }

  private async flush(): Promise<void> {
    if (this.running || this.queue.length === 0) return;
    const max = this.opts.maxRows ?? 2000;
    const batch: Pending[] = [];
    let n = 0;
    while (this.queue.length && (batch.length === 0 || n + this.queue[0]!.rows.length <= max)) {
      const p = this.queue.shift()!;
      batch.push(p);
      n += p.rows.length;
    }
    this.queuedRows -= n;
    const run = (async () => {
      try {
        const all = batch.flatMap((p) => p.rows);
        const result = await this.db.transaction((tx) => writePositions(tx, all));
        this.transactions++;
        let offset = 0;
        for (const p of batch) {
          p.resolve({ stored: result.stored.slice(offset, offset + p.rows.length) });
          offset += p.rows.length;
        }
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    })();
    this.running = run;
    await run;
    this.running = null;
    if (this.queue.length) {
      // Whatever arrived during the write goes now: it already waited one transaction.
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      void this.flush();
    }
  }

  /** Waits for queued writes, then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.queue.length || this.running) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      if (!this.running) void this.flush();
      await this.running;
    }
  }
}
