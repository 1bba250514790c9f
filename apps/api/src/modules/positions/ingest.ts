import { batchPositionSchema, type BatchIngestResult, type BatchPosition } from '@fleet/api-contract';
import { sql } from 'drizzle-orm';
import { gateways } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { currentAttribution, GatewayDirectory, type GatewayInfo } from './gateway-directory.ts';
import { checkFix, FixError, newRefusalCounts, ShardedCommitter, toRow, type PositionRow, type PositionWriter, type Protocol, type RefusalCounts, type RefusalReason } from './ingest.service.ts';
import { decodeOsmandJson, decodeOsmandParams } from './osmand.decoder.ts';

/** One ingest pipeline per process, shared by the API routes and the OsmAnd port. */
export interface Ingest {
  directory: GatewayDirectory;
  committer: PositionWriter;
  db: Db;
  /** Fixes refused since start, by reason (GET /admin/diagnostics/ingest). */
  refused: RefusalCounts;
  close(): Promise<void>;
}

export function createIngest(db: Db, opts: { windowMs?: number; writers?: number; deviceCacheEntries?: number } = {}): Ingest {
  const committer = new ShardedCommitter(db, opts.writers ?? 1, opts);
  return { db, directory: new GatewayDirectory(db, opts.deviceCacheEntries), committer, refused: newRefusalCounts(), close: () => committer.close() };
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
  if (!gw) return fail(decoded.format === 'json' ? 404 : 400, `Unknown device ${decoded.deviceId}`, `No active device with unique id ${decoded.deviceId}`);
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
 * The gateways' JSON batch: each position checked on its own; the good ones are stored in one
 * group commit, the bad ones reported by index with the reason.
 */
export async function ingestBatch(ingest: Ingest, gw: GatewayInfo, items: readonly unknown[], now = new Date()): Promise<BatchIngestResult> {
  const rejected: BatchIngestResult['rejected'] = [];
  const rows: PositionRow[] = [];
  for (let i = 0; i < items.length; i++) {
    let p = wellFormedPosition(items[i]);
    if (!p) {
      // Anything the fast check does not vouch for goes through the contract's schema, which
      // accepts it or names what is wrong.
      const parsed = batchPositionSchema.safeParse(items[i]);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const reason = SCHEMA_REASONS[String(issue.path[0])];
        if (reason) ingest.refused[reason]++;
        rejected.push({ index: i, message: `${issue.path.join('.') || 'position'}: ${issue.message}` });
        continue;
      }
      p = parsed.data;
    }
    const fixTime = new Date(p.fixTime);
    try {
      checkFix({ latitude: p.latitude, longitude: p.longitude, fixTime, speed: p.speed, course: p.course, altitude: p.altitude }, now.getTime());
    } catch (err) {
      if (!(err instanceof FixError)) throw err;
      ingest.refused[err.reason]++;
      rejected.push({ index: i, message: `${BATCH_FIELD[err.field] ?? err.field}: ${err.message}` });
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
      odometer: p.odometer ?? null,
      ignition: p.ignition ?? null,
      protocol: 'batch',
      attributes: p.attributes ?? {},
    });
  }
  const { stored } = await ingest.committer.write(rows);
  const accepted = stored.filter(Boolean).length;
  return { accepted, duplicates: stored.length - accepted, rejected };
}

/** The batch names its fields as written (the checks use the OsmAnd names). */
const BATCH_FIELD: Record<string, string> = { timestamp: 'fixTime', lat: 'latitude', lon: 'longitude' };
/** Refusals by the contract's schema, counted by the field it names. */
const SCHEMA_REASONS: Record<string, RefusalReason> = { fixTime: 'badTime', latitude: 'coordinates', longitude: 'coordinates', speed: 'speed', course: 'course', altitude: 'altitude' };

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const inRange = (v: unknown, min: number, max: number) => v === undefined || v === null || (typeof v === 'number' && v >= min && v <= max);

/**
 * The common, well-formed batch item checked by hand (docs/decisions/0058): the contract's zod
 * schema cost 7-30 µs per position, a large share of the batch endpoint's CPU. Returns the item
 * only when `batchPositionSchema` would accept it unchanged (the same ranges, an ISO-8601 time
 * with an offset and a real calendar day); anything else returns null and is left to the schema,
 * so the accepted set and every error message stay the schema's.
 */
export function wellFormedPosition(v: unknown): BatchPosition | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const p = v as Record<string, unknown>;
  if (typeof p.fixTime !== 'string' || typeof p.latitude !== 'number' || typeof p.longitude !== 'number') return null;
  if (!(p.latitude >= -90 && p.latitude <= 90 && p.longitude >= -180 && p.longitude <= 180)) return null;
  if (!inRange(p.speed, 0, 1000) || !inRange(p.course, 0, 360) || !inRange(p.altitude, -1000, 20000)) return null;
  if (!inRange(p.accuracy, 0, Infinity) || !inRange(p.odometer, 0, Infinity)) return null;
  if (p.ignition !== undefined && p.ignition !== null && typeof p.ignition !== 'boolean') return null;
  if (p.attributes !== undefined && (typeof p.attributes !== 'object' || p.attributes === null || Array.isArray(p.attributes))) return null;
  const m = ISO_UTC.exec(p.fixTime);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && !leap ? 28 : DAYS[month - 1]!)) return null;
  return p as BatchPosition;
}
