import { batchTemperaturesSchema, type BatchIngestResult, type BatchTemperature, type IngestDiagnostics } from '@fleet/api-contract';
import { and, desc, eq } from 'drizzle-orm';
import { positions } from '../../../db/schema/index.ts';
import type { Db } from '../../../db/client.ts';
import { BatchRefusal, batchAttributes, batchField, decodeBatchPosition, sentFixTime } from './batch-position.ts';
import type { RefusedFixes } from '../refused-fixes.ts';
import { checkFix, FixError, newRefusalCounts, timeToStore, type RefusalCounts } from './fix-check.ts';
import { engineColumns } from './engine-data.ts';
import { behindCommit, type Following } from './follower.ts';
import { currentAttribution, GatewayDirectory, type GatewayInfo } from './gateway-directory.ts';
import { ShardedCommitter, type CommitReport, type PositionWriter } from './group-committer.ts';
import { IngestHealth } from './ingest-health.ts';
import { LastSeen, seenBehind } from './last-seen.ts';
import { decodeOsmandJson, decodeOsmandParams, type DecodedFix } from './osmand.decoder.ts';
import type { PositionRow, Protocol } from './position-row.ts';
import { UnknownDevices } from './unknown-devices.ts';
import { DeviceLinks } from '../device-links.ts';
import { storedSpeed } from '../../../lib/stored-speed.ts';
import { invalidField } from '../../../http/errors.ts';
import { recordTemperatures, type TemperatureInput } from '../../temperatures/index.ts';

// The position pipeline, one way in at a time: decode (osmand.decoder.ts, batch-position.ts) ->
// check (fix-check.ts) and attribute (gateway-directory.ts: which device, vehicle and driver) ->
// commit (group-committer.ts, storing through position-store.ts), and behind the commit its
// followers (follower.ts, listed in apps/api/src/pipeline/followers.ts). Positions stored earlier that come to belong to
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
  /** Failed commits by cause, 5xx by way in, and whether positions stopped being stored (ingest-health.ts). */
  health: IngestHealth;
  /** Each device's refused fixes of the last day (its page lists them); null where nothing records them (unit tests). */
  refusedFixes: RefusedFixes | null;
  /** Devices connected to this instance that can be sent a command (issue 73; device-links.ts). */
  deviceLinks: DeviceLinks;
  /** Where a failure no device is told about goes: a failed commit, a 5xx, a packet left unacknowledged. */
  logError(err: unknown, message: string): void;
  /** The followers of a commit, started (apps/api/src/pipeline/followers.ts), in their list's order. */
  followers: ReadonlyArray<Following<unknown>>;
  /** The devices' last-seen time, written a second behind the commits (`flush()` writes it now). */
  lastSeen: LastSeen;
  /** Flushes the group commit and the last-seen times, then closes each follower in the list's order. */
  close(): Promise<void>;
}

export interface IngestOptions {
  windowMs?: number;
  writers?: number;
  deviceCacheEntries?: number;
  followers?: ReadonlyArray<Following<unknown>>;
  refusedFixes?: RefusedFixes;
  /** Default: console.error. */
  logError?: (err: unknown, message: string) => void;
  /** Told after each commit (the ingest alerts: ingest-alerts.ts). */
  onCommit?: (report: CommitReport) => void;
}

export function createIngest(db: Db, opts: IngestOptions = {}): Ingest {
  const followers = opts.followers ?? [];
  const health = new IngestHealth();
  const logError = opts.logError ?? ((err: unknown, message: string) => console.error(message, err));
  const onCommit = (report: CommitReport) => {
    health.record(report);
    for (const f of report.failures)
      logError(
        f.err,
        `positions: storing ${f.rows} rows of organization ${f.orgId || '(several)'} failed (${f.cause}); not acknowledged, the devices send them again`,
      );
    opts.onCommit?.(report);
  };
  const writers = new ShardedCommitter(db, opts.writers ?? 1, { ...opts, onCommit });
  health.waitingSince = () => writers.waitingSince();
  const lastSeen = new LastSeen(db, logError);
  const committer = behindCommit(seenBehind(writers, lastSeen), followers);
  return {
    db,
    directory: new GatewayDirectory(db, opts.deviceCacheEntries),
    committer,
    refused: newRefusalCounts(),
    unknownDevices: new UnknownDevices(),
    deviceLinks: new DeviceLinks(logError),
    health,
    refusedFixes: opts.refusedFixes ?? null,
    logError,
    followers,
    lastSeen,
    close: async () => {
      await committer.close();
      await lastSeen.close();
      for (const f of followers) await f.close();
      await opts.refusedFixes?.close();
    },
  };
}

/** GET /admin/diagnostics/ingest: what this instance stored, refused and failed to store since it started. */
export function ingestDiagnostics(ingest: Ingest): IngestDiagnostics {
  const r = ingest.refused;
  const h = ingest.health;
  const iso = (ms: number) => new Date(ms).toISOString();
  const stats = ingest.refusedFixes?.stats;
  return {
    refusedFixes: { total: Object.values(r).reduce((a, b) => a + b, 0), ...r },
    storedPositions: h.storedRows,
    failedCommits: [...h.failedCommits].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count),
    failedPositions: h.failedRows,
    retriedStatements: h.retries,
    serverErrors: [...h.serverErrors].map(([way, count]) => ({ way, count })),
    lastStoredAt: h.lastStoredAt === null ? null : iso(h.lastStoredAt),
    lastFailure: h.lastFailure && { at: iso(h.lastFailure.at), cause: h.lastFailure.cause },
    failingOrganizations: [...h.failing.values()]
      .filter((e) => e.orgId !== '')
      .map((e) => ({ organizationId: e.orgId, since: iso(e.since), cause: e.cause, positions: e.rows })),
    problem: h.problem(),
    refusalLog: stats ? { noted: stats.noted, written: stats.written, dropped: stats.dropped, failed: stats.failed } : null,
  };
}

/**
 * A fix refused for its content: counted by reason and remembered on its device's page; the device
 * is answered as if it were stored. `fixTime`: its time, or the text it was sent as when that was not a time.
 */
export function noteRefusal(ingest: Ingest, gw: GatewayInfo, protocol: Protocol, err: FixError, fixTime: Date | string | null, receivedAt = new Date()): void {
  ingest.refused[err.reason]++;
  const time = typeof fixTime === 'string' ? { fixTime: null, fixTimeText: fixTime } : { fixTime };
  ingest.refusedFixes?.note({
    organizationId: gw.orgId,
    gatewayId: gw.id,
    protocol,
    receivedAt,
    ...time,
    reason: err.reason,
    message: err.message,
    field: err.field,
  });
}

/** The rows a write refused (a value the database cannot hold), noted as above; the index of each. */
export function noteWriteRefusals(
  ingest: Ingest,
  gw: GatewayInfo,
  rows: readonly PositionRow[],
  refused: ReadonlyArray<FixError | null> | undefined,
  receivedAt = new Date(),
): void {
  refused?.forEach((err, i) => {
    if (err) noteRefusal(ingest, gw, rows[i]!.protocol, err, rows[i]!.fixTime, receivedAt);
  });
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
 * the query string, or the form body when the query is empty. 200 once the fix is committed, and
 * 200 for a fix refused for its content (an impossible time or value: counted and listed on the
 * device's page), since Traccar Client and the OsmAnd app send a fix again until it is answered 200
 * and one refused fix would hold back every later one. Only what can never be a fix of a known
 * device is refused: a missing id, an unknown device (400 on query/form, 404 on JSON, as Traccar
 * answers). A failure to store throws (a 5xx: the device sends it again).
 */
export async function handleOsmand(ingest: Ingest, req: OsmandRequest, protocol: Protocol = 'osmand'): Promise<OsmandReply> {
  const receivedAt = new Date();
  const json = (req.contentType ?? '').toLowerCase().startsWith('application/json');
  let decoded;
  if (json) {
    decoded = decodeOsmandJson(req.body);
  } else {
    const text = req.query !== '' ? req.query : typeof req.body === 'string' ? req.body : '';
    decoded = decodeOsmandParams(new URLSearchParams(text));
  }
  if (decoded.kind === 'error') return fail(400, decoded.message, `${decoded.field}: ${decoded.message}`);
  const gw = await ingest.directory.byUniqueId(decoded.deviceId);
  if (!gw) {
    ingest.unknownDevices.note(decoded.deviceId, protocol);
    return fail(decoded.format === 'json' ? 404 : 400, `Unknown device ${decoded.deviceId}`, `No active device with unique id ${decoded.deviceId}`);
  }
  if (decoded.kind === 'token') return { status: 200 };
  const fix = decoded.fix;
  // A time that is not a time: stored at the time received when the device is set so (its fixTime is null), else refused.
  if (decoded.badTime && !gw.useReceivedTime) {
    noteRefusal(
      ingest,
      gw,
      protocol,
      new FixError(decoded.format === 'json' ? 'location.timestamp' : 'timestamp', decoded.badTime, 'badTime'),
      decoded.sentTime ?? null,
      receivedAt,
    );
    return { status: 200 };
  }
  let row: PositionRow | null;
  try {
    row = await toRow(ingest.db, ingest.directory, gw, fix, protocol, receivedAt);
  } catch (err) {
    if (!(err instanceof FixError)) throw err;
    noteRefusal(ingest, gw, protocol, err, fix.fixTime, receivedAt);
    return { status: 200 };
  }
  // No coordinates and none known yet: nothing to place on a map. The report is acknowledged
  // (the device has nothing better to send) and the device's last-seen time is still updated.
  if (!row) {
    ingest.lastSeen.note(gw.orgId, gw.id, receivedAt.getTime());
    return { status: 200 };
  }
  const { refused } = await ingest.committer.write([row]);
  noteWriteRefusals(ingest, gw, [row], refused, receivedAt);
  if (!refused?.[0]) ingest.refusedFixes?.observe?.({ organizationId: gw.orgId, gatewayId: gw.id, receivedAt, fixTime: row.fixTime });
  return { status: 200 };
}

/**
 * Turns a decoded OsmAnd fix into a row: server time when the device sent none, the device's last
 * known location when it sent none (cell/Wi-Fi-only reports), the vehicle and driver at fix time.
 * Returns null when there is no location at all to store (a first report without coordinates).
 */
async function toRow(db: Db, dir: GatewayDirectory, gw: GatewayInfo, fix: DecodedFix, protocol: Protocol, now = new Date()): Promise<PositionRow | null> {
  const fixTime = timeToStore(gw.useReceivedTime, fix.fixTime, now) ?? now;
  let { latitude, longitude } = fix;
  if (latitude === null || longitude === null) {
    const last = await db
      .select({ latitude: positions.latitude, longitude: positions.longitude })
      .from(positions)
      // The organization named: one shard on Citus, not every shard and monthly partition.
      .where(and(eq(positions.organizationId, gw.orgId), eq(positions.gatewayId, gw.id)))
      .orderBy(desc(positions.fixTime))
      .limit(1);
    if (!last[0]) return null;
    latitude = last[0].latitude;
    longitude = last[0].longitude;
    fix.attributes.approximate = true;
  }
  checkFix({ latitude, longitude, fixTime, speed: fix.speed, course: fix.course, altitude: fix.altitude, accuracy: fix.accuracy }, now.getTime());
  const who = await dir.attribution(gw, fixTime);
  return {
    organizationId: gw.orgId,
    gatewayId: gw.id,
    assetId: who.assetId,
    driverId: who.driverId,
    fixTime,
    latitude,
    longitude,
    speed: storedSpeed(fix.speed),
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
  checkTemperatures(items);
  const rejected: BatchIngestResult['rejected'] = [];
  const rows: PositionRow[] = [];
  const indexOf: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const p = decodeBatchPosition(items[i]);
    if (p instanceof BatchRefusal) {
      noteRefusal(ingest, gw, 'batch', new FixError('position', p.message, p.reason ?? 'value'), p.reason === 'badTime' ? sentFixTime(items[i]) : null, now);
      rejected.push({ index: i, message: p.message });
      continue;
    }
    const fixTime = timeToStore(gw.useReceivedTime, new Date(p.fixTime), now, i)!;
    try {
      checkFix(
        { latitude: p.latitude, longitude: p.longitude, fixTime, speed: p.speed, course: p.course, altitude: p.altitude, accuracy: p.accuracy },
        now.getTime(),
      );
    } catch (err) {
      if (!(err instanceof FixError)) throw err;
      noteRefusal(ingest, gw, 'batch', err, fixTime, now);
      rejected.push({ index: i, message: `${batchField(err.field)}: ${err.message}` });
      continue;
    }
    const who = currentAttribution(gw, fixTime) ?? (await ingest.directory.attribution(gw, fixTime));
    const attributes = batchAttributes(p);
    indexOf.push(i);
    rows.push({
      organizationId: gw.orgId,
      gatewayId: gw.id,
      assetId: who.assetId,
      driverId: who.driverId,
      fixTime,
      latitude: p.latitude,
      longitude: p.longitude,
      speed: storedSpeed(p.speed ?? null),
      course: p.course ?? null,
      altitude: p.altitude ?? null,
      accuracy: p.accuracy ?? null,
      ...engineColumns(attributes, { odometer: p.odometer ?? null, ignition: p.ignition ?? null }),
      protocol: 'batch',
      attributes,
    });
  }
  const { stored, refused } = await ingest.committer.write(rows);
  noteWriteRefusals(ingest, gw, rows, refused, now);
  let accepted = 0;
  let duplicates = 0;
  stored.forEach((s, k) => {
    const why = refused?.[k];
    if (why) rejected.push({ index: indexOf[k]!, message: `${batchField(why.field)}: ${why.message}` });
    else if (s) accepted++;
    else duplicates++;
  });
  rejected.sort((a, b) => a.index - b.index);
  const last = rows.findLast((_, k) => stored[k]);
  if (last) ingest.refusedFixes?.observe?.({ organizationId: gw.orgId, gatewayId: gw.id, receivedAt: now, fixTime: last.fixTime });
  // The readings of each fix stored now or before (a resend): stored once each before the answer, so
  // an acknowledged reading is never lost; a resend's are found stored and written again nowhere.
  const readings: TemperatureInput[] = rows.flatMap((row, k) => {
    const sent = refused?.[k] ? undefined : (items[indexOf[k]!] as { temperatures?: BatchTemperature[] }).temperatures;
    return (sent ?? []).map((t) => ({
      organizationId: row.organizationId,
      gatewayId: row.gatewayId,
      assetId: row.assetId,
      at: row.fixTime,
      sensor: t.sensor,
      celsius: t.celsius,
      defrost: t.defrost === true,
    }));
  });
  if (readings.length) await recordTemperatures(ingest.db, readings, now.getTime());
  return { accepted, duplicates, rejected };
}

/**
 * A batch's temperatures are checked as a whole before anything is stored (decision 0320): a bad
 * reading is a 400 naming it, and the batch changes nothing, where a bad fix is refused on its own.
 */
function checkTemperatures(items: readonly unknown[]): void {
  items.forEach((item, i) => {
    const sent = typeof item === 'object' && item !== null ? (item as { temperatures?: unknown }).temperatures : undefined;
    if (sent === undefined) return;
    const parsed = batchTemperaturesSchema.safeParse(sent);
    if (parsed.success) return;
    const issue = parsed.error.issues[0]!;
    throw invalidField(['positions', i, 'temperatures', ...issue.path].join('.'), issue.message);
  });
}
