// Functions made only on a Citus cluster (scripts/db-distribute.ts), co-located with the
// organization's tables and distributed by the organization, so that the coordinator hands a call
// whole to the worker holding that organization (Citus' function call delegation, decision 0203).
// PostgreSQL and PGlite never have them: their callers look the function up once per pool and
// otherwise run their usual statement.
import { createHash } from 'node:crypto';
import { PARAM_TYPES, WRITE_SQL } from './position-write-sql.ts';

/** The group commit's function: one organization's rows, the same parameters as position-store.ts's statement. */
export const POSITIONS_WRITE_FUNCTION = 'fleet_positions_write';

/**
 * How long the write waits for a lock before it gives up (SQLSTATE 55P03) and its devices are
 * answered 503 with Retry-After: a `block_writes` move of the organization's shards holds their
 * writes for as long as the copy takes; its devices send again while the other organizations' lanes
 * go on (decision 0203).
 */
export const POSITIONS_WRITE_LOCK_TIMEOUT = '3s';

/**
 * The group statement (position-write-sql.ts) with the organization's shards for its tables: on
 * the worker holding them it runs as plain PostgreSQL, prepared once per session and shard.
 */
const SHARD_WRITE_TEMPLATE = replaceOnce(
  replaceOnce(WRITE_SQL.replace(/\blatest_positions\b/g, '%2$s'), 'insert into positions (', 'insert into %1$s ('),
  'update gateways set',
  'update %3$s set',
);
/**
 * The prepared statement's name, per statement text and shard: a session that prepared it under an
 * earlier version of the function (db:distribute run again while the coordinator's connections to
 * the workers live on) never runs the old text with the new arguments.
 */
const STATEMENT_PREFIX = `fleet_positions_write_${createHash('sha256').update(PARAM_TYPES).update(SHARD_WRITE_TEMPLATE).digest('hex').slice(0, 12)}_`;
function replaceOnce(text: string, from: string, to: string): string {
  if (text.split(from).length !== 2) throw new Error(`citus-write-function: the group statement no longer has one "${from}"`);
  return text.replace(from, to);
}
const ARGS = ['p_org', 'p_gw', 'p_asset', 'p_driver', 'p_t', 'p_lat', 'p_lon', 'p_speed', 'p_course', 'p_alt', 'p_acc', 'p_odo', 'p_ign', 'p_proto', 'p_attr', 'p_now', 'p_moving',
  'p_assets', 'p_gws', 'p_odo_src', 'p_engine_hours'];

/**
 * The group commit on the organization's worker (decision 0208). Its first way, whenever the
 * organization's shards are on this node (always, but for a call that reaches a node just after a
 * move): the group statement of a single server on the shards themselves, prepared once per
 * session and shard, with the shards' metadata lock Citus' own writes take (ShareLock on the
 * colocated shards: a move holds it exclusively while it copies and switches them over), so a
 * write never lands on a placement a move has just left. Citus plans nothing here: a 1,000-row
 * batch costs the worker 11 ms against 53 ms planned through Citus (bench/citus-write.ts).
 *
 * The second way, when the shards are elsewhere: single-shard statements Citus routes,
 * each on the organization's shards only:
 *
 * 1. the positions inserted (idempotent on device and fix time) as one multi-row VALUES (a routed
 *    INSERT: an INSERT … SELECT would lock every shard's metadata, decision 0203), the keys stored collected;
 * 2. the vehicles' latest rows locked (FOR UPDATE, key order: the same lock order as the statement);
 * 3. the newest fresh fix per vehicle computed from the arrays alone and upserted (a VALUES again);
 * 4. the devices' last-seen time;
 * 5. which input rows were not stored (only when fewer were inserted than sent).
 *
 * Returns `{"moved": [vehicle…], "dups": [1-based index…]}`; the NOTIFY stays with the caller on the
 * coordinator (a worker's NOTIFY reaches nobody). Citus plans WRITE_SQL's INSERT CTEs as about six
 * subplans with intermediate results through the coordinator (citus#3948): 8-9 round trips a
 * commit, which is why the call is delegated and the statement runs on the shards.
 */
export const POSITIONS_WRITE_SQL = `
create or replace function ${POSITIONS_WRITE_FUNCTION}(
  p_org uuid, p_gw uuid[], p_asset uuid[], p_driver uuid[], p_t float8[], p_lat float8[], p_lon float8[], p_speed real[], p_course real[],
  p_alt real[], p_acc real[], p_odo float8[], p_ign boolean[], p_proto text[], p_attr jsonb[], p_now timestamptz, p_moving real,
  p_assets uuid[], p_gws uuid[], p_odo_src text[], p_engine_hours float8[])
returns json language plpgsql set lock_timeout = '${POSITIONS_WRITE_LOCK_TIMEOUT}' set citus.enable_ddl_propagation = off as $fn$
declare
  r record;
  k_g uuid[] := '{}';
  k_t timestamptz[] := '{}';
  c_a uuid[] := '{}';
  c_t timestamptz[] := '{}';
  c_m timestamptz[] := '{}';
  c_s timestamptz[] := '{}';
  v_moved uuid[] := '{}';
  v_dups json := '[]';
  v_values text;
  v_shard bigint := get_shard_id_for_distribution_column('positions', p_org);
  v_stmt text := '${STATEMENT_PREFIX}' || v_shard;
  v_out record;
begin
  -- ShareLock (5) on the organization's colocated shards' metadata, as Citus' own writes take it.
  perform lock_shard_metadata(5, array[v_shard]);
  if exists (select 1 from pg_dist_placement where shardid = v_shard and groupid = (select groupid from pg_dist_local_group)) then
    if not exists (select 1 from pg_prepared_statements where name = v_stmt) then
      execute format('prepare %I (${PARAM_TYPES}) as ', v_stmt) || format($w$${SHARD_WRITE_TEMPLATE}$w$,
        shard_name('positions', v_shard),
        shard_name('latest_positions', get_shard_id_for_distribution_column('latest_positions', p_org)),
        shard_name('gateways', get_shard_id_for_distribution_column('gateways', p_org)));
    end if;
    -- A LOCK TABLE of the tables (the stall fault's) holds this write as it would a routed one; on
    -- this node only (DDL propagation is off in this function: Citus would send it to every node).
    lock table only positions, only latest_positions in row exclusive mode;
    -- EXECUTE of a prepared statement takes no bound parameters: the arguments go as literals.
    execute format('execute %I(${ARGS.map(() => '%L').join(', ')})', v_stmt, ${ARGS.join(', ')}) into v_out;
    return json_build_object('moved', v_out.moved::json, 'dups', v_out.dups::json);
  end if;

  -- A multi-row VALUES naming the organization in every row is routed to its one shard; an
  -- INSERT … SELECT is planned "via coordinator", which locks every shard's metadata, so a
  -- block_writes move of any organization's shards would hold this one's commit too.
  select string_agg(format('(%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L)', p_org, u.g, u.a, u.d, to_timestamp(u.t / 1000), p_now, u.lat, u.lon,
      u.speed, u.course, u.alt, u.acc, u.odo, u.odo_src, u.eh, u.ign, u.proto, coalesce(u.attr, '{}'::jsonb)), ',' order by u.i)
    into v_values
  from unnest(p_gw, p_asset, p_driver, p_t, p_lat, p_lon, p_speed, p_course, p_alt, p_acc, p_odo, p_odo_src, p_engine_hours, p_ign, p_proto, p_attr)
    with ordinality as u(g, a, d, t, lat, lon, speed, course, alt, acc, odo, odo_src, eh, ign, proto, attr, i);
  if v_values is null then
    return json_build_object('moved', '[]'::json, 'dups', '[]'::json);
  end if;
  for r in execute
    'insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, '
    || 'odometer, odometer_source, engine_hours, ignition, protocol, attributes) values ' || v_values || ' on conflict do nothing returning gateway_id, fix_time'
  loop
    k_g := k_g || r.gateway_id;
    k_t := k_t || r.fix_time;
  end loop;

  if cardinality(k_g) > 0 then
    for r in
      select l.asset_id, l.fix_time, l.last_moving_at, l.stationary_since from latest_positions l
      where l.organization_id = p_org and l.asset_id = any(p_assets)
      order by l.asset_id
      for update
    loop
      c_a := c_a || r.asset_id;
      c_t := c_t || r.fix_time;
      c_m := c_m || r.last_moving_at;
      c_s := c_s || r.stationary_since;
    end loop;

    select string_agg(format('(%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L,%L)', s.asset_id, p_org, s.gateway_id, s.driver_id, s.fix_time, p_now, s.latitude,
        s.longitude, s.speed, s.course, s.altitude, s.accuracy, s.odometer, s.ignition, s.last_moving_at, s.stationary_since, s.attributes), ',' order by s.asset_id)
      into v_values
    from (
        with input as (
          select u.g as gateway_id, u.a as asset_id, u.d as driver_id, to_timestamp(u.t / 1000) as fix_time, u.lat as latitude, u.lon as longitude,
            u.speed, u.course, u.alt as altitude, u.acc as accuracy, u.odo as odometer, u.ign as ignition, coalesce(u.attr, '{}'::jsonb) as attributes, u.i,
            row_number() over (partition by u.g, to_timestamp(u.t / 1000) order by u.i) as rn
          from unnest(p_gw, p_asset, p_driver, p_t, p_lat, p_lon, p_speed, p_course, p_alt, p_acc, p_odo, p_ign, p_attr) with ordinality
            as u(g, a, d, t, lat, lon, speed, course, alt, acc, odo, ign, attr, i)
        ), ins as (
          select x.* from input x join unnest(k_g, k_t) as k(g, t) on k.g = x.gateway_id and k.t = x.fix_time where x.rn = 1
        ), cur as (
          select * from unnest(c_a, c_t, c_m, c_s) as c(asset_id, fix_time, last_moving_at, stationary_since)
        ), fresh as (
          select ins.*, coalesce(ins.speed >= p_moving, false) as moving
          from ins left join cur on cur.asset_id = ins.asset_id
          where ins.asset_id is not null and (cur.fix_time is null or ins.fix_time > cur.fix_time)
        ), moved as (
          select asset_id, max(fix_time) filter (where moving) as moved_at from fresh group by asset_id
        ), agg as (
          select f.asset_id, m.moved_at,
            min(f.fix_time) filter (where not f.moving and (m.moved_at is null or f.fix_time > m.moved_at)) as still_since
          from fresh f join moved m on m.asset_id = f.asset_id
          group by f.asset_id, m.moved_at
        ), newest as (
          select distinct on (asset_id) * from fresh order by asset_id, fix_time desc
        )
        select n.asset_id, n.gateway_id, n.driver_id, n.fix_time, n.latitude, n.longitude, n.speed, n.course, n.altitude, n.accuracy, n.odometer, n.ignition,
          coalesce(a.moved_at, c.last_moving_at) as last_moving_at,
          case when n.moving then null when a.moved_at is not null then a.still_since else coalesce(c.stationary_since, a.still_since) end as stationary_since,
          n.attributes
        from newest n join agg a on a.asset_id = n.asset_id left join cur c on c.asset_id = n.asset_id
    ) s;
    if v_values is not null then
      for r in execute
        'insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, '
        || 'accuracy, odometer, ignition, last_moving_at, stationary_since, attributes) values ' || v_values || $up$
        on conflict (asset_id, organization_id) do update set
          gateway_id = excluded.gateway_id, driver_id = excluded.driver_id, fix_time = excluded.fix_time,
          server_time = excluded.server_time, latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed, course = excluded.course,
          altitude = excluded.altitude, accuracy = excluded.accuracy, odometer = excluded.odometer, ignition = excluded.ignition,
          last_moving_at = excluded.last_moving_at, stationary_since = excluded.stationary_since, attributes = excluded.attributes
        where latest_positions.fix_time < excluded.fix_time
        returning asset_id$up$
      loop
        v_moved := v_moved || r.asset_id;
      end loop;
    end if;
  end if;

  update gateways set last_seen_at = p_now where organization_id = p_org and id = any(p_gws);

  if cardinality(k_g) <> cardinality(p_gw) then
    select coalesce(json_agg(x.i), '[]'::json) into v_dups
    from (
      select u.i, u.g, to_timestamp(u.t / 1000) as fix_time, row_number() over (partition by u.g, to_timestamp(u.t / 1000) order by u.i) as rn
      from unnest(p_gw, p_t) with ordinality as u(g, t, i)
    ) x
    where x.rn > 1 or not exists (select 1 from unnest(k_g, k_t) as k(g, t) where k.g = x.g and k.t = x.fix_time);
  end if;

  return json_build_object('moved', to_json(v_moved), 'dups', v_dups);
end
$fn$`;

/** Makes the functions on a Citus coordinator and distributes them by organization, co-located with `colocateWith`. */
export function citusFunctionStatements(colocateWith: string): string[] {
  return [
    POSITIONS_WRITE_SQL,
    `select create_distributed_function('${POSITIONS_WRITE_FUNCTION}(uuid, uuid[], uuid[], uuid[], float8[], float8[], float8[], real[], real[], real[], real[], float8[], boolean[], text[], jsonb[], timestamptz, real, uuid[], uuid[], text[], float8[])', 'p_org', colocate_with := '${colocateWith}')`,
  ];
}
