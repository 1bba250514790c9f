import { sql } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../../db/client.ts';
import { rowsOf } from '../../../db/sql/rows.ts';
import { isPowerUp, type IgnitionFix, type PowerUp, type StoredEngineEvent } from './derive.ts';

// Reads behind the engine-events follower (decision 0155): a vehicle's type-6 records (the partial
// index hos_events_engine_idx) and its positions' ignition (positions_asset_time_idx).

/** What a reconciliation of a vehicle from `fromMs` works from (reconcileReads). */
export interface ReconcileReads {
  /** The engine state just before `fromMs` from its last type-6 record (null: none). */
  start: boolean | null;
  /** Its type-6 records at or after `fromMs`, in time order. */
  stored: StoredEngineEvent[];
  /**
   * Its stored fixes that say something of the ignition from `fromMs` up to its first record after
   * `toMs` (every newer one when there is none: a late fix's change holds until the fixes after it
   * say otherwise), in time order.
   */
  fixes: IgnitionFix[];
}

/**
 * What reconciling each vehicle needs, for several vehicles in one statement: a reconciliation runs
 * for each vehicle new to an instance (a restart, a second instance behind a load balancer), and on
 * Citus every statement costs the coordinator and the worker a plan and a round trip (issue 49).
 * Every table is read for the organization, so Citus routes the whole, subqueries and all, to its shard.
 */
export async function reconcileReadsMany(
  tx: DbOrTx,
  orgId: string,
  spans: ReadonlyArray<{ vehicleId: string; fromMs: number; toMs: number }>,
): Promise<Map<string, ReconcileReads>> {
  const out = new Map<string, ReconcileReads>(spans.map((s) => [s.vehicleId, { start: null, stored: [], fixes: [] }]));
  if (spans.length === 0) return out;
  const keys = JSON.stringify(spans.map((s) => ({ a: s.vehicleId, f: new Date(s.fromMs).toISOString(), t: new Date(s.toMs).toISOString() })));
  const engine = HOS_EVENT_TYPES.ENGINE_POWER;
  const rows = rowsOf<{ v: string; before: number | null; events: string | null; fixes: string | null }>(
    await tx.execute(sql`select k.a as v,
        (select e.event_code from hos_events e where e.organization_id = ${orgId} and e.vehicle_id = k.a and e.event_type = ${engine}
          and e.event_time < k.f order by e.event_time desc limit 1) as before,
        (select json_agg(json_build_array((extract(epoch from e.event_time) * 1000)::float8, e.event_code) order by e.event_time) from hos_events e
          where e.organization_id = ${orgId} and e.vehicle_id = k.a and e.event_type = ${engine} and e.event_time >= k.f)::text as events,
        (select json_agg(json_build_array((extract(epoch from p.fix_time) * 1000)::float8, p.ignition, p.latitude, p.longitude, p.odometer, p.engine_hours, p.driver_id) order by p.fix_time)
          from positions p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time >= k.f and p.ignition is not null
            and p.fix_time <= coalesce((select min(e.event_time) from hos_events e where e.organization_id = ${orgId} and e.vehicle_id = k.a and e.event_type = ${engine} and e.event_time > k.t), 'infinity'::timestamptz))::text as fixes
      from json_to_recordset(${keys}::json) as k(a uuid, f timestamptz, t timestamptz)`),
  );
  for (const r of rows) {
    const events = r.events ? (JSON.parse(r.events) as Array<[number, number]>) : [];
    const fixes = r.fixes ? (JSON.parse(r.fixes) as Array<[number, boolean, number, number, number | null, number | null, string | null]>) : [];
    out.set(r.v, {
      start: r.before === null || r.before === undefined ? null : isPowerUp(Number(r.before)),
      stored: events.map(([t, code]) => ({ time: Math.round(t), on: isPowerUp(code) })),
      fixes: fixes.map(([t, ignition, lat, lon, odometerM, engineHours, driverId]) => ({
        time: Math.round(t),
        ignition,
        lat,
        lon,
        odometerM,
        engineHours,
        driverId,
      })),
    });
  }
  return out;
}

/** Probes in one statement of inPersonalConveyance. */
export const PC_PROBES_PER_STATEMENT = 25;

/**
 * Whether each driver was in personal conveyance (OFF with the PC indication in force, 4.7.3) at an
 * instant: their last active duty status and special category at or before it, one probe each.
 */
export async function inPersonalConveyance(tx: DbOrTx, orgId: string, asks: ReadonlyArray<{ driverId: string; time: number }>): Promise<boolean[]> {
  // A few dozen probes a statement: the start-up catch-up asks hundreds at once, and one statement of
  // ~100 branches raised the embedded database's memory, which never shrinks, by 6.6 MB (issue 67).
  if (asks.length > PC_PROBES_PER_STATEMENT) {
    const out: boolean[] = [];
    for (let i = 0; i < asks.length; i += PC_PROBES_PER_STATEMENT)
      out.push(...(await inPersonalConveyance(tx, orgId, asks.slice(i, i + PC_PROBES_PER_STATEMENT))));
    return out;
  }
  if (asks.length === 0) return [];
  // One branch per probe with its values inlined: Citus refuses these subqueries correlated to an
  // unnest (decision 0169); each branch's subqueries are plain reads it plans alone, each naming
  // the organization so that Citus routes it to one shard (decision 0204).
  const probe = (type: number, d: string, t: number) =>
    sql`(select e.event_code from hos_events e where e.organization_id = ${orgId} and e.driver_id = ${d} and e.event_type = ${type} and e.record_status = ${HOS_RECORD_STATUSES.ACTIVE}
      and e.event_time <= to_timestamp(${t / 1000}) order by e.event_time desc, e.sequence_id desc limit 1)`;
  const branches = asks.map(
    (a, k) =>
      sql`select ${k + 1}::int as i, ${probe(HOS_EVENT_TYPES.DUTY_STATUS, a.driverId, a.time)} as status, ${probe(HOS_EVENT_TYPES.SPECIAL_CATEGORY, a.driverId, a.time)} as special`,
  );
  const rows = rowsOf<{ i: number; status: number | null; special: number | null }>(await tx.execute(sql.join(branches, sql` union all `)));
  const out = asks.map(() => false);
  for (const r of rows) out[Number(r.i) - 1] = Number(r.status) === 1 && Number(r.special) === 1;
  return out;
}

/**
 * Vehicles that reported since `sinceMs` (latest positions) and whose newest fix reports the ignition
 * or that have a type-6 record (a phone's vehicles cost the catch-up nothing), with their newest fix
 * and their last type-6 record's time (the catch-up's list).
 */
export async function reportingVehicles(
  tx: DbOrTx,
  sinceMs: number,
): Promise<Array<{ vehicleId: string; orgId: string; newest: number; lastEvent: number | null }>> {
  const rows = rowsOf<{ v: string; o: string; t: number | string; e: number | string | null; ignition: boolean | null }>(
    await tx.execute(sql`
      select l.asset_id as v, l.organization_id as o, extract(epoch from l.fix_time) * 1000 as t, l.ignition,
        (select extract(epoch from e.event_time) * 1000 from hos_events e where e.organization_id = l.organization_id and e.vehicle_id = l.asset_id and e.event_type = ${HOS_EVENT_TYPES.ENGINE_POWER}
          order by e.event_time desc limit 1) as e
      from latest_positions l where l.fix_time >= ${new Date(sinceMs).toISOString()}::timestamptz`),
  );
  return rows
    .filter((r) => r.ignition !== null || r.e !== null)
    .map((r) => ({ vehicleId: r.v, orgId: r.o, newest: Math.round(Number(r.t)), lastEvent: r.e === null ? null : Math.round(Number(r.e)) }));
}

/**
 * The vehicles' power-ups (type 6 codes 1-2) before `beforeMs`, the newest 200 of each, in time order
 * (what records count their miles from). Names the organization: Citus routes the lateral LIMIT over
 * unnest to the organization's shard (without it: "cannot push down this subquery").
 */
export async function powerUpsBefore(
  tx: DbOrTx,
  orgId: string,
  vehicleIds: readonly string[],
  beforeMs: number,
): Promise<Map<string, Array<PowerUp & { code: number }>>> {
  const out = new Map<string, Array<PowerUp & { code: number }>>();
  if (vehicleIds.length === 0) return out;
  const rows = rowsOf<{ v: string; t: Date | string; odo: number | null; hours: number | null; code: number }>(
    await tx.execute(sql`
      select l.* from unnest(${`{${vehicleIds.join(',')}}`}::uuid[]) as v(id) cross join lateral (
        select e.vehicle_id as v, e.event_time as t, e.odometer_m as odo, e.engine_hours as hours, e.event_code as code from hos_events e
        where e.organization_id = ${orgId} and e.vehicle_id = v.id and e.event_type = ${HOS_EVENT_TYPES.ENGINE_POWER} and e.event_code in (1, 2) and e.event_time < ${new Date(beforeMs).toISOString()}::timestamptz
        order by e.event_time desc limit 200) l`),
  );
  for (const r of rows) {
    const list = out.get(r.v) ?? [];
    list.push({
      time: new Date(r.t).getTime(),
      odometerM: r.odo === null ? null : Number(r.odo),
      engineHours: r.hours === null ? null : Number(r.hours),
      code: Number(r.code),
    });
    out.set(r.v, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.time - b.time);
  return out;
}

/**
 * Each vehicle's newest type-6 record (time and whether a power-up), one index probe each, in one
 * statement naming the organization (Citus routes it, lateral and all, to the organization's shard).
 */
export async function lastEngineEvents(tx: DbOrTx, orgId: string, vehicleIds: readonly string[]): Promise<Map<string, StoredEngineEvent>> {
  const out = new Map<string, StoredEngineEvent>();
  if (vehicleIds.length === 0) return out;
  const rows = rowsOf<{ v: string; t: Date | string; code: number }>(
    await tx.execute(sql`
      select l.* from unnest(${`{${vehicleIds.join(',')}}`}::uuid[]) as v(id) cross join lateral (
        select e.vehicle_id as v, e.event_time as t, e.event_code as code from hos_events e
        where e.organization_id = ${orgId} and e.vehicle_id = v.id and e.event_type = ${HOS_EVENT_TYPES.ENGINE_POWER} order by e.event_time desc limit 1) l`),
  );
  for (const r of rows) out.set(r.v, { time: new Date(r.t).getTime(), on: isPowerUp(Number(r.code)) });
  return out;
}
