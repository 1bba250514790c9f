import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import { MOVING_SPEED_KMH } from '../vehicle-status.ts';
import type { PositionWriter } from './group-committer.ts';
import { RETURNING_POSITION, returnedPosition, type LatePositionsOptions, type PositionRow, type ReturnedPosition } from './position-row.ts';
import { POSITIONS_CHANNEL } from './position-store.ts';

// Positions stored before they belonged to a vehicle (a device paired after it reported, with a
// start in the past) are given to the vehicle here, and handed to the followers of a commit
// (IFTA miles, automatic duty status, daily statistics) as late positions.

/**
 * Gives the device's positions from `from` on that belong to no vehicle (asset null, or a vehicle
 * that no longer exists) to `assetId`, each with the vehicle's driver at its fix time (the
 * assignment history; the current driver when the vehicle has none, as ingest does). With
 * `onlyWhilePaired`, only while the device is still paired with that vehicle (a later sweep).
 * Returns the rows changed, in time order. Every table is named with the organization: Citus then
 * routes the whole statement to its shard (sub-selects by asset alone were "complex joins").
 */
export async function attributeDevicePositions(
  tx: DbOrTx,
  p: { orgId: string; gatewayId: string; assetId: string; from: Date; onlyWhilePaired?: boolean },
): Promise<PositionRow[]> {
  const still = p.onlyWhilePaired
    ? sql`and exists (select 1 from gateways g where g.organization_id = ${p.orgId} and g.id = ${p.gatewayId} and g.asset_id = ${p.assetId})`
    : sql``;
  const rows = rowsOf<ReturnedPosition>(
    await tx.execute(sql`update positions x set asset_id = ${p.assetId}::uuid,
        driver_id = coalesce(
          (select a.driver_id from asset_driver_assignments a where a.organization_id = ${p.orgId} and a.asset_id = ${p.assetId}::uuid and a.started_at <= x.fix_time
             and (a.ended_at is null or a.ended_at > x.fix_time) order by a.started_at desc limit 1),
          (select v.current_driver_id from assets v where v.organization_id = ${p.orgId} and v.id = ${p.assetId}::uuid
             and not exists (select 1 from asset_driver_assignments a where a.organization_id = ${p.orgId} and a.asset_id = v.id)))
      where x.gateway_id = ${p.gatewayId} and x.organization_id = ${p.orgId} and x.fix_time >= ${p.from.toISOString()}::timestamptz
        and (x.asset_id is null or not exists (select 1 from assets v where v.organization_id = ${p.orgId} and v.id = x.asset_id)) ${still}
      returning ${RETURNING_POSITION}`),
  ).map(returnedPosition);
  rows.sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
  if (rows.length) await moveLatest(tx, rows);
  return rows;
}

/**
 * The vehicle's latest position (the map) from the newest attributed fix when it is newer than
 * what the map shows, with the status inputs ingest keeps (last moving fix, start of the trailing
 * stationary run), and the live map told.
 */
async function moveLatest(tx: DbOrTx, rows: readonly PositionRow[]): Promise<void> {
  const newest = rows[rows.length - 1]!;
  let movedAt: Date | null = null;
  let stillSince: Date | null = null;
  for (const r of rows) {
    if ((r.speed ?? 0) >= MOVING_SPEED_KMH) {
      movedAt = r.fixTime;
      stillSince = null;
    } else stillSince ??= r.fixTime;
  }
  const n = newest;
  await tx.execute(sql`insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed, course,
      altitude, accuracy, odometer, ignition, last_moving_at, stationary_since, attributes)
    values (${n.assetId}, ${n.organizationId}, ${n.gatewayId}, ${n.driverId}, ${n.fixTime.toISOString()}::timestamptz, now(), ${n.latitude}, ${n.longitude},
      ${n.speed}, ${n.course}, ${n.altitude}, ${n.accuracy}, ${n.odometer}, ${n.ignition}, ${movedAt?.toISOString() ?? null}::timestamptz,
      ${stillSince?.toISOString() ?? null}::timestamptz, '{}'::jsonb)
    on conflict (asset_id, organization_id) do update set gateway_id = excluded.gateway_id, driver_id = excluded.driver_id,
      fix_time = excluded.fix_time, server_time = excluded.server_time, latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed,
      course = excluded.course, altitude = excluded.altitude, accuracy = excluded.accuracy, odometer = excluded.odometer, ignition = excluded.ignition,
      last_moving_at = coalesce(excluded.last_moving_at, latest_positions.last_moving_at), stationary_since = excluded.stationary_since, attributes = excluded.attributes
    where latest_positions.fix_time < excluded.fix_time`);
  await tx.execute(sql`select pg_notify(${POSITIONS_CHANNEL}, ${JSON.stringify({ o: n.organizationId, a: [n.assetId] })})`);
}

/** Hands positions stored earlier, now belonging to a vehicle, to the followers of a commit as late positions. */
export function handLate(writer: PositionWriter, rows: readonly PositionRow[], opts: LatePositionsOptions): void {
  if (rows.length) writer.late?.(rows, opts);
}
