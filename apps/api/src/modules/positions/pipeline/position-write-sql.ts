// The group commit's statement for one organization (position-store.ts runs it on a server and,
// adapted, on PGlite; citus-write-function.ts runs it on a Citus worker against the organization's
// shards). Its own module so that both can import it.

/**
 * The whole group commit as ONE statement (docs/decisions/0055): a single statement is its own
 * transaction on both databases, so BEGIN/COMMIT and five round trips disappear, and on PGlite the
 * per-statement cost of the WebAssembly engine is paid once per group instead of seven times.
 *
 * input     the batch as one typed array per column (unnest; i = 1-based index in the batch):
 *           half the database CPU per row of json_to_recordset on PGlite
 * ins       positions, idempotent on (gateway, fix time), in batch order (the scan of the
 *           materialised input keeps unnest's ordinal order; no sort), so of two equal fixes in
 *           one batch the first is stored
 * cur       the vehicles' latest rows ($18: the distinct vehicles), locked, so two instances or
 *           writers touching one vehicle serialise on it (not on PGlite: one session)
 * fresh     newly stored fixes newer than what the map shows (a buffered old fix is history only)
 * agg       per vehicle: last moving fix, start of the trailing stationary run
 * up        latest position and status inputs, never moved back in time
 * notes     one NOTIFY per organization and 150 vehicles (payloads are capped at 8,000 bytes),
 *           delivered at commit, so only for committed data
 * dups      indexes of rows not stored: already in the table, or repeated within the batch; only
 *           worked out when fewer rows were inserted than sent (a lazily run subquery)
 */
export const WRITE_SQL = `
with input as materialized (
  select u.gateway_id, u.asset_id, u.driver_id, to_timestamp(u.t / 1000) as fix_time, u.latitude, u.longitude, u.speed, u.course,
    u.altitude, u.accuracy, u.odometer, u.odometer_source, u.engine_hours, u.ignition, u.protocol, coalesce(u.attributes, '{}'::jsonb) as attributes, u.i
  from unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::float8[], $6::float8[], $7::float8[], $8::real[], $9::real[], $10::real[], $11::real[],
    $12::float8[], $19::text[], $20::float8[], $13::boolean[], $14::text[], $15::jsonb[]) with ordinality
    as u(gateway_id, asset_id, driver_id, t, latitude, longitude, speed, course, altitude, accuracy, odometer, odometer_source, engine_hours, ignition, protocol, attributes, i)
), ins as (
  insert into positions (organization_id, gateway_id, asset_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, odometer, odometer_source, engine_hours, ignition, protocol, attributes)
  select $1::uuid, gateway_id, asset_id, driver_id, fix_time, $16::timestamptz, latitude, longitude, speed, course, altitude, accuracy, odometer, odometer_source, engine_hours, ignition, protocol, attributes
  from input
  on conflict do nothing
  returning organization_id, gateway_id, asset_id, driver_id, fix_time, latitude, longitude, speed, course, altitude, accuracy, odometer, ignition, attributes
), cur as (
  select asset_id, fix_time, last_moving_at, stationary_since from latest_positions
  where organization_id = $1::uuid and asset_id = any($18::uuid[])
  for update
), fresh as (
  select ins.*, coalesce(ins.speed >= $17::real, false) as moving
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
), up as (
  insert into latest_positions (asset_id, organization_id, gateway_id, driver_id, fix_time, server_time, latitude, longitude, speed, course, altitude, accuracy, odometer, ignition, last_moving_at, stationary_since, attributes)
  select n.asset_id, $1::uuid, n.gateway_id, n.driver_id, n.fix_time, $16::timestamptz, n.latitude, n.longitude, n.speed, n.course, n.altitude, n.accuracy, n.odometer, n.ignition,
    coalesce(a.moved_at, c.last_moving_at),
    case when n.moving then null when a.moved_at is not null then a.still_since else coalesce(c.stationary_since, a.still_since) end,
    n.attributes
  from newest n join agg a on a.asset_id = n.asset_id left join cur c on c.asset_id = n.asset_id
  on conflict (asset_id, organization_id) do update set
    gateway_id = excluded.gateway_id, driver_id = excluded.driver_id, fix_time = excluded.fix_time,
    server_time = excluded.server_time, latitude = excluded.latitude, longitude = excluded.longitude, speed = excluded.speed, course = excluded.course,
    altitude = excluded.altitude, accuracy = excluded.accuracy, odometer = excluded.odometer, ignition = excluded.ignition,
    last_moving_at = excluded.last_moving_at, stationary_since = excluded.stationary_since, attributes = excluded.attributes
  where latest_positions.fix_time < excluded.fix_time
  returning asset_id
), dups as (
  select x.i from (select i, gateway_id, fix_time, row_number() over (partition by gateway_id, fix_time order by i) as rn from input) x
  where x.rn > 1 or not exists (select 1 from ins where ins.gateway_id = x.gateway_id and ins.fix_time = x.fix_time)
)
select (select coalesce(json_agg(asset_id), '[]'::json) from up)::text as moved,
  case when (select count(*) from ins) = cardinality($2::uuid[]) then '[]' else (select coalesce(json_agg(i), '[]'::json) from dups)::text end as dups`;

/** The statement's parameter types, $1 to $20. */
export const PARAM_TYPES =
  'uuid, uuid[], uuid[], uuid[], float8[], float8[], float8[], real[], real[], real[], real[], float8[], boolean[], text[], jsonb[], timestamptz, real, uuid[], text[], float8[]';

const AGGREGATES_FROM = '\n), moved as (';
const AGGREGATES_TO = '\n), up as (';
const LATEST_VALUES = `    coalesce(a.moved_at, c.last_moving_at),
    case when n.moving then null when a.moved_at is not null then a.still_since else coalesce(c.stationary_since, a.still_since) end,
    n.attributes
  from newest n join agg a on a.asset_id = n.asset_id left join cur c on c.asset_id = n.asset_id`;

/**
 * The statement for a group in which no vehicle has two fixes (a crowd of devices each sending its
 * newest fix, the common shape; issue 74): each fresh fix is its vehicle's newest, its own last
 * moving time when moving and its own stationary start when not, so `moved`, `agg` and `newest`
 * (two aggregations and a sort) drop out: 9 % of the embedded statement's CPU for 19 vehicles.
 * Derived from `text` (WRITE_SQL or a form of it); throws if that text no longer has the parts.
 */
export function oneFixAVehicle(text: string): string {
  const from = text.indexOf(AGGREGATES_FROM);
  const to = text.indexOf(AGGREGATES_TO);
  if (from < 0 || to < from || !text.includes(LATEST_VALUES)) throw new Error('oneFixAVehicle: the statement no longer has the aggregation to drop');
  return (text.slice(0, from) + text.slice(to)).replace(
    LATEST_VALUES,
    `    case when n.moving then n.fix_time else c.last_moving_at end,
    case when n.moving then null else coalesce(c.stationary_since, n.fix_time) end,
    n.attributes
  from fresh n left join cur c on c.asset_id = n.asset_id`,
  );
}
