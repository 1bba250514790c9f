import type { BatchIngestResult } from '@fleet/api-contract';
import { desc, eq, sql } from 'drizzle-orm';
import { gateways, positions } from '../../../db/schema/index.ts';
import type { Db } from '../../../db/client.ts';
import { BatchRefusal, batchField, decodeBatchPosition } from './batch-position.ts';
import { checkFix, FixError, newRefusalCounts, type RefusalCounts } from './fix-check.ts';
import { engineColumns } from './engine-data.ts';
import { behindCommit, type Following } from './follower.ts';
import { currentAttribution, GatewayDirectory, type GatewayInfo } from './gateway-directory.ts';
import { ShardedCommitter, type PositionWriter } from './group-committer.ts';
import { decodeOsmandJson, decodeOsmandParams, type DecodedFix } from './osmand.decoder.ts';
import type { PositionRow, Protocol } from './position-row.ts';
import { UnknownDevices } from './unknown-devices.ts';

// The position pipeline, one way in at a time: decode (osmand.decoder.ts, batch-position.ts) ->
// check (fix-check.ts) and attribute (gateway-directory.ts: which device, vehicle and driver) ->
// commit (group-committer.ts, storing through position-store.ts), and behind the commit its
// followers (follower.ts, listed in followers.ts). Positions stored earlier that come to belong to
// a vehicle reach the followers through late-positions.ts.

/** One ingest pipeline per process, shared by the API routes and the OsmAnd port. */
export interface Ingest {
  directory: GatewayDirectory;
  /** The group commit with the followers behind it: what every way in writes through. */
  committer: PositionWriter;
  db: Db;
  /** Fixes refused since start, by reason (GET /admin/diagnostics/ingest). */
  refused: RefusalCounts;
  /** Reports refused because their device is not registered, by id (the devices screen offers to add them). */
  unknownDevices: UnknownDevices;
  /** The followers of a commit, started (followers.ts), in their list's order. */
  followers: ReadonlyArray<Following<unknown>>;
  /** Flushes the group commit, then closes each follower in the list's order. */
  close(): Promise<void>;
}

export function createIngest(
  db: Db,
  opts: { windowMs?: number; writers?: number; deviceCacheEntries?: number; followers?: ReadonlyArray<Following<unknown>> } = {},
): Ingest {
  const followers = opts.followers ?? [];
  const committer = behindCommit(new ShardedCommitter(db, opts.writers ?? 1, opts), followers);
  return {
    db,
    directory: new GatewayDirectory(db, opts.deviceCacheEntries),
    committer,
    refused: newRefusalCounts(),
    unknownDevices: new UnknownDevices(),
    followers,
    close: async () => {
      await committer.close();
      for (const f of followers) await f.close();
    },
  };
}

/** What to answer a device: OsmAnd clients only look at the status. */
export interface OsmandReply {
  status: number;
  /** Undefined: empty body (Traccar's answer). */
  error?: { message: string; technicalMessage: string };
}

export interface OsmandRequest {
  /** The raw query string (without '?'). */
  query: string;
  contentType: string | undefined;
  /** Parsed JSON, or the raw text of a form or other body. */
  body: unknown;
}

const fail = (status: number, message: string, technicalMessage = message): OsmandReply => ({ status, error: { message, technicalMessage } });

/**
 * The OsmAnd protocol (Traccar's dispatch rule): a JSON body when Content-Type says so; otherwise
 * the query string, or the form body when the query is empty. 200 once the fix is committed;
 * 400 for a missing or unknown id on query/form, 404 for an unknown device_id on JSON (as
 * Traccar answers); 400 for an impossible fix, which is not stored.
 */
export async function handleOsmand(ingest: Ingest, req: OsmandRequest, protocol: Protocol = 'osmand'): Promise<OsmandReply> {
  const json = (req.contentType ?? '').toLowerCase().startsWith('application/json');
  let decoded;
  if (json) {
    decoded = decodeOsmandJson(req.body);
  } else {
    const text = req.query !== '' ? req.query : typeof req.body === 'string' ? req.body : '';
    decoded = decodeOsmandParams(new URLSearchParams(text));
  }
  if (decoded.kind === 'error') {
    if (decoded.field.endsWith('timestamp')) ingest.refused.badTime++;
    return fail(400, decoded.message, `${decoded.field}: ${decoded.message}`);
  }
  const gw = await ingest.directory.byUniqueId(decoded.deviceId);
  if (!gw) {
    ingest.unknownDevices.note(decoded.deviceId, protocol);
    return fail(decoded.format === 'json' ? 404 : 400, `Unknown device ${decoded.deviceId}`, `No active device with unique id ${decoded.deviceId}`);
  }
  if (decoded.kind === 'token') return { status: 200 };
  let row: PositionRow | null;
  try {
    row = await toRow(ingest.db, ingest.directory, gw, decoded.fix, protocol);
  } catch (err) {
    if (err instanceof FixError) {
      ingest.refused[err.reason]++;
      return fail(400, `Position refused: ${err.message}`, `${err.field}: ${err.message}`);
    }
    throw err;
  }
  // No coordinates and none known yet: nothing to place on a map. The report is acknowledged
  // (the device has nothing better to send) and the device's last-seen time is still updated.
  if (!row) {
    await ingest.db.execute(touchSql(gw));
    return { status: 200 };
  }
  await ingest.committer.write([row]);
  return { status: 200 };
}

const touchSql = (gw: GatewayInfo) => sql`update ${gateways} set last_seen_at = now() where ${gateways.id} = ${gw.id}`;

/**
 * Turns a decoded OsmAnd fix into a row: server time when the device sent none, the device's last
 * known location when it sent none (cell/Wi-Fi-only reports), the vehicle and driver at fix time.
 * Returns null when there is no location at all to store (a first report without coordinates).
 */
async function toRow(db: Db, dir: GatewayDirectory, gw: GatewayInfo, fix: DecodedFix, protocol: Protocol, now = new Date()): Promise<PositionRow | null> {
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
  checkFix({ latitude, longitude, fixTime, speed: fix.speed, course: fix.course, altitude: fix.altitude }, now.getTime());
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
    ...engineColumns(fix.attributes, { odometer: fix.odometer, ignition: fix.ignition }),
    protocol,
    attributes: fix.attributes,
  };
}

/**
 * The gateways' JSON batch: each position decoded and checked on its own; the good ones are stored
 * in one group commit, the bad ones reported by index with the reason.
 */
export async function ingestBatch(ingest: Ingest, gw: GatewayInfo, items: readonly unknown[], now = new Date()): Promise<BatchIngestResult> {
  const rejected: BatchIngestResult['rejected'] = [];
  const rows: PositionRow[] = [];
  for (let i = 0; i < items.length; i++) {
    const p = decodeBatchPosition(items[i]);
    if (p instanceof BatchRefusal) {
      if (p.reason) ingest.refused[p.reason]++;
      rejected.push({ index: i, message: p.message });
      continue;
    }
    const fixTime = new Date(p.fixTime);
    try {
      checkFix({ latitude: p.latitude, longitude: p.longitude, fixTime, speed: p.speed, course: p.course, altitude: p.altitude }, now.getTime());
    } catch (err) {
      if (!(err instanceof FixError)) throw err;
      ingest.refused[err.reason]++;
      rejected.push({ index: i, message: `${batchField(err.field)}: ${err.message}` });
      continue;
    }
    const who = currentAttribution(gw, fixTime) ?? (await ingest.directory.attribution(gw, fixTime));
    rows.push({
      organizationId: gw.orgId,
      gatewayId: gw.id,
      assetId: who.assetId,
      driverId: who.driverId,
      fixTime,
      latitude: p.latitude,
      longitude: p.longitude,
      speed: p.speed ?? null,
      course: p.course ?? null,
      altitude: p.altitude ?? null,
      accuracy: p.accuracy ?? null,
      ...engineColumns(p.attributes ?? {}, { odometer: p.odometer ?? null, ignition: p.ignition ?? null }),
      protocol: 'batch',
      attributes: p.attributes ?? {},
    });
  }
  const { stored } = await ingest.committer.write(rows);
  const accepted = stored.filter(Boolean).length;
  return { accepted, duplicates: stored.length - accepted, rejected };
}
