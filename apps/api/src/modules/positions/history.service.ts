import type { HistoryQuery, HistoryRoute } from '@fleet/api-contract';
import { analyzeTrack, metresPerPixel, selectBySignificance, significance, type TrackPoint } from '@fleet/geo';
import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { assets, drivers, gateways } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { rowsOf } from './sql-rows.ts';

export type HistorySubject = 'gateways' | 'drivers' | 'assets';

const SUBJECT = {
  gateways: { table: gateways, column: 'gateway_id', label: 'Device' },
  drivers: { table: drivers, column: 'driver_id', label: 'Driver' },
  assets: { table: assets, column: 'asset_id', label: 'Vehicle' },
} as const;

interface Row {
  t: number;
  lat: number;
  lon: number;
  speed: number | null;
  course: number | null;
  ignition: boolean | null;
}

/**
 * The route of a device, driver or vehicle over a time range: the full-resolution fixes feed stop
 * detection and the summary; the track sent to the map is simplified for the zoom and capped.
 * Another organization's subject answers 404.
 */
export async function historyRoute(
  { db, orgId }: { db: Db; orgId: string },
  subject: HistorySubject,
  id: string,
  q: HistoryQuery,
): Promise<HistoryRoute> {
  const s = SUBJECT[subject];
  const found = await db
    .select({ id: s.table.id })
    .from(s.table)
    .where(and(eq(s.table.id, id), eq(s.table.organizationId, orgId)))
    .limit(1);
  if (!found[0]) throw notFound(s.label);

  // Epoch milliseconds as a float: no per-row date parsing for a day of 1 Hz fixes.
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select extract(epoch from fix_time)::float8 * 1000 as t, latitude as lat, longitude as lon, speed, course, ignition
      from positions
      where organization_id = ${orgId} and ${sql.identifier(s.column)} = ${id}
        and fix_time >= ${q.from}::timestamptz and fix_time < ${q.to}::timestamptz
      order by fix_time`),
  );
  const points: TrackPoint[] = rows.map((r) => ({ time: Number(r.t), lat: r.lat, lon: r.lon, speedKmh: r.speed, ignition: r.ignition }));
  const { stops, summary } = analyzeTrack(points);
  // One Douglas-Peucker pass ranks every point; one pixel at the zoom, then the cap, pick from it.
  const tolerance = points.length ? metresPerPixel(q.zoom, points[0]!.lat) : 0;
  const { indexes: kept, capped } = selectBySignificance(significance(points), tolerance, q.maxPoints);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    from: new Date(q.from).toISOString(),
    to: new Date(q.to).toISOString(),
    track: kept.map((i) => {
      const r = rows[i]!;
      return { time: iso(Number(r.t)), latitude: r.lat, longitude: r.lon, speed: r.speed, course: r.course, ignition: r.ignition };
    }),
    capped,
    stops: stops.map((st) => ({
      latitude: st.lat,
      longitude: st.lon,
      start: iso(st.start),
      end: iso(st.end),
      durationS: st.durationS,
      idleS: st.idleS,
      jurisdiction: jurisdictionAt(st.lat, st.lon)?.code ?? null,
    })),
    summary: {
      distanceM: summary.distanceM,
      drivingS: summary.drivingS,
      idleS: summary.idleS,
      stoppedS: summary.stoppedS,
      maxSpeed: summary.maxSpeedKmh,
      averageSpeed: summary.averageSpeedKmh,
      positions: points.length,
    },
  };
}
