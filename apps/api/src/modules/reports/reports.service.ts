import { eq, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_DETENTION_FREE_MINUTES,
  DEFAULT_ORGANIZATION_SETTINGS,
  type PageQuery,
  type ReportFilters,
  type StopRow,
  type SummaryRow,
  type TripRow,
  type UnitSystem,
  type VisitRow,
} from '@fleet/api-contract';
import { organizations, users } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { likeTerm, orderBy, toPage } from '../../http/paging.ts';
import type { ReadScope } from '../auth/index.ts';
import { assertGroup } from '../groups/index.ts';
import { inProgressRows, tripsInProgress } from './trip-in-progress.ts';

// The four reports and the detention totals (issue 32, decision 0163), read from the rows the
// followers keep behind ingest: place visits (the places follower), trips and stops (ours). Days
// and the zone named are the reader's (decision 0140); distances leave as km, speeds as km/h.

/** What every report is read with: whose zone, which units, the detention free time, the clock. */
export interface ReportContext {
  orgId: string;
  orgName: string;
  timeZone: string;
  units: UnitSystem;
  freeMinutes: number;
  now: number;
}

/** Exports and e-mails carry at most this many rows (a note says when more were left out). */
export const EXPORT_MAX_ROWS = 10_000;

/** The report context of a reader: their profile zone (else the organization's), or `timeZone` when given (a subscription's). */
export async function reportContext(scope: ReadScope, userId: string | null, timeZone?: string): Promise<ReportContext> {
  const [o] = await scope.db
    .select({ name: organizations.name, tz: organizations.timeZone, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, scope.orgId));
  if (!o) throw notFound('Organization');
  let tz = timeZone ?? null;
  if (!tz && userId) {
    const [me] = await scope.db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId));
    tz = me?.tz || null;
  }
  const free = (o.settings as { detention?: { freeMinutes?: unknown } }).detention?.freeMinutes;
  return {
    orgId: scope.orgId,
    orgName: o.name,
    timeZone: tz || o.tz,
    units: o.settings.units ?? DEFAULT_ORGANIZATION_SETTINGS.units,
    freeMinutes: typeof free === 'number' && free >= 0 ? Math.round(free) : DEFAULT_DETENTION_FREE_MINUTES,
    now: scope.now ?? Date.now(),
  };
}

/** Each id of the filters must be the organization's (another organization's answers 404, as everywhere), and `to` after `from`. */
export async function checkFilters(scope: ReadScope, f: ReportFilters): Promise<void> {
  if (f.from && f.to && Date.parse(f.to) <= Date.parse(f.from)) throw invalidField('to', 'to must be after from');
  const one = async (table: string, id: string | undefined, what: string) => {
    if (!id) return;
    const rows = rowsOf<{ id: string }>(await scope.db.execute(sql`select id from ${sql.raw(table)} where id = ${id} and organization_id = ${scope.orgId}`));
    if (rows.length === 0) throw notFound(what);
  };
  await one('assets', f.assetId, 'Vehicle');
  await one('drivers', f.driverId, 'Driver');
  await one('places', f.placeId, 'Place');
  if (f.groupId) await assertGroup(scope.db, scope.orgId, f.groupId);
}

type Paging = Pick<PageQuery, 'page' | 'size' | 'sort' | 'search'>;
const ts = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
const at = (iso: string) => sql`${iso}::timestamptz`;
const limitOf = (p: Paging) => sql`limit ${p.size} offset ${p.page * p.size}`;
const joinAnd = (parts: SQL[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);
const driverName = (alias: string) => sql.raw(`nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), '')`);

/**
 * A visit of the vehicle covering the instant (2 minutes either side: the places' dwell times), its
 * place first. It names the organization as a parameter: Citus routes a statement to one shard only
 * when every table in it is tied to the organization by a constant (a column of a union with a
 * trip under way is not).
 */
const visitCovering = (orgId: string, assetCol: string, instant: string, placeId?: string) =>
  sql`select pv.place_id, p.name from place_visits pv join places p on p.id = pv.place_id and p.organization_id = ${orgId}
    where pv.organization_id = ${orgId} and pv.asset_id = ${sql.raw(assetCol)} and pv.arrived_at <= ${sql.raw(instant)} + interval '2 minutes'
      and (pv.departed_at is null or pv.departed_at >= ${sql.raw(instant)} - interval '2 minutes') ${placeId ? sql`and pv.place_id = ${placeId}` : sql``}
    order by pv.arrived_at desc limit 1`;

/**
 * The common filters on a table aliased `x` (visits, trips, stops: each has organization_id,
 * asset_id and driver_id) with `time` its start column: the organization first, always.
 */
function common(scope: ReadScope, f: ReportFilters, x: 'pv' | 't' | 's', time: 'arrived_at' | 'started_at'): SQL[] {
  const col = (c: string) => sql.raw(`${x}.${c}`);
  const parts: SQL[] = [sql`${col('organization_id')} = ${scope.orgId}`];
  if (f.from) parts.push(sql`${col(time)} >= ${at(f.from)}`);
  if (f.to) parts.push(sql`${col(time)} < ${at(f.to)}`);
  if (f.assetId) parts.push(sql`${col('asset_id')} = ${f.assetId}`);
  if (f.driverId) parts.push(sql`${col('driver_id')} = ${f.driverId}`);
  if (f.groupId)
    parts.push(
      sql`exists (select 1 from group_assets ga where ga.asset_id = ${col('asset_id')} and ga.group_id = ${f.groupId} and ga.organization_id = ${scope.orgId})`,
    );
  return parts;
}

// ---------------------------------------------------------------- visits

type VisitDb = {
  id: string;
  place_id: string;
  place_name: string;
  category: VisitRow['category'];
  asset_id: string;
  unit_number: string | null;
  driver_id: string | null;
  driver_name: string | null;
  arrived_at: string | Date;
  departed_at: string | Date | null;
  dwell_s: number | string;
  detention_s: number | string;
  total: number | string;
};

/** Place visits, newest arrival first: dwell up to now for a vehicle still there, detention beyond the free time at customers only. */
export async function queryVisits(scope: ReadScope, ctx: ReportContext, f: ReportFilters, p: Paging): Promise<{ rows: VisitRow[]; total: number }> {
  const now = new Date(ctx.now).toISOString();
  const dwell = sql`greatest(0, floor(extract(epoch from coalesce(pv.departed_at, ${now}::timestamptz) - pv.arrived_at)))`;
  const detention = sql`case when p.category = 'CUSTOMER' then greatest(0, ${dwell} - ${ctx.freeMinutes * 60}) else 0 end`;
  const where = common(scope, f, 'pv', 'arrived_at');
  if (f.placeId) where.push(sql`pv.place_id = ${f.placeId}`);
  if (p.search) where.push(sql`(lower(p.name) like ${likeTerm(p.search)} or lower(coalesce(a.unit_number, '')) like ${likeTerm(p.search)})`);
  const order = orderBy(
    p.sort,
    {
      arrivedAt: sql`pv.arrived_at`,
      departedAt: sql`pv.departed_at`,
      dwellSeconds: dwell,
      detentionSeconds: detention,
      placeName: sql`p.name`,
      unitNumber: sql`a.unit_number`,
    },
    sql`pv.arrived_at desc`,
    sql`pv.id`,
  );
  const rows = rowsOf<VisitDb>(
    await scope.db
      .execute(sql`select pv.id, pv.place_id, p.name as place_name, p.category, pv.asset_id, a.unit_number, pv.driver_id, ${driverName('d')} as driver_name,
        pv.arrived_at, pv.departed_at, ${dwell} as dwell_s, ${detention} as detention_s, count(*) over () as total
      from place_visits pv join places p on p.id = pv.place_id and p.organization_id = pv.organization_id
        left join assets a on a.id = pv.asset_id and a.organization_id = pv.organization_id left join drivers d on d.id = pv.driver_id and d.organization_id = pv.organization_id
      where ${joinAnd(where)} order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      placeId: r.place_id,
      placeName: r.place_name,
      category: r.category,
      assetId: r.asset_id,
      unitNumber: r.unit_number ?? '',
      driverId: r.driver_id,
      driverName: r.driver_name,
      arrivedAt: ts(r.arrived_at)!,
      departedAt: ts(r.departed_at),
      dwellSeconds: Number(r.dwell_s),
      detentionSeconds: Number(r.detention_s),
    })),
  };
}

// ---------------------------------------------------------------- trips

type TripDb = {
  id: string;
  asset_id: string;
  unit_number: string | null;
  driver_id: string | null;
  driver_name: string | null;
  started_at: string | Date;
  ended_at: string | Date;
  start_lat: number;
  start_lon: number;
  end_lat: number;
  end_lon: number;
  start_address: string | null;
  end_address: string | null;
  start_place_id: string | null;
  start_place_name: string | null;
  end_place_id: string | null;
  end_place_name: string | null;
  distance_m: number;
  max_speed_kmh: number;
  avg_speed_kmh: number;
  in_progress: boolean;
  total: number | string;
};

/**
 * The organization's trips, finished (the follower's rows) and under way (issue 46), as one row
 * source aliased by the caller: the trips under way end at their latest fix, `in_progress` true.
 */
async function tripsSource(scope: ReadScope, f: ReportFilters): Promise<SQL> {
  const current = await tripsInProgress(scope, f);
  const done = sql`select t0.id::text as id, t0.organization_id, t0.asset_id, t0.driver_id, t0.started_at, t0.ended_at, t0.start_lat, t0.start_lon, t0.end_lat, t0.end_lon,
      t0.start_address, t0.end_address, t0.distance_m, t0.max_speed_kmh, t0.avg_speed_kmh, false as in_progress
    from trips t0 where t0.organization_id = ${scope.orgId}`;
  return current.length ? sql`(${done} union all ${inProgressRows(scope.orgId, current)})` : sql`(${done})`;
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const seconds = (a: string | Date, b: string | Date) => Math.max(0, Math.round((new Date(b).getTime() - new Date(a).getTime()) / 1000));

/**
 * Trips, newest first, a trip under way among them (`inProgress`, ending at its latest fix);
 * `placeId`: trips that began or ended at the place. Start and end places from the visits covering those times.
 */
export async function queryTrips(scope: ReadScope, f: ReportFilters, p: Paging): Promise<{ rows: TripRow[]; total: number }> {
  const where = common(scope, f, 't', 'started_at');
  if (f.placeId)
    where.push(
      sql`(exists (${visitCovering(scope.orgId, 't.asset_id', 't.started_at', f.placeId)}) or exists (${visitCovering(scope.orgId, 't.asset_id', 't.ended_at', f.placeId)}))`,
    );
  if (p.search)
    where.push(
      sql`(lower(coalesce(a.unit_number, '')) like ${likeTerm(p.search)} or lower(coalesce(t.start_address, '') || ' ' || coalesce(t.end_address, '')) like ${likeTerm(p.search)})`,
    );
  const order = orderBy(
    p.sort,
    {
      startedAt: sql`t.started_at`,
      endedAt: sql`t.ended_at`,
      distanceKm: sql`t.distance_m`,
      durationSeconds: sql`(t.ended_at - t.started_at)`,
      maxSpeedKmh: sql`t.max_speed_kmh`,
      avgSpeedKmh: sql`t.avg_speed_kmh`,
      unitNumber: sql`a.unit_number`,
    },
    sql`t.started_at desc`,
    sql`t.id`,
  );
  const rows = rowsOf<TripDb>(
    await scope.db.execute(sql`select t.id, t.asset_id, a.unit_number, t.driver_id, ${driverName('d')} as driver_name, t.started_at, t.ended_at,
        t.start_lat, t.start_lon, t.end_lat, t.end_lon, t.start_address, t.end_address,
        sp.place_id as start_place_id, sp.name as start_place_name, ep.place_id as end_place_id, ep.name as end_place_name,
        t.distance_m, t.max_speed_kmh, t.avg_speed_kmh, t.in_progress, count(*) over () as total
      from ${await tripsSource(scope, f)} t left join assets a on a.id = t.asset_id and a.organization_id = ${scope.orgId}
        left join drivers d on d.id = t.driver_id and d.organization_id = ${scope.orgId}
        left join lateral (${visitCovering(scope.orgId, 't.asset_id', 't.started_at')}) sp on true
        left join lateral (${visitCovering(scope.orgId, 't.asset_id', 't.ended_at')}) ep on true
      where ${joinAnd(where)} order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
  const ref = (id: string | null, name: string | null) => (id ? { id, name: name ?? '' } : null);
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      asset: { id: r.asset_id, unitNumber: r.unit_number ?? '' },
      driver: ref(r.driver_id, r.driver_name),
      startedAt: ts(r.started_at)!,
      endedAt: ts(r.ended_at)!,
      start: { latitude: r.start_lat, longitude: r.start_lon, place: ref(r.start_place_id, r.start_place_name), address: r.start_address },
      end: { latitude: r.end_lat, longitude: r.end_lon, place: ref(r.end_place_id, r.end_place_name), address: r.end_address },
      distanceKm: round3(r.distance_m / 1000),
      durationSeconds: seconds(r.started_at, r.ended_at),
      maxSpeedKmh: round1(Number(r.max_speed_kmh)),
      avgSpeedKmh: round1(Number(r.avg_speed_kmh)),
      inProgress: r.in_progress === true,
    })),
  };
}

// ---------------------------------------------------------------- stops

type StopDb = {
  id: string;
  asset_id: string;
  unit_number: string | null;
  driver_id: string | null;
  driver_name: string | null;
  started_at: string | Date;
  ended_at: string | Date | null;
  lat: number;
  lon: number;
  address: string | null;
  place_id: string | null;
  place_name: string | null;
  idle_s: number;
  engine_on: boolean | null;
  total: number | string;
};

/** Stops, newest first; an ongoing stop lasts until now. `placeId`: stops at the place. */
export async function queryStops(scope: ReadScope, ctx: ReportContext, f: ReportFilters, p: Paging): Promise<{ rows: StopRow[]; total: number }> {
  const now = new Date(ctx.now).toISOString();
  const where = common(scope, f, 's', 'started_at');
  if (f.placeId) where.push(sql`exists (${visitCovering(scope.orgId, 's.asset_id', 's.started_at', f.placeId)})`);
  if (p.search) where.push(sql`(lower(coalesce(a.unit_number, '')) like ${likeTerm(p.search)} or lower(coalesce(s.address, '')) like ${likeTerm(p.search)})`);
  const order = orderBy(
    p.sort,
    {
      startedAt: sql`s.started_at`,
      endedAt: sql`s.ended_at`,
      durationSeconds: sql`(coalesce(s.ended_at, ${now}::timestamptz) - s.started_at)`,
      idleSeconds: sql`s.idle_s`,
      unitNumber: sql`a.unit_number`,
    },
    sql`s.started_at desc`,
    sql`s.id`,
  );
  const rows = rowsOf<StopDb>(
    await scope.db
      .execute(sql`select s.id, s.asset_id, a.unit_number, s.driver_id, ${driverName('d')} as driver_name, s.started_at, s.ended_at, s.lat, s.lon, s.address,
        sp.place_id, sp.name as place_name, s.idle_s, s.engine_on, count(*) over () as total
      from vehicle_stops s left join assets a on a.id = s.asset_id and a.organization_id = s.organization_id left join drivers d on d.id = s.driver_id and d.organization_id = s.organization_id
        left join lateral (${visitCovering(scope.orgId, 's.asset_id', 's.started_at')}) sp on true
      where ${joinAnd(where)} order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      id: r.id,
      asset: { id: r.asset_id, unitNumber: r.unit_number ?? '' },
      driver: r.driver_id ? { id: r.driver_id, name: r.driver_name ?? '' } : null,
      startedAt: ts(r.started_at)!,
      endedAt: ts(r.ended_at),
      durationSeconds: seconds(r.started_at, r.ended_at ?? now),
      where: { latitude: r.lat, longitude: r.lon, place: r.place_id ? { id: r.place_id, name: r.place_name ?? '' } : null, address: r.address },
      idleSeconds: Number(r.idle_s),
      engineOn: r.engine_on,
    })),
  };
}

// ---------------------------------------------------------------- daily summary

type SummaryDb = {
  k: string | null;
  day: string;
  unit_number: string | null;
  driver_name: string | null;
  distance_m: number | string;
  driving_s: number | string;
  idle_s: number | string;
  stops: number | string;
  first_at: string | Date | null;
  last_at: string | Date | null;
  in_progress: boolean | null;
  total: number | string;
};

/**
 * The daily summary in the reader's zone: per vehicle and day (or per driver with `by=driver` or a
 * driver filter), the sums of the trips and stops that began that day: distance and driving time of
 * the trips, idle time and number of the stops, the first trip's start and the last trip's end.
 * A trip under way counts on the day it began, up to the vehicle's latest fix (`inProgress`).
 */
export async function querySummary(
  scope: ReadScope,
  ctx: ReportContext,
  f: ReportFilters & { by?: 'vehicle' | 'driver' },
  p: Paging,
): Promise<{ rows: SummaryRow[]; total: number }> {
  const byDriver = f.by === 'driver' || (f.by === undefined && f.driverId !== undefined);
  const tripWhere = common(scope, f, 't', 'started_at');
  const stopWhere = common(scope, f, 's', 'started_at');
  if (f.placeId) {
    tripWhere.push(
      sql`(exists (${visitCovering(scope.orgId, 't.asset_id', 't.started_at', f.placeId)}) or exists (${visitCovering(scope.orgId, 't.asset_id', 't.ended_at', f.placeId)}))`,
    );
    stopWhere.push(sql`exists (${visitCovering(scope.orgId, 's.asset_id', 's.started_at', f.placeId)})`);
  }
  const key = (x: string) => sql.raw(byDriver ? `${x}.driver_id` : `${x}.asset_id`);
  const tz = ctx.timeZone;
  // The names' sub-selects name the organization as a parameter: Citus then routes the statement
  // to one shard (a correlated sub-select beside the union is refused otherwise).
  const named = byDriver
    ? sql`null::text as unit_number, (select ${driverName('d')} from drivers d where d.organization_id = ${scope.orgId} and d.id = u.k) as driver_name`
    : sql`(select a.unit_number from assets a where a.organization_id = ${scope.orgId} and a.id = u.k) as unit_number, null::text as driver_name`;
  const order = orderBy(
    p.sort,
    { day: sql`u.day`, distanceKm: sql`sum(u.distance_m)`, drivingSeconds: sql`sum(u.driving_s)`, idleSeconds: sql`sum(u.idle_s)`, stops: sql`sum(u.stops)` },
    sql`u.day desc`,
    sql`u.k`,
  );
  const rows = rowsOf<SummaryDb>(
    await scope.db
      .execute(sql`select u.k, u.day::text as day, ${named}, sum(u.distance_m) as distance_m, sum(u.driving_s) as driving_s, sum(u.idle_s) as idle_s,
        sum(u.stops) as stops, min(u.first_at) as first_at, max(u.last_at) as last_at, bool_or(u.in_progress) as in_progress, count(*) over () as total
      from (
        select ${key('t')} as k, (t.started_at at time zone ${tz})::date as day, t.distance_m, extract(epoch from t.ended_at - t.started_at) as driving_s,
          0::float8 as idle_s, 0 as stops, t.started_at as first_at, t.ended_at as last_at, t.in_progress
        from ${await tripsSource(scope, f)} t where ${joinAnd(tripWhere)}
        union all
        select ${key('s')}, (s.started_at at time zone ${tz})::date, 0::float8, 0::float8, s.idle_s::float8, 1, null::timestamptz, null::timestamptz, false
        from vehicle_stops s where ${joinAnd(stopWhere)}
      ) u group by u.k, u.day order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((r) => ({
      day: r.day.slice(0, 10),
      asset: byDriver || !r.k ? null : { id: r.k, unitNumber: r.unit_number ?? '' },
      driver: byDriver && r.k ? { id: r.k, name: r.driver_name ?? '' } : null,
      distanceKm: round3(Number(r.distance_m) / 1000),
      drivingSeconds: Math.round(Number(r.driving_s)),
      idleSeconds: Math.round(Number(r.idle_s)),
      stops: Number(r.stops),
      firstMovementAt: ts(r.first_at),
      lastMovementAt: ts(r.last_at),
      inProgress: r.in_progress === true,
    })),
  };
}

// ---------------------------------------------------------------- detention

/** Detention per customer place over the visits that arrived within the filters. */
export async function detentionTotals(scope: ReadScope, ctx: ReportContext, f: ReportFilters) {
  const now = new Date(ctx.now).toISOString();
  const dwell = sql`greatest(0, floor(extract(epoch from coalesce(pv.departed_at, ${now}::timestamptz) - pv.arrived_at)))`;
  const where = common(scope, f, 'pv', 'arrived_at');
  where.push(sql`p.category = 'CUSTOMER'`);
  if (f.placeId) where.push(sql`pv.place_id = ${f.placeId}`);
  const rows = rowsOf<{
    place_id: string;
    place_name: string;
    visits: number | string;
    dwell_s: number | string;
    detention_s: number | string;
    with_detention: number | string;
  }>(
    await scope.db.execute(sql`select pv.place_id, p.name as place_name, count(*) as visits, sum(${dwell}) as dwell_s,
        sum(greatest(0, ${dwell} - ${ctx.freeMinutes * 60})) as detention_s, count(*) filter (where ${dwell} > ${ctx.freeMinutes * 60}) as with_detention
      from place_visits pv join places p on p.id = pv.place_id and p.organization_id = pv.organization_id where ${joinAnd(where)}
      group by pv.place_id, p.name order by sum(greatest(0, ${dwell} - ${ctx.freeMinutes * 60})) desc, p.name`),
  );
  return {
    freeMinutes: ctx.freeMinutes,
    timeZone: ctx.timeZone,
    content: rows.map((r) => ({
      placeId: r.place_id,
      placeName: r.place_name,
      visits: Number(r.visits),
      dwellSeconds: Number(r.dwell_s),
      detentionSeconds: Number(r.detention_s),
      visitsWithDetention: Number(r.with_detention),
    })),
  };
}

// ---------------------------------------------------------------- pages

export type ReportQuery = ReportFilters & Paging & { page: number; size: number };

/** One page of a report for the signed-in reader, in their zone. */
export async function reportPage<R>(
  scope: ReadScope,
  userId: string,
  q: ReportQuery,
  read: (ctx: ReportContext) => Promise<{ rows: R[]; total: number }>,
): Promise<{ content: R[]; page: number; size: number; totalElements: number; totalPages: number; timeZone: string }> {
  await checkFilters(scope, q);
  const ctx = await reportContext(scope, userId);
  const { rows, total } = await read(ctx);
  return { ...toPage(rows, total, q), timeZone: ctx.timeZone };
}
