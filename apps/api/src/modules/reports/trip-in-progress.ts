import { sql, type SQL } from 'drizzle-orm';
import type { ReportFilters } from '@fleet/api-contract';
import { describeLocation } from '@fleet/geo/places';
import { rowsOf } from '../../db/sql/rows.ts';
import type { ReadScope } from '../auth/index.ts';
import { MAX_GAP_MS } from '../fleet-stats/index.ts';
import { TripFolder } from './trip-fold.ts';

// Trips under way (issue 46). The trips follower writes a trip once it ends, so a truck driving
// since dawn showed "0.0 mi · 0 min" in the daily summary and no trip in history. A vehicle whose
// latest stop has ended (or that has none) is on a trip: it is folded here from that stop's start
// to the vehicle's latest fix, with the follower's own fold, so the figures are the ones the trip
// will have when it ends, up to its latest fix.

/** A vehicle without any stop yet is folded from this long before its latest fix. */
const NO_STOP_REACH_MS = 24 * 3_600_000;

/** A trip under way: from its first moving fix to the vehicle's latest fix. */
export interface TripInProgress {
  assetId: string;
  /**
   * False when the device has been silent longer than MAX_GAP_MS since: by the fold's rule the trip
   * ended at that fix (the follower writes it when the device speaks again), so it is not "in progress".
   */
  inProgress: boolean;
  driverId: string | null;
  startedAt: string;
  /** The latest fix (the trip's end so far). */
  lastFixAt: string;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  startAddress: string;
  endAddress: string;
  distanceM: number;
  maxSpeedKmh: number;
}

/**
 * The trips under way of the organization's vehicles within the filters (vehicle, group, driver at
 * the trip's start; `from`/`to` bound its start, as every report's rows). None for a place filter:
 * a trip under way has not ended anywhere yet.
 */
export async function tripsInProgress(scope: ReadScope, f: ReportFilters): Promise<TripInProgress[]> {
  if (f.placeId) return [];
  const where: SQL[] = [sql`lp.organization_id = ${scope.orgId}`];
  if (f.assetId) where.push(sql`lp.asset_id = ${f.assetId}`);
  if (f.groupId)
    where.push(
      sql`exists (select 1 from group_assets ga where ga.asset_id = lp.asset_id and ga.group_id = ${f.groupId} and ga.organization_id = ${scope.orgId})`,
    );
  // A trip that began after `to` cannot be in the report; one under way began before its latest fix.
  if (f.from) where.push(sql`lp.fix_time >= ${f.from}::timestamptz`);
  const candidates = rowsOf<{ asset_id: string; stop_start: string | Date | null; fix_time: string | Date }>(
    await scope.db.execute(sql`select lp.asset_id, s.started_at as stop_start, lp.fix_time
      from latest_positions lp
        left join lateral (select vs.started_at, vs.ended_at from vehicle_stops vs where vs.organization_id = lp.organization_id and vs.asset_id = lp.asset_id
          order by vs.started_at desc limit 1) s on true
      where ${sql.join(where, sql` and `)} and (s.started_at is null or s.ended_at is not null)`),
  );
  const out: TripInProgress[] = [];
  const now = scope.now ?? Date.now();
  for (const c of candidates) {
    const latest = new Date(c.fix_time).getTime();
    const from = c.stop_start ? new Date(c.stop_start).getTime() : latest - NO_STOP_REACH_MS;
    // As the follower reads a vehicle (trips-stops.service.ts): one JSON text of the fixes.
    const [r] = rowsOf<{ j: string | null }>(
      await scope.db
        .execute(sql`select json_agg(json_build_array(extract(epoch from fix_time)::float8 * 1000, latitude, longitude, speed, ignition, driver_id) order by fix_time)::text as j
        from positions where organization_id = ${scope.orgId} and asset_id = ${c.asset_id} and fix_time >= ${new Date(from).toISOString()}::timestamptz`),
    );
    const fixes = r?.j ? (JSON.parse(r.j) as Array<[number, number, number, number | null, boolean | null, string | null]>) : [];
    const folder = new TripFolder(c.stop_start !== null);
    for (const [t, lat, lon, speed, ignition, driverId] of fixes) folder.add({ t: Math.round(t), lat, lon, speed, ignition, driverId });
    const trip = folder.openTrip();
    if (!trip) continue;
    if (f.from && trip.start.t < Date.parse(f.from)) continue;
    if (f.to && trip.start.t >= Date.parse(f.to)) continue;
    if (f.driverId && trip.start.driverId !== f.driverId) continue;
    out.push({
      assetId: c.asset_id,
      inProgress: now - trip.end.t <= MAX_GAP_MS,
      driverId: trip.start.driverId,
      startedAt: new Date(trip.start.t).toISOString(),
      lastFixAt: new Date(trip.end.t).toISOString(),
      startLat: trip.start.lat,
      startLon: trip.start.lon,
      endLat: trip.end.lat,
      endLon: trip.end.lon,
      startAddress: describeLocation(trip.start.lat, trip.start.lon).text,
      endAddress: describeLocation(trip.end.lat, trip.end.lon).text,
      distanceM: trip.distanceM,
      maxSpeedKmh: trip.maxSpeedKmh,
    });
  }
  return out;
}

/**
 * The trips under way as rows shaped like the `trips` table's (for a union beside it): the id is
 * `in-progress:<vehicle>` (`ended:<vehicle>` for one whose device fell silent), the end is the latest
 * fix, and `in_progress` says whether it is under way.
 */
export function inProgressRows(orgId: string, list: readonly TripInProgress[]): SQL {
  const json = JSON.stringify(
    list.map((x) => {
      const hours = (Date.parse(x.lastFixAt) - Date.parse(x.startedAt)) / 3_600_000;
      return {
        id: `${x.inProgress ? 'in-progress' : 'ended'}:${x.assetId}`,
        asset_id: x.assetId,
        driver_id: x.driverId,
        started_at: x.startedAt,
        ended_at: x.lastFixAt,
        start_lat: x.startLat,
        start_lon: x.startLon,
        end_lat: x.endLat,
        end_lon: x.endLon,
        start_address: x.startAddress,
        end_address: x.endAddress,
        distance_m: x.distanceM,
        max_speed_kmh: x.maxSpeedKmh,
        avg_speed_kmh: hours > 0 ? x.distanceM / 1000 / hours : 0,
        in_progress: x.inProgress,
      };
    }),
  );
  return sql`select x.id, ${orgId}::uuid as organization_id, x.asset_id, x.driver_id, x.started_at, x.ended_at, x.start_lat, x.start_lon, x.end_lat, x.end_lon,
      x.start_address, x.end_address, x.distance_m, x.max_speed_kmh, x.avg_speed_kmh, x.in_progress
    from json_to_recordset(${json}::json) as x(id text, asset_id uuid, driver_id uuid, started_at timestamptz, ended_at timestamptz, start_lat float8, start_lon float8,
      end_lat float8, end_lon float8, start_address text, end_address text, distance_m float8, max_speed_kmh real, avg_speed_kmh real, in_progress boolean)`;
}
