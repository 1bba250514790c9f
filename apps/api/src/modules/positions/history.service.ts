import { IMPORTED_PROTOCOL, type HistoryQuery, type HistoryRoute } from '@fleet/api-contract';
import { analyzeTrackColumns, inTimeOrder, metresPerPixel, selectBySignificance, significanceColumns, type TrackColumns } from '@fleet/geo';
import { jurisdictionAt } from '@fleet/geo/jurisdictions';
import { describeLocation } from '@fleet/geo/places';
import { and, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { ReadScope } from '../auth/index.ts';
import { BinaryCopyReader, copyBinary, float4Reader, pgliteOf, type EmbeddedPg, sqlLiteral, timestamptzMs } from '../../db/pglite-copy.ts';
import { assets, drivers, gateways, places, placeVisits } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import { rowsOf } from '../../db/sql/rows.ts';

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
export async function historyRoute({ db, orgId }: ReadScope, subject: HistorySubject, id: string, q: HistoryQuery): Promise<HistoryRoute> {
  const s = SUBJECT[subject];
  const found = await db
    .select({ id: s.table.id })
    .from(s.table)
    .where(and(eq(s.table.id, id), eq(s.table.organizationId, orgId)))
    .limit(1);
  if (!found[0]) throw notFound(s.label);

  const ofSubject = sql`organization_id = ${orgId} and ${sql.identifier(s.column)} = ${id}`;
  const pglite = pgliteOf(db);
  const track = pglite ? await readTrackPglite(pglite, s.column, orgId, id, q) : await readTrack(db, ofSubject, q);
  const n = track.time.length;
  const { stops, summary } = analyzeTrackColumns(track);
  // One Douglas-Peucker pass ranks every point; one pixel at the zoom, then the cap, pick from it.
  const tolerance = n ? metresPerPixel(q.zoom, track.lat[0]!) : 0;
  const { indexes: kept, capped } = selectBySignificance(significanceColumns(track.lat, track.lon), tolerance, q.maxPoints);
  const details = await detailsAt(
    db,
    ofSubject,
    kept.map((i) => track.time[i]!),
  );
  const imported = n ? await importedIn(db, ofSubject, q) : null;
  const visits = stops.length && subject !== 'gateways' ? await visitsIn(db, orgId, subject, id, q) : [];
  // The visit under way at the stop's middle (a stop inside a fence is a visit once the dwell passed).
  const placeAt = (start: number, end: number) => {
    const mid = (start + end) / 2;
    return visits.find((v) => v.arrivedAt.getTime() <= mid && (!v.departedAt || v.departedAt.getTime() >= mid)) ?? null;
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const orNull = (v: number) => (v === v ? v : null);
  return {
    from: new Date(q.from).toISOString(),
    to: new Date(q.to).toISOString(),
    imported,
    track: kept.map((i) => ({
      time: iso(track.time[i]!),
      latitude: track.lat[i]!,
      longitude: track.lon[i]!,
      speed: orNull(track.speedKmh[i]!),
      course: details.get(track.time[i]!)?.course ?? null,
      ignition: track.ignition[i] === -1 ? null : track.ignition[i] === 1,
      odometer: details.get(track.time[i]!)?.odometer ?? null,
      odometerSource: details.get(track.time[i]!)?.odometerSource ?? null,
      engineHours: details.get(track.time[i]!)?.engineHours ?? null,
      rpm: details.get(track.time[i]!)?.rpm ?? null,
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
      place: ((v) => (v ? { id: v.placeId, name: v.name } : null))(placeAt(st.start, st.end)),
      address: describeLocation(st.lat, st.lon).text,
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

/** The subject's place visits overlapping the range, with the places' names (issue 32's visits). */
async function visitsIn(db: DbOrTx, orgId: string, subject: 'drivers' | 'assets', id: string, q: HistoryQuery) {
  const who = subject === 'assets' ? eq(placeVisits.assetId, id) : eq(placeVisits.driverId, id);
  return db
    .select({ placeId: placeVisits.placeId, name: places.name, arrivedAt: placeVisits.arrivedAt, departedAt: placeVisits.departedAt })
    .from(placeVisits)
    .innerJoin(places, and(eq(places.id, placeVisits.placeId), eq(places.organizationId, placeVisits.organizationId)))
    .where(
      and(
        eq(placeVisits.organizationId, orgId),
        who,
        lte(placeVisits.arrivedAt, new Date(q.to)),
        or(isNull(placeVisits.departedAt), gte(placeVisits.departedAt, new Date(q.from))),
      ),
    );
}

/** How many of the range's positions were imported from another system's GPS history, and when they lie. */
async function importedIn(db: DbOrTx, ofSubject: SQL, q: HistoryQuery): Promise<HistoryRoute['imported']> {
  const [r] = rowsOf<{ n: number; first: string | Date | null; last: string | Date | null }>(
    await db.execute(sql`select count(*)::int as n, min(fix_time) as first, max(fix_time) as last from positions
      where ${ofSubject} and fix_time >= ${q.from}::timestamptz and fix_time < ${q.to}::timestamptz and protocol = ${IMPORTED_PROTOCOL}`),
  );
  if (!r || r.n === 0 || !r.first || !r.last) return null;
  return { positions: r.n, from: new Date(r.first).toISOString(), to: new Date(r.last).toISOString() };
}

/**
 * The fixes of the range as columns, on PostgreSQL: one row holding one array per column, its text
 * split and parsed in one tight loop (docs/decisions/0057). All the arrays are built in one
 * aggregation pass, so element i of each is the same fix. No ORDER BY: a bitmap scan (what the planner
 * picks for a day of one vehicle among a fleet) hands rows in table order and the sort it needed spilled
 * to disk at the default work_mem; `inTimeOrder` sorts in JS only when the rows were out of order
 * (docs/decisions/0075). Course is read afterwards for the kept points only. Times travel
 * as whole milliseconds (int8 text is cheaper than float text, and exact).
 */
async function readTrack(db: DbOrTx, ofSubject: SQL, q: HistoryQuery): Promise<TrackColumns> {
  const [agg] = rowsOf<ColumnsText>(
    await db.execute(sql`
      select array_agg(t)::text as t, array_agg(latitude)::text as lat, array_agg(longitude)::text as lon,
        array_agg(speed)::text as speed, array_agg(ignition)::text as ignition
      from (select (date_part('epoch', fix_time) * 1000)::int8 as t, latitude, longitude, speed, ignition
        from positions
        where ${ofSubject} and fix_time >= ${q.from}::timestamptz and fix_time < ${q.to}::timestamptz) p`),
  );
  return inTimeOrder(parseColumns(agg));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The same columns on the embedded PGlite, through binary COPY (docs/decisions/0075): the engine
 * sends each value's binary form (no float or timestamp text to format inside WebAssembly, none to
 * parse in JS) and one DataView pass fills the typed arrays. Same rows, same order, same values as
 * `readTrack`: times are computed as its SQL computes them and speeds (float4) read back as their
 * text would.
 */
async function readTrackPglite(client: EmbeddedPg, column: string, orgId: string, id: string, q: HistoryQuery): Promise<TrackColumns> {
  // COPY takes no bind parameters; the ids are checked as UUIDs and every value is a quoted literal.
  if (!UUID.test(orgId) || !UUID.test(id)) throw new Error('history: ids must be UUIDs');
  // No ORDER BY: the rows come in the order of the plan the engine picks (the (subject, fix_time)
  // index, or a bitmap or sequential scan in table order, which is arrival order), and a sort inside
  // the engine (an external merge at the default work_mem) cost more than the whole read. Fixes
  // arrive in time order nearly always; `inTimeOrder` sorts here when they did not.
  const bytes = await copyBinary(
    client,
    `select fix_time, latitude, longitude, speed, ignition from positions
      where organization_id = ${sqlLiteral(orgId)} and ${column} = ${sqlLiteral(id)}
        and fix_time >= ${sqlLiteral(q.from)}::timestamptz and fix_time < ${sqlLiteral(q.to)}::timestamptz`,
  );
  // A row is at least 2 + 5 * 4 bytes: enough room for every row, trimmed after.
  const cap = Math.floor(bytes.byteLength / 22);
  const time = new Float64Array(cap);
  const lat = new Float64Array(cap);
  const lon = new Float64Array(cap);
  const speedKmh = new Float64Array(cap);
  const ignition = new Int8Array(cap);
  const reader = new BinaryCopyReader(bytes);
  const view = reader.view;
  const float4 = float4Reader();
  let n = 0;
  while (reader.row() === 5) {
    reader.field(); // fix_time, never null
    time[n] = timestamptzMs(view, reader.offset);
    reader.field();
    lat[n] = view.getFloat64(reader.offset);
    reader.field();
    lon[n] = view.getFloat64(reader.offset);
    speedKmh[n] = reader.field() < 0 ? Number.NaN : float4(view, reader.offset);
    ignition[n] = reader.field() < 0 ? -1 : view.getUint8(reader.offset) ? 1 : 0;
    n++;
  }
  return inTimeOrder({
    time: time.subarray(0, n),
    lat: lat.subarray(0, n),
    lon: lon.subarray(0, n),
    speedKmh: speedKmh.subarray(0, n),
    ignition: ignition.subarray(0, n),
  });
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

/** What a kept point shows besides its position: course and the engine data its fix carries. */
interface PointDetails {
  course: number | null;
  odometer: number | null;
  odometerSource: 'ECM' | 'GPS' | null;
  engineHours: number | null;
  rpm: number | null;
}

/**
 * Course and engine data (odometer, engine hours, rpm: issue 46's point detail) at the given fix
 * times (epoch ms) of the subject, read for the kept points only. Two devices of one vehicle may
 * share a fix time: the first one's is kept.
 */
async function detailsAt(db: DbOrTx, ofSubject: SQL, times: number[]): Promise<Map<number, PointDetails>> {
  const out = new Map<number, PointDetails>();
  if (times.length === 0) return out;
  // One row of arrays, as the track itself is read (a row per point cost more on the embedded database).
  const [row] = rowsOf<{ t: string | null; course: string | null; odometer: string | null; source: string | null; hours: string | null; rpm: string | null }>(
    await db.execute(sql`
      select array_agg(t)::text as t, array_agg(course)::text as course, array_agg(odometer)::text as odometer, array_agg(odometer_source)::text as source,
        array_agg(engine_hours)::text as hours, array_agg(rpm)::text as rpm
      from (select (date_part('epoch', fix_time) * 1000)::int8 as t, course, odometer, odometer_source, engine_hours,
          case when jsonb_typeof(attributes->'rpm') = 'number' then (attributes->>'rpm')::float8 end as rpm
        from positions
        where ${ofSubject} and fix_time = any(${`{${times.map((t) => new Date(t).toISOString()).join(',')}}`}::timestamptz[])
        order by fix_time) p`),
  );
  const t = numbers(row?.t ?? null);
  const course = numbers(row?.course ?? null);
  const odometer = numbers(row?.odometer ?? null);
  const hours = numbers(row?.hours ?? null);
  const rpm = numbers(row?.rpm ?? null);
  const source = row?.source && row.source !== '{}' ? row.source.slice(1, -1).split(',') : [];
  const orNull = (v: number) => (v === v ? v : null);
  for (let i = 0; i < t.length; i++) {
    if (out.has(t[i]!)) continue;
    const s = source[i];
    out.set(t[i]!, {
      course: orNull(course[i]!),
      odometer: orNull(odometer[i]!),
      odometerSource: s === 'ECM' || s === 'GPS' ? s : null,
      engineHours: orNull(hours[i]!),
      rpm: orNull(rpm[i]!),
    });
  }
  return out;
}
