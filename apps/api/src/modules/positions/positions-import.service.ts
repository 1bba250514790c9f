import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { IMPORTED_PROTOCOL, isValidTimeZone, type PositionImportBody, type PositionImportResult, type positionImportBodySchema } from '@fleet/api-contract';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { assets, organizations } from '../../db/schema/index.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import type { Scope } from '../auth/index.ts';
import { recordActivity } from '../activity-log/index.ts';
import { zonedToUtc } from '../../lib/zone-offset.ts';
import { detectFormat, readHistoryFile, type FileError, type FileFix } from './gps-history-file.ts';
import { checkFix, FixError } from './pipeline/fix-check.ts';
import { RETURNING_POSITION, returnedPosition, type PositionRow, type ReturnedPosition } from './pipeline/position-row.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// A vehicle's GPS history from another system (issue 28: a carrier switching mid-quarter completes
// the quarter's IFTA return). Preview and import are the same analysis (decision 0041): the import
// repeats it in its transaction and stores the valid rows, marked protocol 'import'; the rows are
// then handed to IFTA miles and the daily statistics as late positions (not to automatic duty
// status: another ELD recorded those days).

type Body = z.output<typeof positionImportBodySchema>;
export type { PositionImportBody };

/** Rows per insert statement. */
const CHUNK = 5000;
/** How far around the file's span the vehicle's device positions are looked for. */
const AROUND_MS = 12 * 3600_000;
/** Errors listed at most (the counts stay exact). */
const MAX_ERRORS = 1000;

/**
 * Imported positions have no device: they are stored under a device id of their own per vehicle
 * (no device row; positions have no foreign key to devices), so importing the same file again
 * finds them as duplicates by (device, fix time) like any replayed upload.
 */
export function importDeviceId(assetId: string): string {
  const h = createHash('sha256').update(`gps-history-import:${assetId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const CHECK_FIELD: Record<string, string> = { timestamp: 'time', lat: 'latitude', lon: 'longitude' };

interface Analysis {
  result: PositionImportResult;
  valid: FileFix[];
}

/** Reads and checks the whole file against the vehicle, writing nothing. */
async function analyse(db: DbOrTx, orgId: string, assetId: string, body: Body, now: number): Promise<Analysis> {
  const [vehicle] = await db
    .select({ id: assets.id, type: assets.type, unitNumber: assets.unitNumber })
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.organizationId, orgId)));
  if (!vehicle) throw notFound('Vehicle');
  if (vehicle.type !== 'VEHICLE') throw invalidField('assetId', `Trailer ${vehicle.unitNumber} has no GPS history; import it for a vehicle`);
  if (body.timeZone && !isValidTimeZone(body.timeZone)) throw invalidField('timeZone', `${body.timeZone} is not a time zone`);
  const [org] = await db.select({ zone: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  const zone = body.timeZone ?? org?.zone ?? 'UTC';
  const format = body.format ?? detectFormat(body.file);
  const parsed = readHistoryFile(body.file, format, { toUtc: (ms) => zonedToUtc(ms, zone) });
  const errors: FileError[] = [...parsed.errors];
  const checked: FileFix[] = [];
  const seen = new Map<number, number>();
  for (const f of parsed.fixes) {
    try {
      checkFix(f, now);
    } catch (err) {
      if (!(err instanceof FixError)) throw err;
      errors.push({ line: f.line, field: CHECK_FIELD[err.field] ?? err.field, message: err.message });
      continue;
    }
    const t = f.fixTime.getTime();
    const first = seen.get(t);
    if (first !== undefined) {
      errors.push({ line: f.line, field: 'time', message: `Same time as line ${first}` });
      continue;
    }
    seen.set(t, f.line);
    checked.push(f);
  }
  // Two tracks of one vehicle at the same time would zigzag between them (and count miles twice):
  // rows inside the span its devices reported over (looked for up to 12 hours around the file) are refused.
  const valid: FileFix[] = [];
  if (checked.length) {
    let first = Infinity;
    let last = -Infinity;
    for (const f of checked) {
      first = Math.min(first, f.fixTime.getTime());
      last = Math.max(last, f.fixTime.getTime());
    }
    const [span] = rowsOf<{ first: string | Date | null; last: string | Date | null }>(
      await db.execute(sql`select min(fix_time) as first, max(fix_time) as last from positions
        where asset_id = ${assetId} and protocol <> ${IMPORTED_PROTOCOL}
          and fix_time >= ${new Date(first - AROUND_MS).toISOString()}::timestamptz and fix_time <= ${new Date(last + AROUND_MS).toISOString()}::timestamptz`),
    );
    const lo = span?.first ? new Date(span.first).getTime() : Infinity;
    const hi = span?.last ? new Date(span.last).getTime() : -Infinity;
    for (const f of checked) {
      const t = f.fixTime.getTime();
      if (t >= lo && t <= hi) {
        errors.push({
          line: f.line,
          field: 'time',
          message: `${vehicle.unitNumber} has positions from its device between ${new Date(lo).toISOString()} and ${new Date(hi).toISOString()}`,
        });
      } else valid.push(f);
    }
  }
  errors.sort((a, b) => a.line - b.line);
  const badLines = new Set(errors.map((e) => e.line));
  valid.sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
  return {
    valid,
    result: {
      dryRun: true,
      format,
      totalRows: parsed.totalRows,
      validRows: valid.length,
      invalidRows: Math.min(parsed.totalRows, [...badLines].filter((l) => l > (format === 'CSV' ? 1 : 0)).length),
      imported: 0,
      duplicates: 0,
      errors: errors.slice(0, MAX_ERRORS),
      from: valid[0]?.fixTime.toISOString() ?? null,
      to: valid[valid.length - 1]?.fixTime.toISOString() ?? null,
    },
  };
}

/**
 * Previews (`dryRun`) or imports a vehicle's GPS history. The import stores the valid rows with the
 * vehicle's driver at each fix time and returns them for the work behind ingest (`stored`).
 */
export async function importPositions(
  { db, orgId, actor, now: pinned }: Scope,
  assetId: string,
  body: Body,
): Promise<{ result: PositionImportResult; stored: PositionRow[] }> {
  const now = pinned ?? Date.now();
  if (body.dryRun) return { result: (await analyse(db, orgId, assetId, body, now)).result, stored: [] };
  return db.transaction(async (tx) => {
    const { result, valid } = await analyse(tx, orgId, assetId, body, now);
    const gatewayId = importDeviceId(assetId);
    const stored: PositionRow[] = [];
    // The driver sub-selects name the organization: Citus routes the select to the vehicle's shard.
    for (let i = 0; i < valid.length; i += CHUNK) {
      const part = valid
        .slice(i, i + CHUNK)
        .map((f) => ({ t: f.fixTime.toISOString(), lat: f.latitude, lon: f.longitude, speed: f.speed, course: f.course, alt: f.altitude, odo: f.odometer }));
      const rows = rowsOf<ReturnedPosition>(
        await tx.execute(sql`insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, odometer, protocol, attributes)
          select ${orgId}::uuid, ${gatewayId}::uuid, ${assetId}::uuid,
            coalesce(
              (select a.driver_id from asset_driver_assignments a where a.organization_id = ${orgId} and a.asset_id = ${assetId}::uuid and a.started_at <= x.t and (a.ended_at is null or a.ended_at > x.t)
                order by a.started_at desc limit 1),
              (select v.current_driver_id from assets v where v.organization_id = ${orgId} and v.id = ${assetId}::uuid
                and not exists (select 1 from asset_driver_assignments a where a.organization_id = ${orgId} and a.asset_id = v.id))),
            x.t, now(), x.lat, x.lon, x.speed, x.course, x.alt, x.odo, ${IMPORTED_PROTOCOL}, ${JSON.stringify({ importFormat: result.format })}::jsonb
          from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as x(t timestamptz, lat float8, lon float8, speed real, course real, alt real, odo float8)
          on conflict do nothing
          returning ${RETURNING_POSITION}`),
      );
      for (const r of rows) stored.push(returnedPosition(r));
    }
    if (stored.length) {
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'IMPORT_POSITIONS',
        entityType: 'ASSET',
        entityId: assetId,
        after: { imported: stored.length, format: result.format, from: result.from, to: result.to },
      });
    }
    return { result: { ...result, dryRun: false, imported: stored.length, duplicates: valid.length - stored.length }, stored };
  });
}
