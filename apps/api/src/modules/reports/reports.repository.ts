import { eq, sql, type SQL } from 'drizzle-orm';
import type { PageQuery, ReportFilters, VisitRow } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { organizations, users } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { likeTerm, orderBy } from '../../http/paging.ts';
import { inProgressRows, type TripInProgress } from './trip-in-progress.ts';

// The reports' statements (decision 0255): the reader's organization and zone, the filters' ids, and
// one statement per report (a page with its total) and for the detention totals. reports.service.ts
// turns the rows into the contract's.

/** The paging and search of a report page. */
export type Paging = Pick<PageQuery, 'page' | 'size' | 'sort' | 'search'>;

/** The organization's name, zone and settings. */
export async function readOrganization(
  db: DbOrTx,
  orgId: string,
): Promise<{ name: string; tz: string; settings: (typeof organizations.$inferSelect)['settings'] } | undefined> {
  const [o] = await db
    .select({ name: organizations.name, tz: organizations.timeZone, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return o;
}

/** A user's profile zone (null or empty: none chosen). */
export async function readUserTimeZone(db: DbOrTx, userId: string): Promise<string | null | undefined> {
  const [me] = await db.select({ tz: users.timeZone }).from(users).where(eq(users.id, userId));
  return me?.tz;
}

/** Whether the row `id` of `table` is the organization's. */
export async function belongsToOrganization(db: DbOrTx, orgId: string, table: 'assets' | 'drivers' | 'places', id: string): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(await db.execute(sql`select id from ${sql.raw(table)} where id = ${id} and organization_id = ${orgId}`));
  return rows.length > 0;
}

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
function common(orgId: string, f: ReportFilters, x: 'pv' | 't' | 's', time: 'arrived_at' | 'started_at'): SQL[] {
  const col = (c: string) => sql.raw(`${x}.${c}`);
  const parts: SQL[] = [sql`${col('organization_id')} = ${orgId}`];
  if (f.from) parts.push(sql`${col(time)} >= ${at(f.from)}`);
  if (f.to) parts.push(sql`${col(time)} < ${at(f.to)}`);
  if (f.assetId) parts.push(sql`${col('asset_id')} = ${f.assetId}`);
  if (f.driverId) parts.push(sql`${col('driver_id')} = ${f.driverId}`);
  if (f.groupId)
    parts.push(
      sql`exists (select 1 from group_assets ga where ga.asset_id = ${col('asset_id')} and ga.group_id = ${f.groupId} and ga.organization_id = ${orgId})`,
    );
  return parts;
}

// ---------------------------------------------------------------- visits

export type VisitDb = {
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

/** A page of place visits, newest arrival first: dwell up to `now` for a vehicle still there, detention beyond `freeMinutes` at customers only. */
export async function readVisits(db: DbOrTx, orgId: string, now: string, freeMinutes: number, f: ReportFilters, p: Paging): Promise<VisitDb[]> {
  const dwell = sql`greatest(0, floor(extract(epoch from coalesce(pv.departed_at, ${now}::timestamptz) - pv.arrived_at)))`;
  const detention = sql`case when p.category = 'CUSTOMER' then greatest(0, ${dwell} - ${freeMinutes * 60}) else 0 end`;
  const where = common(orgId, f, 'pv', 'arrived_at');
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
  return rowsOf<VisitDb>(
    await db.execute(sql`select pv.id, pv.place_id, p.name as place_name, p.category, pv.asset_id, a.unit_number, pv.driver_id, ${driverName('d')} as driver_name,
        pv.arrived_at, pv.departed_at, ${dwell} as dwell_s, ${detention} as detention_s, count(*) over () as total
      from place_visits pv join places p on p.id = pv.place_id and p.organization_id = pv.organization_id
        left join assets a on a.id = pv.asset_id and a.organization_id = pv.organization_id left join drivers d on d.id = pv.driver_id and d.organization_id = pv.organization_id
      where ${joinAnd(where)} order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
}

// ---------------------------------------------------------------- trips

export type TripDb = {
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
 * The organization's trips, finished (the follower's rows) and under way (`current`, issue 46), as
 * one row source aliased by the caller: the trips under way end at their latest fix, `in_progress` true.
 */
function tripsSource(orgId: string, current: readonly TripInProgress[]): SQL {
  const done = sql`select t0.id::text as id, t0.organization_id, t0.asset_id, t0.driver_id, t0.started_at, t0.ended_at, t0.start_lat, t0.start_lon, t0.end_lat, t0.end_lon,
      t0.start_address, t0.end_address, t0.distance_m, t0.max_speed_kmh, t0.avg_speed_kmh, false as in_progress
    from trips t0 where t0.organization_id = ${orgId}`;
  return current.length ? sql`(${done} union all ${inProgressRows(orgId, current)})` : sql`(${done})`;
}

/**
 * A page of trips, newest first, those under way (`current`) among them; `placeId`: trips that began
 * or ended at the place. Start and end places from the visits covering those times.
 */
export async function readTrips(db: DbOrTx, orgId: string, f: ReportFilters, p: Paging, current: readonly TripInProgress[]): Promise<TripDb[]> {
  const where = common(orgId, f, 't', 'started_at');
  if (f.placeId)
    where.push(
      sql`(exists (${visitCovering(orgId, 't.asset_id', 't.started_at', f.placeId)}) or exists (${visitCovering(orgId, 't.asset_id', 't.ended_at', f.placeId)}))`,
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
  return rowsOf<TripDb>(
    await db.execute(sql`select t.id, t.asset_id, a.unit_number, t.driver_id, ${driverName('d')} as driver_name, t.started_at, t.ended_at,
        t.start_lat, t.start_lon, t.end_lat, t.end_lon, t.start_address, t.end_address,
        sp.place_id as start_place_id, sp.name as start_place_name, ep.place_id as end_place_id, ep.name as end_place_name,
        t.distance_m, t.max_speed_kmh, t.avg_speed_kmh, t.in_progress, count(*) over () as total
      from ${tripsSource(orgId, current)} t left join assets a on a.id = t.asset_id and a.organization_id = ${orgId}
        left join drivers d on d.id = t.driver_id and d.organization_id = ${orgId}
        left join lateral (${visitCovering(orgId, 't.asset_id', 't.started_at')}) sp on true
        left join lateral (${visitCovering(orgId, 't.asset_id', 't.ended_at')}) ep on true
      where ${joinAnd(where)} order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
}

// ---------------------------------------------------------------- stops

export type StopDb = {
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

/** A page of stops, newest first; an ongoing stop lasts until `now`. `placeId`: stops at the place. */
export async function readStops(db: DbOrTx, orgId: string, now: string, f: ReportFilters, p: Paging): Promise<StopDb[]> {
  const where = common(orgId, f, 's', 'started_at');
  if (f.placeId) where.push(sql`exists (${visitCovering(orgId, 's.asset_id', 's.started_at', f.placeId)})`);
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
  return rowsOf<StopDb>(
    await db.execute(sql`select s.id, s.asset_id, a.unit_number, s.driver_id, ${driverName('d')} as driver_name, s.started_at, s.ended_at, s.lat, s.lon, s.address,
        sp.place_id, sp.name as place_name, s.idle_s, s.engine_on, count(*) over () as total
      from vehicle_stops s left join assets a on a.id = s.asset_id and a.organization_id = s.organization_id left join drivers d on d.id = s.driver_id and d.organization_id = s.organization_id
        left join lateral (${visitCovering(orgId, 's.asset_id', 's.started_at')}) sp on true
      where ${joinAnd(where)} order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
}

// ---------------------------------------------------------------- daily summary

export type SummaryDb = {
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
 * A page of the daily summary in zone `tz`: per vehicle (or driver, `byDriver`) and day, the sums of
 * the trips (those under way, `current`, among them) and stops that began that day.
 */
export async function readSummary(
  db: DbOrTx,
  orgId: string,
  tz: string,
  byDriver: boolean,
  f: ReportFilters,
  p: Paging,
  current: readonly TripInProgress[],
): Promise<SummaryDb[]> {
  const tripWhere = common(orgId, f, 't', 'started_at');
  const stopWhere = common(orgId, f, 's', 'started_at');
  if (f.placeId) {
    tripWhere.push(
      sql`(exists (${visitCovering(orgId, 't.asset_id', 't.started_at', f.placeId)}) or exists (${visitCovering(orgId, 't.asset_id', 't.ended_at', f.placeId)}))`,
    );
    stopWhere.push(sql`exists (${visitCovering(orgId, 's.asset_id', 's.started_at', f.placeId)})`);
  }
  const key = (x: string) => sql.raw(byDriver ? `${x}.driver_id` : `${x}.asset_id`);
  // The names' sub-selects name the organization as a parameter: Citus then routes the statement
  // to one shard (a correlated sub-select beside the union is refused otherwise).
  const named = byDriver
    ? sql`null::text as unit_number, (select ${driverName('d')} from drivers d where d.organization_id = ${orgId} and d.id = u.k) as driver_name`
    : sql`(select a.unit_number from assets a where a.organization_id = ${orgId} and a.id = u.k) as unit_number, null::text as driver_name`;
  const order = orderBy(
    p.sort,
    { day: sql`u.day`, distanceKm: sql`sum(u.distance_m)`, drivingSeconds: sql`sum(u.driving_s)`, idleSeconds: sql`sum(u.idle_s)`, stops: sql`sum(u.stops)` },
    sql`u.day desc`,
    sql`u.k`,
  );
  return rowsOf<SummaryDb>(
    await db.execute(sql`select u.k, u.day::text as day, ${named}, sum(u.distance_m) as distance_m, sum(u.driving_s) as driving_s, sum(u.idle_s) as idle_s,
        sum(u.stops) as stops, min(u.first_at) as first_at, max(u.last_at) as last_at, bool_or(u.in_progress) as in_progress, count(*) over () as total
      from (
        select ${key('t')} as k, (t.started_at at time zone ${tz})::date as day, t.distance_m, extract(epoch from t.ended_at - t.started_at) as driving_s,
          0::float8 as idle_s, 0 as stops, t.started_at as first_at, t.ended_at as last_at, t.in_progress
        from ${tripsSource(orgId, current)} t where ${joinAnd(tripWhere)}
        union all
        select ${key('s')}, (s.started_at at time zone ${tz})::date, 0::float8, 0::float8, s.idle_s::float8, 1, null::timestamptz, null::timestamptz, false
        from vehicle_stops s where ${joinAnd(stopWhere)}
      ) u group by u.k, u.day order by ${sql.join(order, sql`, `)} ${limitOf(p)}`),
  );
}

// ---------------------------------------------------------------- detention

export type DetentionDb = {
  place_id: string;
  place_name: string;
  visits: number | string;
  dwell_s: number | string;
  detention_s: number | string;
  with_detention: number | string;
};

/** Per customer place, over the visits that arrived within the filters: visits, dwell, detention beyond `freeMinutes`, and visits with detention. */
export async function readDetention(db: DbOrTx, orgId: string, now: string, freeMinutes: number, f: ReportFilters): Promise<DetentionDb[]> {
  const dwell = sql`greatest(0, floor(extract(epoch from coalesce(pv.departed_at, ${now}::timestamptz) - pv.arrived_at)))`;
  const where = common(orgId, f, 'pv', 'arrived_at');
  where.push(sql`p.category = 'CUSTOMER'`);
  if (f.placeId) where.push(sql`pv.place_id = ${f.placeId}`);
  return rowsOf<DetentionDb>(
    await db.execute(sql`select pv.place_id, p.name as place_name, count(*) as visits, sum(${dwell}) as dwell_s,
        sum(greatest(0, ${dwell} - ${freeMinutes * 60})) as detention_s, count(*) filter (where ${dwell} > ${freeMinutes * 60}) as with_detention
      from place_visits pv join places p on p.id = pv.place_id and p.organization_id = pv.organization_id where ${joinAnd(where)}
      group by pv.place_id, p.name order by sum(greatest(0, ${dwell} - ${freeMinutes * 60})) desc, p.name`),
  );
}
