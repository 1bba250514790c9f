import { sql, type SQL } from 'drizzle-orm';
import type { TrackFix } from '@fleet/geo/ifta';
import type { DbOrTx } from '../../db/client.ts';
import { insertValues } from '../../db/sql/routed-insert.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import type { DayRecords } from './distance-days.ts';

// The distance tables' reads and writes (decision 0121). Writes go as one typed array per column
// through unnest, the ingest technique (decision 0055): one statement for a whole round.

/** Class of the advisory locks (first key) serialising a vehicle's distance records across instances. */
export const IFTA_LOCK_CLASS = 724_311_117;

const nul = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? 'NULL' : String(v));
const quoted = (v: string | null | undefined) => (v === null || v === undefined ? 'NULL' : `"${v.replace(/[\\"]/g, '\\$&')}"`);
const arr = <T>(rows: readonly T[], f: (r: T) => string) => `{${rows.map(f).join(',')}}`;

export interface VehicleState {
  vehicleId: string;
  orgId: string;
  fix: TrackFix;
}

/** Takes the vehicles' locks in one order (no deadlock between instances). PostgreSQL only: PGlite is one process. */
export async function lockVehicles(tx: DbOrTx, vehicleIds: readonly string[]): Promise<void> {
  if (vehicleIds.length === 0) return;
  await tx.execute(
    sql`select count(pg_advisory_xact_lock(${IFTA_LOCK_CLASS}::int, k)) from (select distinct hashtext(v) as k from unnest(${arr(vehicleIds, (v) => v)}::text[]) v order by 1) x`,
  );
}

/** The last counted fix of each listed vehicle of the organization (named: one shard on Citus, decision 0204). */
export async function readStates(tx: DbOrTx, orgId: string, vehicleIds: readonly string[]): Promise<Map<string, VehicleState>> {
  const out = new Map<string, VehicleState>();
  if (vehicleIds.length === 0) return out;
  const rows = rowsOf<{
    vehicle_id: string;
    organization_id: string;
    t: number | string;
    latitude: number;
    longitude: number;
    speed: number | null;
    odometer: number | null;
  }>(
    await tx.execute(sql`select vehicle_id, organization_id, extract(epoch from fix_time) * 1000 as t, latitude, longitude, speed, odometer
      from ifta_vehicle_state where organization_id = ${orgId} and vehicle_id = any(${arr(vehicleIds, (v) => v)}::uuid[])`),
  );
  for (const r of rows) {
    out.set(r.vehicle_id, {
      vehicleId: r.vehicle_id,
      orgId: r.organization_id,
      fix: { time: Math.round(Number(r.t)), lat: r.latitude, lon: r.longitude, speedKmh: r.speed ?? 0, odometerM: r.odometer },
    });
  }
  return out;
}

type FixRow = { t: number | string; latitude: number; longitude: number; speed: number | null; odometer: number | null };
const toFix = (r: FixRow): TrackFix => ({ time: Math.round(Number(r.t)), lat: r.latitude, lon: r.longitude, speedKmh: r.speed ?? 0, odometerM: r.odometer });

/**
 * Several vehicles' stored fixes with after < time ≤ until, each in time order and at most `limit`
 * a vehicle (a round's cold vehicles: after a restart, every vehicle is). A vehicle may say its fixes
 * after `knownFromMs` are in memory already, `knownCount` of them: when the table holds exactly that
 * many after it, the read stops at `knownFromMs` instead of reading them back. One statement per
 * chunk of vehicles, a UNION ALL of one branch per vehicle naming its organization: Citus refuses a
 * LIMIT in a lateral subquery over an unnest (decision 0169), and each branch routes to one shard.
 */
export async function fixesAfterMany(
  tx: DbOrTx,
  items: ReadonlyArray<{ vehicleId: string; orgId: string; afterMs: number | null; untilMs: number; knownFromMs?: number; knownCount?: number }>,
  limit: number,
): Promise<Map<string, TrackFix[]>> {
  const out = new Map<string, TrackFix[]>();
  for (let i = 0; i < items.length; i += FIXES_CHUNK) {
    const branches = items.slice(i, i + FIXES_CHUNK).map((it) => {
      const z = sql`to_timestamp(${it.untilMs / 1000})`;
      const k = it.knownFromMs;
      // The upper bound: the known fixes' start when the table holds exactly the known ones after it.
      const until =
        k !== undefined && it.knownCount !== undefined && k < it.untilMs
          ? sql`case when (select count(*) from positions where organization_id = ${it.orgId} and asset_id = ${it.vehicleId}
              and fix_time > to_timestamp(${k / 1000}) and fix_time <= ${z}) = ${it.knownCount} then to_timestamp(${k / 1000}) else ${z} end`
          : z;
      const after = it.afterMs === null ? sql`'-infinity'::timestamptz` : sql`to_timestamp(${it.afterMs / 1000})`;
      return sql`(select ${it.vehicleId}::uuid as v, extract(epoch from fix_time) * 1000 as t, latitude, longitude, speed, odometer from positions
        where organization_id = ${it.orgId} and asset_id = ${it.vehicleId} and fix_time > ${after} and fix_time <= ${until}
        order by fix_time limit ${limit})`;
    });
    const rows = rowsOf<FixRow & { v: string }>(await tx.execute(sql.join(branches, sql` union all `)));
    for (const r of rows) {
      const list = out.get(r.v);
      if (list) list.push(toFix(r));
      else out.set(r.v, [toFix(r)]);
    }
  }
  // UNION ALL keeps no order across branches on Citus: each vehicle's list is put in time order.
  for (const list of out.values()) list.sort((a, b) => a.time - b.time);
  return out;
}

/** Vehicles per fixesAfterMany statement (its parameters stay well under PostgreSQL's 65,535). */
const FIXES_CHUNK = 200;

/** The stored fix just before `ms` and the first at or after `endMs` (≤ watermark), for a range recompute; the organization named (one shard on Citus). */
export async function neighbours(
  tx: DbOrTx,
  orgId: string,
  vehicleId: string,
  startMs: number,
  endMs: number,
  watermarkMs: number,
): Promise<{ before: TrackFix | null; after: TrackFix | null }> {
  const [b, a] = await Promise.all([
    tx.execute(sql`select extract(epoch from fix_time) * 1000 as t, latitude, longitude, speed, odometer from positions
      where organization_id = ${orgId} and asset_id = ${vehicleId} and fix_time < to_timestamp(${startMs / 1000}) order by fix_time desc limit 1`),
    tx.execute(sql`select extract(epoch from fix_time) * 1000 as t, latitude, longitude, speed, odometer from positions
      where organization_id = ${orgId} and asset_id = ${vehicleId} and fix_time >= to_timestamp(${endMs / 1000}) and fix_time <= to_timestamp(${watermarkMs / 1000}) order by fix_time limit 1`),
  ]);
  const before = rowsOf<FixRow>(b)[0];
  const after = rowsOf<FixRow>(a)[0];
  return { before: before ? toFix(before) : null, after: after ? toFix(after) : null };
}

/** A vehicle's stored fixes in [startMs, endMs) and ≤ watermark, in time order (its organization named). */
export async function fixesBetween(tx: DbOrTx, orgId: string, vehicleId: string, startMs: number, endMs: number, watermarkMs: number): Promise<TrackFix[]> {
  const rows = rowsOf<FixRow>(
    await tx.execute(sql`select extract(epoch from fix_time) * 1000 as t, latitude, longitude, speed, odometer from positions
      where organization_id = ${orgId} and asset_id = ${vehicleId} and fix_time >= to_timestamp(${startMs / 1000}) and fix_time < to_timestamp(${endMs / 1000})
        and fix_time <= to_timestamp(${watermarkMs / 1000}) order by fix_time`),
  );
  return rows.map(toFix);
}

export interface VehicleDays {
  vehicleId: string;
  orgId: string;
  days: DayRecords;
}

interface Flat {
  distance: Array<{ o: string; v: string; day: string; j: string; m: number; im: number }>;
  vdays: Array<{
    o: string;
    v: string;
    day: string;
    first: number | null;
    last: number | null;
    os: number | null;
    oe: number | null;
    n: number;
    m: number;
    ot: number;
    om: number;
  }>;
  crossings: Array<{ o: string; v: string; day: string; t: number; lat: number; lon: number; odo: number | null; from: string; to: string }>;
  flagged: Array<{
    o: string;
    v: string;
    day: string;
    ft: number;
    tt: number;
    flat: number;
    flon: number;
    tlat: number;
    tlon: number;
    flags: string;
    m: number;
    js: string;
    jm: string;
  }>;
}

function flatten(list: readonly VehicleDays[]): Flat {
  const f: Flat = { distance: [], vdays: [], crossings: [], flagged: [] };
  for (const { vehicleId: v, orgId: o, days } of list) {
    for (const r of days.values()) {
      let total = 0;
      for (const [j, [m, im]] of r.metres) {
        f.distance.push({ o, v, day: r.day, j, m, im });
        total += m;
      }
      if (r.fixes > 0 || total > 0)
        f.vdays.push({
          o,
          v,
          day: r.day,
          first: r.firstFixAt,
          last: r.lastFixAt,
          os: r.odometerStartM,
          oe: r.odometerEndM,
          n: r.fixes,
          m: total,
          ot: r.odometerTravelM,
          om: r.odometerMetres,
        });
      for (const c of r.crossings) f.crossings.push({ o, v, day: r.day, t: c.time, lat: c.lat, lon: c.lon, odo: c.odometerM, from: c.from, to: c.to });
      for (const s of r.flagged) {
        f.flagged.push({
          o,
          v,
          day: r.day,
          ft: s.from.time,
          tt: s.to.time,
          flat: s.from.lat,
          flon: s.from.lon,
          tlat: s.to.lat,
          tlon: s.to.lon,
          flags: s.flags.join(','),
          m: s.metres,
          js: s.jurisdictions.join(','),
          jm: JSON.stringify(s.byJurisdiction),
        });
      }
    }
  }
  return f;
}

/**
 * The round's day records added to what is stored (metres summed, first/last fix widened, odometer
 * start kept and end moved), crossings and flagged stretches inserted, the vehicles' states moved to
 * their last fix, and days that received late fixes marked for a recompute: one statement per
 * organization, so that on Citus each lands on that organization's shards (decision 0169) instead of
 * being pulled through the coordinator.
 */
export async function writeRound(
  tx: DbOrTx,
  records: readonly VehicleDays[],
  states: readonly VehicleState[],
  dirty: ReadonlyArray<{ vehicleId: string; orgId: string; day: string }>,
  routed = false,
): Promise<void> {
  const orgs = new Set<string>([...records.map((r) => r.orgId), ...states.map((s) => s.orgId), ...dirty.map((d) => d.orgId)]);
  // Citus refuses now() in an upsert's DO UPDATE on a distributed table: the time is a parameter.
  const now = new Date().toISOString();
  for (const org of orgs) {
    await (routed ? writeOrgRoundRouted : writeOrgRound)(
      tx,
      records.filter((r) => r.orgId === org),
      states.filter((s) => s.orgId === org),
      dirty.filter((d) => d.orgId === org),
      now,
    );
  }
}

/** How a round's rows merge into what is stored: the same for the array statement and the routed one. */
const DISTANCE_DAYS_MERGE = sql`on conflict (vehicle_id, day, jurisdiction, organization_id) do update
        set metres = ifta_distance_days.metres + excluded.metres, interpolated_metres = ifta_distance_days.interpolated_metres + excluded.interpolated_metres`;
const DISTANCE_MONTHS_MERGE = sql`on conflict (vehicle_id, month, jurisdiction, organization_id) do update
        set metres = ifta_distance_months.metres + excluded.metres, interpolated_metres = ifta_distance_months.interpolated_metres + excluded.interpolated_metres`;
const VEHICLE_MONTHS_MERGE = sql`on conflict (vehicle_id, month, organization_id) do update set metres = ifta_vehicle_months.metres + excluded.metres,
        odometer_travel_m = ifta_vehicle_months.odometer_travel_m + excluded.odometer_travel_m, odometer_metres = ifta_vehicle_months.odometer_metres + excluded.odometer_metres`;
const VEHICLE_DAYS_MERGE = sql`on conflict (vehicle_id, day, organization_id) do update set
        metres = ifta_vehicle_days.metres + excluded.metres,
        odometer_travel_m = ifta_vehicle_days.odometer_travel_m + excluded.odometer_travel_m,
        odometer_metres = ifta_vehicle_days.odometer_metres + excluded.odometer_metres,
        first_fix_at = least(ifta_vehicle_days.first_fix_at, excluded.first_fix_at),
        last_fix_at = greatest(ifta_vehicle_days.last_fix_at, excluded.last_fix_at),
        odometer_start_m = coalesce(ifta_vehicle_days.odometer_start_m, excluded.odometer_start_m),
        odometer_end_m = coalesce(excluded.odometer_end_m, ifta_vehicle_days.odometer_end_m),
        fixes = ifta_vehicle_days.fixes + excluded.fixes`;
const STATE_MERGE = sql`on conflict (vehicle_id, organization_id) do update set fix_time = excluded.fix_time, latitude = excluded.latitude,
        longitude = excluded.longitude, speed = excluded.speed, odometer = excluded.odometer, updated_at = excluded.updated_at`;

/** writeRound's statement for one organization's rows. */
async function writeOrgRound(
  tx: DbOrTx,
  records: readonly VehicleDays[],
  states: readonly VehicleState[],
  dirty: ReadonlyArray<{ vehicleId: string; orgId: string; day: string }>,
  now: string,
): Promise<void> {
  const f = flatten(records);
  // Nothing at all to write: a crossing or a flagged stretch alone is still written (as the routed write does).
  if (!f.distance.length && !f.vdays.length && !f.crossings.length && !f.flagged.length && !states.length && !dirty.length) return;
  const d = f.distance;
  const vd = f.vdays;
  const c = f.crossings;
  const fl = f.flagged;
  await tx.execute(sql`
    with d_in as materialized (
      select * from unnest(${arr(d, (r) => r.o)}::uuid[], ${arr(d, (r) => r.v)}::uuid[], ${arr(d, (r) => r.day)}::date[], ${arr(d, (r) => quoted(r.j))}::text[],
                           ${arr(d, (r) => nul(r.m))}::float8[], ${arr(d, (r) => nul(r.im))}::float8[]) as u(o, v, day, j, m, im)
    ), dist as (
      insert into ifta_distance_days (organization_id, vehicle_id, day, jurisdiction, metres, interpolated_metres)
      select o, v, day, j, m, im from d_in
      ${DISTANCE_DAYS_MERGE}
      returning 1
    ), months as (
      insert into ifta_distance_months (organization_id, vehicle_id, month, jurisdiction, metres, interpolated_metres)
      select o, v, date_trunc('month', day)::date, j, sum(m), sum(im) from d_in group by o, v, date_trunc('month', day)::date, j
      ${DISTANCE_MONTHS_MERGE}
      returning 1
    ), vd_in as materialized (
      select * from unnest(${arr(vd, (r) => r.o)}::uuid[], ${arr(vd, (r) => r.v)}::uuid[], ${arr(vd, (r) => r.day)}::date[], ${arr(vd, (r) => nul(r.first))}::float8[],
                  ${arr(vd, (r) => nul(r.last))}::float8[], ${arr(vd, (r) => nul(r.os))}::float8[], ${arr(vd, (r) => nul(r.oe))}::float8[], ${arr(vd, (r) => String(r.n))}::int[],
                  ${arr(vd, (r) => nul(r.m))}::float8[], ${arr(vd, (r) => nul(r.ot))}::float8[], ${arr(vd, (r) => nul(r.om))}::float8[])
        as u(o, v, day, ft, lt, os, oe, n, m, ot, om)
    ), vmonths as (
      insert into ifta_vehicle_months (organization_id, vehicle_id, month, metres, odometer_travel_m, odometer_metres)
      select o, v, date_trunc('month', day)::date, sum(m), sum(ot), sum(om) from vd_in group by o, v, date_trunc('month', day)::date
      ${VEHICLE_MONTHS_MERGE}
      returning 1
    ), vdays as (
      insert into ifta_vehicle_days (organization_id, vehicle_id, day, first_fix_at, last_fix_at, odometer_start_m, odometer_end_m, fixes, metres, odometer_travel_m, odometer_metres)
      select u.o, u.v, u.day, to_timestamp(u.ft / 1000), to_timestamp(u.lt / 1000), u.os, u.oe, u.n, u.m, u.ot, u.om from vd_in u
      ${VEHICLE_DAYS_MERGE}
      returning 1
    ), cross_ins as (
      insert into ifta_crossings (organization_id, vehicle_id, day, crossed_at, latitude, longitude, odometer_m, from_jurisdiction, to_jurisdiction)
      select u.o, u.v, u.day, to_timestamp(u.t / 1000), u.lat, u.lon, u.odo, u.fj, u.tj
      from unnest(${arr(c, (r) => r.o)}::uuid[], ${arr(c, (r) => r.v)}::uuid[], ${arr(c, (r) => r.day)}::date[], ${arr(c, (r) => nul(r.t))}::float8[],
                  ${arr(c, (r) => nul(r.lat))}::float8[], ${arr(c, (r) => nul(r.lon))}::float8[], ${arr(c, (r) => nul(r.odo))}::float8[],
                  ${arr(c, (r) => quoted(r.from))}::text[], ${arr(c, (r) => quoted(r.to))}::text[]) as u(o, v, day, t, lat, lon, odo, fj, tj)
      returning 1
    ), flag_ins as (
      insert into ifta_flagged_segments (organization_id, vehicle_id, day, from_time, to_time, from_lat, from_lon, to_lat, to_lon, flags, metres, jurisdictions, metres_by_jurisdiction)
      select u.o, u.v, u.day, to_timestamp(u.ft / 1000), to_timestamp(u.tt / 1000), u.flat, u.flon, u.tlat, u.tlon, string_to_array(u.flags, ','), u.m, string_to_array(u.js, ','), u.jm::jsonb
      from unnest(${arr(fl, (r) => r.o)}::uuid[], ${arr(fl, (r) => r.v)}::uuid[], ${arr(fl, (r) => r.day)}::date[], ${arr(fl, (r) => nul(r.ft))}::float8[],
                  ${arr(fl, (r) => nul(r.tt))}::float8[], ${arr(fl, (r) => nul(r.flat))}::float8[], ${arr(fl, (r) => nul(r.flon))}::float8[], ${arr(fl, (r) => nul(r.tlat))}::float8[],
                  ${arr(fl, (r) => nul(r.tlon))}::float8[], ${arr(fl, (r) => quoted(r.flags))}::text[], ${arr(fl, (r) => nul(r.m))}::float8[], ${arr(fl, (r) => quoted(r.js))}::text[],
                  ${arr(fl, (r) => quoted(r.jm))}::text[])
        as u(o, v, day, ft, tt, flat, flon, tlat, tlon, flags, m, js, jm)
      returning 1
    ), st as (
      insert into ifta_vehicle_state (vehicle_id, organization_id, fix_time, latitude, longitude, speed, odometer, updated_at)
      select u.v, u.o, to_timestamp(u.t / 1000), u.lat, u.lon, u.speed, u.odo, ${now}::timestamptz
      from unnest(${arr(states, (s) => s.vehicleId)}::uuid[], ${arr(states, (s) => s.orgId)}::uuid[], ${arr(states, (s) => nul(s.fix.time))}::float8[],
                  ${arr(states, (s) => nul(s.fix.lat))}::float8[], ${arr(states, (s) => nul(s.fix.lon))}::float8[], ${arr(states, (s) => nul(s.fix.speedKmh))}::float8[],
                  ${arr(states, (s) => nul(s.fix.odometerM))}::float8[]) as u(v, o, t, lat, lon, speed, odo)
      ${STATE_MERGE}
      returning 1
    ), dd as (
      insert into ifta_dirty_days (vehicle_id, day, organization_id)
      select distinct u.v, u.day, u.o from unnest(${arr(dirty, (r) => r.vehicleId)}::uuid[], ${arr(dirty, (r) => r.day)}::date[], ${arr(dirty, (r) => r.orgId)}::uuid[]) as u(v, day, o)
      on conflict do nothing
      returning 1
    )
    select (select count(*) from dist) + (select count(*) from months) + (select count(*) from vmonths) + (select count(*) from vdays) + (select count(*) from cross_ins) + (select count(*) from flag_ins)
      + (select count(*) from st) + (select count(*) from dd) as n`);
}

/** A float8 parameter, or null. */
const f8 = (x: number | null | undefined): SQL => (x === null || x === undefined ? sql`null::float8` : sql`${x}::float8`);
const ts = (ms: number | null | undefined): SQL => (ms === null || ms === undefined ? sql`null::timestamptz` : sql`to_timestamp(${ms}::float8 / 1000)`);
/** SQL's sum(): nulls skipped, null when every value is. */
const addSql = (a: number | null, b: number | null | undefined): number | null => (b === null || b === undefined ? a : (a ?? 0) + b);
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * writeOrgRound on Citus (decision 0207): the same rows as routed multi-row VALUES, one statement
 * per table, with the month rollups summed here as the statement's GROUP BY sums them. Its INSERT
 * CTEs fed from unnest were planned through the coordinator, 21 ms a round on the test cluster, and
 * waited for any organization's block_writes move.
 */
async function writeOrgRoundRouted(
  tx: DbOrTx,
  records: readonly VehicleDays[],
  states: readonly VehicleState[],
  dirty: ReadonlyArray<{ vehicleId: string; orgId: string; day: string }>,
  now: string,
): Promise<void> {
  const f = flatten(records);
  await insertValues(
    tx,
    sql`insert into ifta_distance_days (organization_id, vehicle_id, day, jurisdiction, metres, interpolated_metres)`,
    f.distance.map((r) => [sql`${r.o}::uuid`, sql`${r.v}::uuid`, sql`${r.day}::date`, sql`${r.j}::text`, f8(r.m), f8(r.im)]),
    DISTANCE_DAYS_MERGE,
  );
  const months = new Map<string, { o: string; v: string; month: string; j: string; m: number | null; im: number | null }>();
  for (const r of f.distance) {
    const k = `${r.v}|${monthOf(r.day)}|${r.j}`;
    const x = months.get(k) ?? { o: r.o, v: r.v, month: monthOf(r.day), j: r.j, m: null, im: null };
    x.m = addSql(x.m, r.m);
    x.im = addSql(x.im, r.im);
    months.set(k, x);
  }
  await insertValues(
    tx,
    sql`insert into ifta_distance_months (organization_id, vehicle_id, month, jurisdiction, metres, interpolated_metres)`,
    [...months.values()].map((r) => [sql`${r.o}::uuid`, sql`${r.v}::uuid`, sql`${r.month}::date`, sql`${r.j}::text`, f8(r.m), f8(r.im)]),
    DISTANCE_MONTHS_MERGE,
  );
  const vmonths = new Map<string, { o: string; v: string; month: string; m: number | null; ot: number | null; om: number | null }>();
  for (const r of f.vdays) {
    const k = `${r.v}|${monthOf(r.day)}`;
    const x = vmonths.get(k) ?? { o: r.o, v: r.v, month: monthOf(r.day), m: null, ot: null, om: null };
    x.m = addSql(x.m, r.m);
    x.ot = addSql(x.ot, r.ot);
    x.om = addSql(x.om, r.om);
    vmonths.set(k, x);
  }
  await insertValues(
    tx,
    sql`insert into ifta_vehicle_months (organization_id, vehicle_id, month, metres, odometer_travel_m, odometer_metres)`,
    [...vmonths.values()].map((r) => [sql`${r.o}::uuid`, sql`${r.v}::uuid`, sql`${r.month}::date`, f8(r.m), f8(r.ot), f8(r.om)]),
    VEHICLE_MONTHS_MERGE,
  );
  await insertValues(
    tx,
    sql`insert into ifta_vehicle_days (organization_id, vehicle_id, day, first_fix_at, last_fix_at, odometer_start_m, odometer_end_m, fixes, metres, odometer_travel_m, odometer_metres)`,
    f.vdays.map((r) => [
      sql`${r.o}::uuid`,
      sql`${r.v}::uuid`,
      sql`${r.day}::date`,
      ts(r.first),
      ts(r.last),
      f8(r.os),
      f8(r.oe),
      sql`${r.n}::int`,
      f8(r.m),
      f8(r.ot),
      f8(r.om),
    ]),
    VEHICLE_DAYS_MERGE,
  );
  await insertValues(
    tx,
    sql`insert into ifta_crossings (organization_id, vehicle_id, day, crossed_at, latitude, longitude, odometer_m, from_jurisdiction, to_jurisdiction)`,
    f.crossings.map((r) => [
      sql`${r.o}::uuid`,
      sql`${r.v}::uuid`,
      sql`${r.day}::date`,
      ts(r.t),
      f8(r.lat),
      f8(r.lon),
      f8(r.odo),
      sql`${r.from}::text`,
      sql`${r.to}::text`,
    ]),
  );
  await insertValues(
    tx,
    sql`insert into ifta_flagged_segments (organization_id, vehicle_id, day, from_time, to_time, from_lat, from_lon, to_lat, to_lon, flags, metres, jurisdictions, metres_by_jurisdiction)`,
    f.flagged.map((r) => [
      sql`${r.o}::uuid`,
      sql`${r.v}::uuid`,
      sql`${r.day}::date`,
      ts(r.ft),
      ts(r.tt),
      f8(r.flat),
      f8(r.flon),
      f8(r.tlat),
      f8(r.tlon),
      sql`string_to_array(${r.flags}::text, ',')`,
      f8(r.m),
      sql`string_to_array(${r.js}::text, ',')`,
      sql`${r.jm}::jsonb`,
    ]),
  );
  await insertValues(
    tx,
    sql`insert into ifta_vehicle_state (vehicle_id, organization_id, fix_time, latitude, longitude, speed, odometer, updated_at)`,
    states.map((s) => [
      sql`${s.vehicleId}::uuid`,
      sql`${s.orgId}::uuid`,
      ts(s.fix.time),
      f8(s.fix.lat),
      f8(s.fix.lon),
      f8(s.fix.speedKmh),
      f8(s.fix.odometerM),
      sql`${now}::timestamptz`,
    ]),
    STATE_MERGE,
  );
  const marks = new Map(dirty.map((d) => [`${d.vehicleId}|${d.day}`, d]));
  await insertValues(
    tx,
    sql`insert into ifta_dirty_days (vehicle_id, day, organization_id)`,
    [...marks.values()].map((d) => [sql`${d.vehicleId}::uuid`, sql`${d.day}::date`, sql`${d.orgId}::uuid`]),
    sql`on conflict do nothing`,
  );
}

/** A vehicle's days [fromDay, toDay] and their freshly computed records. */
export interface DayRange {
  vehicleId: string;
  fromDay: string;
  toDay: string;
  days: DayRecords;
}

/**
 * Replaces the ranges' records with freshly computed ones (a recompute): every range's stored records
 * deleted (the month rollups less what they held) in one statement, then all the new records written
 * as one round (writeRound adds them back to the month rollups). A vehicle's ranges
 * must not overlap: a day in two of them would be written twice.
 */
export async function replaceDays(tx: DbOrTx, orgId: string, ranges: readonly DayRange[], routed = false): Promise<void> {
  if (ranges.length === 0) return;
  const ids = sql`${`{${[...new Set(ranges.map((r) => r.vehicleId))].join(',')}}`}::uuid[]`;
  const keys = JSON.stringify(ranges.map((r) => ({ v: r.vehicleId, f: r.fromDay, t: r.toDay })));
  const inRange = sql`exists (select 1 from json_to_recordset(${keys}::json) as k(v uuid, f date, t date) where k.v = x.vehicle_id and x.day between k.f and k.t)`;
  // date_trunc on a date would take the timestamptz (stable) form: Citus refuses it in RETURNING;
  // through timestamp (immutable) it gives the same month.
  await tx.execute(sql`with a as (delete from ifta_distance_days x where x.organization_id = ${orgId} and x.vehicle_id = any(${ids}) and ${inRange}
        returning x.vehicle_id as v, date_trunc('month', x.day::timestamp)::date as month, x.jurisdiction, x.metres, x.interpolated_metres),
    agg as (select v, month, jurisdiction, sum(metres) as m, sum(interpolated_metres) as im from a group by v, month, jurisdiction),
    months as (update ifta_distance_months x set metres = x.metres - agg.m, interpolated_metres = x.interpolated_metres - agg.im
      from agg where x.organization_id = ${orgId} and x.vehicle_id = agg.v and x.month = agg.month and x.jurisdiction = agg.jurisdiction returning 1),
    b as (delete from ifta_vehicle_days x where x.organization_id = ${orgId} and x.vehicle_id = any(${ids}) and ${inRange}
        returning x.vehicle_id as v, date_trunc('month', x.day::timestamp)::date as month, x.metres, x.odometer_travel_m, x.odometer_metres),
    bagg as (select v, month, sum(metres) as m, sum(odometer_travel_m) as ot, sum(odometer_metres) as om from b group by v, month),
    vmonths as (update ifta_vehicle_months x set metres = x.metres - bagg.m, odometer_travel_m = x.odometer_travel_m - bagg.ot, odometer_metres = x.odometer_metres - bagg.om
      from bagg where x.organization_id = ${orgId} and x.vehicle_id = bagg.v and x.month = bagg.month returning 1),
    c as (delete from ifta_crossings x where x.organization_id = ${orgId} and x.vehicle_id = any(${ids}) and ${inRange} returning 1),
    d as (delete from ifta_flagged_segments x where x.organization_id = ${orgId} and x.vehicle_id = any(${ids}) and ${inRange} returning 1)
    select (select count(*) from a) + (select count(*) from months) + (select count(*) from b) + (select count(*) from vmonths) + (select count(*) from c) + (select count(*) from d) as n`);
  await writeRound(
    tx,
    ranges.map((r) => ({ vehicleId: r.vehicleId, orgId, days: r.days })),
    [],
    [],
    routed,
  );
}
