import type { HistoryQuery, HistoryRoute } from '@fleet/api-contract';
import { analyzeTrackColumns, metresPerPixel, selectBySignificance, significanceColumns, type TrackColumns } from '@fleet/geo';
import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import { and, eq, sql, type SQL } from 'drizzle-orm';
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

  // One row holding the range as one array per column, in time order (the index on (subject,
  // fix_time) delivers that order): no result row and no JS object per fix, and the arrays' text
  // is split and parsed in one tight loop. A 1 Hz day is 86,400 fixes (docs/decisions/0057).
  // Course is read afterwards for the kept points only: nothing else needs it, and turning a column
  // into text costs as much as reading the rows on the embedded database (60 ms of 300 for a day).
  // Times travel as whole milliseconds (int8 text is cheaper than float text, and exact).
  const ofSubject = sql`organization_id = ${orgId} and ${sql.identifier(s.column)} = ${id}`;
  const [agg] = rowsOf<ColumnsText>(
    await db.execute(sql`
      select array_agg(t)::text as t, array_agg(latitude)::text as lat, array_agg(longitude)::text as lon,
        array_agg(speed)::text as speed, array_agg(ignition)::text as ignition
      from (select (date_part('epoch', fix_time) * 1000)::int8 as t, latitude, longitude, speed, ignition
        from positions
        where ${ofSubject} and fix_time >= ${q.from}::timestamptz and fix_time < ${q.to}::timestamptz
        order by fix_time) p`),
  );
  const track = parseColumns(agg);
  const n = track.time.length;
  const { stops, summary } = analyzeTrackColumns(track);
  // One Douglas-Peucker pass ranks every point; one pixel at the zoom, then the cap, pick from it.
  const tolerance = n ? metresPerPixel(q.zoom, track.lat[0]!) : 0;
  const { indexes: kept, capped } = selectBySignificance(significanceColumns(track.lat, track.lon), tolerance, q.maxPoints);
  const course = await coursesAt(db, ofSubject, kept.map((i) => track.time[i]!));
  const iso = (ms: number) => new Date(ms).toISOString();
  const orNull = (v: number) => (v === v ? v : null);
  return {
    from: new Date(q.from).toISOString(),
    to: new Date(q.to).toISOString(),
    track: kept.map((i) => ({
      time: iso(track.time[i]!),
      latitude: track.lat[i]!,
      longitude: track.lon[i]!,
      speed: orNull(track.speedKmh[i]!),
      course: course.get(track.time[i]!) ?? null,
      ignition: track.ignition[i] === -1 ? null : track.ignition[i] === 1,
    })),
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
      positions: n,
    },
  };
}

interface ColumnsText {
  t: string | null;
  lat: string | null;
  lon: string | null;
  speed: string | null;
  ignition: string | null;
}

/** The text of a Postgres array of numbers (`{1,2.5,NULL}`) into a typed array; NULL becomes NaN. */
function numbers(text: string | null): Float64Array {
  if (!text || text === '{}') return new Float64Array(0);
  const parts = text.slice(1, -1).split(',');
  const out = new Float64Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    out[i] = p === 'NULL' ? Number.NaN : Number(p);
  }
  return out;
}

/** `{t,f,NULL}` into 1 / 0 / -1. */
function flags(text: string | null): Int8Array {
  if (!text || text === '{}') return new Int8Array(0);
  const parts = text.slice(1, -1).split(',');
  const out = new Int8Array(parts.length);
  for (let i = 0; i < parts.length; i++) out[i] = parts[i] === 't' ? 1 : parts[i] === 'f' ? 0 : -1;
  return out;
}

function parseColumns(agg: ColumnsText | undefined): TrackColumns {
  return {
    time: numbers(agg?.t ?? null),
    lat: numbers(agg?.lat ?? null),
    lon: numbers(agg?.lon ?? null),
    speedKmh: numbers(agg?.speed ?? null),
    ignition: flags(agg?.ignition ?? null),
  };
}

/** Course (null where the fix had none) at the given fix times (epoch ms) of the subject. */
async function coursesAt(db: Db, ofSubject: SQL, times: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (times.length === 0) return out;
  const [row] = rowsOf<{ t: string | null; course: string | null }>(
    await db.execute(sql`
      select array_agg(t)::text as t, array_agg(course)::text as course
      from (select (date_part('epoch', fix_time) * 1000)::int8 as t, course from positions
        where ${ofSubject} and fix_time = any(${`{${times.map((t) => new Date(t).toISOString()).join(',')}}`}::timestamptz[])
        order by fix_time) p`),
  );
  const t = numbers(row?.t ?? null);
  const c = numbers(row?.course ?? null);
  // Two devices of one vehicle may share a fix time: the first one's course is kept.
  for (let i = 0; i < t.length; i++) if (!out.has(t[i]!) && c[i] === c[i]) out.set(t[i]!, c[i]!);
  return out;
}
