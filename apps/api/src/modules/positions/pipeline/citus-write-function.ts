// Functions made only on a Citus cluster (scripts/db-distribute.ts), co-located with the
// organization's tables and distributed by the organization, so that the coordinator hands a call
// whole to the worker holding that organization (Citus' function call delegation, decision 0203).
// PostgreSQL and PGlite never have them: the database is asked for the function once, when it
// opens (db/database-kind.ts), and otherwise runs its usual statement.
import { createHash } from 'node:crypto';
import { CITUS_WRITE_FUNCTION } from '../../../db/database-kind.ts';
import { PARAM_TYPES, WRITE_SQL } from './position-write-sql.ts';

/** The group commit's function: one organization's rows, the same parameters as position-store.ts's statement. */
export const POSITIONS_WRITE_FUNCTION = CITUS_WRITE_FUNCTION;

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
const SHARD_WRITE_TEMPLATE = replaceOnce(WRITE_SQL.replace(/\blatest_positions\b/g, '%2$s'), 'insert into positions (', 'insert into %1$s (');
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
const ARGS = [
  'p_org',
  'p_gw',
  'p_asset',
  'p_driver',
  'p_t',
  'p_lat',
  'p_lon',
  'p_speed',
  'p_course',
  'p_alt',
  'p_acc',
  'p_odo',
  'p_ign',
  'p_proto',
  'p_attr',
  'p_now',
  'p_moving',
  'p_assets',
  'p_odo_src',
  'p_engine_hours',
];

/**
 * The group commit on the organization's worker (decision 0208). Its first way, whenever the
 * organization's shards are on this node (always, but for a call that reaches a node just after a
 * move): the group statement of a single server on the shards themselves, prepared once per
 * session and shard, with the shards' metadata lock Citus' own writes take (ShareLock on the
 * colocated shards: a move holds it exclusively while it copies and switches them over), so a
 * write never lands on a placement a move has just left. Citus plans nothing here: a 1,000-row
 * batch costs the worker 11 ms against 53 ms planned through Citus (bench/citus-write.ts).
 *
 * The second way, when the shards are elsewhere (a call not delegated, or one that reached a node
 * just after a move): the same statement on the distributed tables, run through Citus.
 *
 * Returns `{"moved": [vehicle…], "dups": [1-based index…]}`; the NOTIFY stays with the caller on the
 * coordinator (a worker's NOTIFY reaches nobody). Citus plans WRITE_SQL's INSERT CTEs as about six
 * subplans with intermediate results (citus#3948): 8-9 round trips a commit, which is why the call
 * is delegated and the statement runs on the shards.
 */
export const POSITIONS_WRITE_SQL = `
create or replace function ${POSITIONS_WRITE_FUNCTION}(
  p_org uuid, p_gw uuid[], p_asset uuid[], p_driver uuid[], p_t float8[], p_lat float8[], p_lon float8[], p_speed real[], p_course real[],
  p_alt real[], p_acc real[], p_odo float8[], p_ign boolean[], p_proto text[], p_attr jsonb[], p_now timestamptz, p_moving real,
  p_assets uuid[], p_odo_src text[], p_engine_hours float8[])
returns json language plpgsql set lock_timeout = '${POSITIONS_WRITE_LOCK_TIMEOUT}' set citus.enable_ddl_propagation = off as $fn$
declare
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
        shard_name('latest_positions', get_shard_id_for_distribution_column('latest_positions', p_org)));
    end if;
    -- A LOCK TABLE of the tables (the stall fault's) holds this write as it would a routed one; on
    -- this node only (DDL propagation is off in this function: Citus would send it to every node).
    lock table only positions, only latest_positions in row exclusive mode;
    -- EXECUTE of a prepared statement takes no bound parameters: the arguments go as literals.
    execute format('execute %I(${ARGS.map(() => '%L').join(', ')})', v_stmt, ${ARGS.join(', ')}) into v_out;
    return json_build_object('moved', v_out.moved::json, 'dups', v_out.dups::json);
  end if;

  -- Elsewhere (rare): the same statement on the distributed tables, which Citus plans through
  -- intermediate results; slower, and it takes every shard's metadata lock, but it is one text.
  execute $q$${WRITE_SQL}$q$ into v_out using ${ARGS.join(', ')};
  return json_build_object('moved', v_out.moved::json, 'dups', v_out.dups::json);
end
$fn$`;

/** Makes the functions on a Citus coordinator and distributes them by organization, co-located with `colocateWith`. */
export function citusFunctionStatements(colocateWith: string): string[] {
  return [
    // The function before the devices' last-seen time left the group commit (decision 0327) took one more argument: a
    // second overload, not a replacement, so it is dropped.
    `drop function if exists ${POSITIONS_WRITE_FUNCTION}(uuid, uuid[], uuid[], uuid[], float8[], float8[], float8[], real[], real[], real[], real[], float8[], boolean[], text[], jsonb[], timestamptz, real, uuid[], uuid[], text[], float8[])`,
    POSITIONS_WRITE_SQL,
    `select create_distributed_function('${POSITIONS_WRITE_FUNCTION}(uuid, uuid[], uuid[], uuid[], float8[], float8[], float8[], real[], real[], real[], real[], float8[], boolean[], text[], jsonb[], timestamptz, real, uuid[], text[], float8[])', 'p_org', colocate_with := '${colocateWith}')`,
  ];
}
