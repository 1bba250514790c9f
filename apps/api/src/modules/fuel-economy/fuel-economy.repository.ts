import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// What fuel economy reads (decision 0280): the daily statistics (which vehicle-days have positions,
// and a stamp of each), the positions' engine fuel counter, the fuel purchases, the trips (a
// driver's distance, the distance between two fills) and the safety module's idling events. Every
// statement names the organization (one shard on Citus); instants cross as epoch milliseconds.

const iso = (ms: number) => new Date(ms).toISOString();
const num = (v: number | string | null): number => (v === null ? 0 : Number(v));

/** The range's bounds: the organization's local midnight of `from` and of the day after `to` (epoch ms). */
export async function readSpan(db: DbOrTx, orgId: string, from: string, to: string): Promise<{ start: number; end: number }> {
  const [r] = rowsOf<{ s: number | string; e: number | string }>(
    await db.execute(sql`select extract(epoch from (${from}::date)::timestamp at time zone coalesce(time_zone, 'UTC'))::float8 * 1000 as s,
        extract(epoch from (${to}::date + 1)::timestamp at time zone coalesce(time_zone, 'UTC'))::float8 * 1000 as e
      from organizations where id = ${orgId}`),
  );
  return { start: num(r?.s ?? 0), end: num(r?.e ?? 0) };
}

export interface VehicleDay {
  assetId: string;
  unitNumber: string;
  day: string;
  /** Changes whenever the day's statistics are written again (new, late or moved positions). */
  stamp: string;
  distanceM: number;
  drivingMs: number;
  /** The day's bounds (epoch ms). */
  from: number;
  to: number;
}

/** Every vehicle-day of [from, to] with positions, from the daily statistics. */
export async function readVehicleDays(db: DbOrTx, orgId: string, from: string, to: string): Promise<VehicleDay[]> {
  const rows = rowsOf<{
    asset_id: string;
    unit_number: string;
    day: string;
    fixes: number | string;
    u: number | string;
    distance_m: number | string;
    driving_ms: number | string;
    f: number | string;
    t: number | string;
  }>(
    await db.execute(sql`with z as (select coalesce(time_zone, 'UTC') as tz from organizations where id = ${orgId})
      select s.asset_id, a.unit_number, s.day::text as day, s.fixes, extract(epoch from s.updated_at)::float8 * 1000 as u, s.distance_m, s.driving_ms,
        extract(epoch from s.day::timestamp at time zone z.tz)::float8 * 1000 as f, extract(epoch from (s.day + 1)::timestamp at time zone z.tz)::float8 * 1000 as t
      from vehicle_daily_stats s join assets a on a.id = s.asset_id and a.organization_id = s.organization_id, z
      where s.organization_id = ${orgId} and s.day >= ${from}::date and s.day <= ${to}::date and s.fixes > 0`),
  );
  return rows.map((r) => ({
    assetId: r.asset_id,
    unitNumber: r.unit_number,
    day: r.day.slice(0, 10),
    stamp: `${num(r.fixes)}|${num(r.u)}`,
    distanceM: num(r.distance_m),
    drivingMs: num(r.driving_ms),
    from: num(r.f),
    to: num(r.t),
  }));
}

/** A fix as `readFuelFixes` hands it over: [epoch ms, lat, lon, fuelUsed as stored, driver id]. */
export type FuelFixTuple = [number, number, number, unknown, string | null];

/**
 * Each vehicle-day's fixes in time order, or null when none of them carries the engine's fuel
 * counter (a phone, a device without the CAN adapter): one statement for all the days asked.
 */
export async function readFuelFixes(
  db: DbOrTx,
  orgId: string,
  days: ReadonlyArray<{ assetId: string; day: string; from: number; to: number }>,
): Promise<Map<string, FuelFixTuple[] | null>> {
  const out = new Map<string, FuelFixTuple[] | null>();
  if (days.length === 0) return out;
  const keys = JSON.stringify(days.map((d) => ({ a: d.assetId, d: d.day, f: iso(d.from), t: iso(d.to) })));
  const rows = rowsOf<{ a: string; d: string; j: string | null }>(
    await db.execute(sql`select k.a, k.d, (select case when bool_or(p.attributes->'fuelUsed' is not null)
          then json_agg(json_build_array(extract(epoch from p.fix_time)::float8 * 1000, p.latitude, p.longitude, p.attributes->'fuelUsed', p.driver_id) order by p.fix_time) end
        from positions p where p.organization_id = ${orgId} and p.asset_id = k.a and p.fix_time >= k.f and p.fix_time < k.t)::text as j
      from json_to_recordset(${keys}::json) as k(a uuid, d text, f timestamptz, t timestamptz)`),
  );
  for (const r of rows) out.set(`${r.a}|${r.d}`, r.j ? (JSON.parse(r.j) as FuelFixTuple[]) : null);
  return out;
}

/** The fuel bought in [start, end) per vehicle, in litres (receipts in US gallons converted with the exact gallon). */
export async function readPurchases(db: DbOrTx, orgId: string, start: number, end: number): Promise<Array<{ assetId: string; t: number; litres: number }>> {
  const rows = rowsOf<{ vehicle_id: string; t: number | string; litres: number | string }>(
    await db.execute(sql`select vehicle_id, extract(epoch from purchased_at)::float8 * 1000 as t,
        (quantity_milli / 1000.0 * case when volume_unit = 'GAL' then 3.785411784 else 1 end)::float8 as litres
      from ifta_fuel_purchases where organization_id = ${orgId} and purchased_at >= ${iso(start)}::timestamptz and purchased_at < ${iso(end)}::timestamptz`),
  );
  return rows.map((r) => ({ assetId: r.vehicle_id, t: num(r.t), litres: num(r.litres) }));
}

/**
 * Each vehicle's first and last fix in [start, end) (epoch ms): the time its distance is known in,
 * which the fills counted must lie in. Two index probes per vehicle.
 */
export async function readFixSpans(
  db: DbOrTx,
  orgId: string,
  assetIds: readonly string[],
  start: number,
  end: number,
): Promise<Map<string, { first: number; last: number }>> {
  if (assetIds.length === 0) return new Map();
  const rows = rowsOf<{ a: string; f: number | string | null; l: number | string | null }>(
    await db.execute(sql`select k.a,
        (select extract(epoch from min(p.fix_time))::float8 * 1000 from positions p where p.organization_id = ${orgId} and p.asset_id = k.a
          and p.fix_time >= ${iso(start)}::timestamptz and p.fix_time < ${iso(end)}::timestamptz) as f,
        (select extract(epoch from max(p.fix_time))::float8 * 1000 from positions p where p.organization_id = ${orgId} and p.asset_id = k.a
          and p.fix_time >= ${iso(start)}::timestamptz and p.fix_time < ${iso(end)}::timestamptz) as l
      from unnest(${`{${assetIds.join(',')}}`}::uuid[]) as k(a)`),
  );
  const out = new Map<string, { first: number; last: number }>();
  for (const r of rows) if (r.f !== null && r.l !== null) out.set(r.a, { first: num(r.f), last: num(r.l) });
  return out;
}

/** Each vehicle's trips that started in its window: when, by whom (null: none attributed), how far (metres). */
export async function readTripsIn(
  db: DbOrTx,
  orgId: string,
  windows: ReadonlyArray<{ assetId: string; from: number; to: number }>,
): Promise<Array<{ assetId: string; t: number; driverId: string | null; distanceM: number }>> {
  if (windows.length === 0) return [];
  const w = JSON.stringify(windows.map((x) => ({ a: x.assetId, f: iso(x.from), t: iso(x.to) })));
  const rows = rowsOf<{ asset_id: string; t: number | string; driver_id: string | null; m: number | string }>(
    await db.execute(sql`select t.asset_id, extract(epoch from t.started_at)::float8 * 1000 as t, t.driver_id, t.distance_m as m
      from trips t join json_to_recordset(${w}::json) as w(a uuid, f timestamptz, t timestamptz) on t.asset_id = w.a
      where t.organization_id = ${orgId} and t.started_at >= w.f and t.started_at <= w.t`),
  );
  return rows.map((r) => ({ assetId: r.asset_id, t: num(r.t), driverId: r.driver_id, distanceM: num(r.m) }));
}

/** Each driver's trips that started in [start, end): distance (metres) and driving time (ms). */
export async function readDriverTrips(
  db: DbOrTx,
  orgId: string,
  start: number,
  end: number,
): Promise<Array<{ driverId: string; distanceM: number; drivingMs: number }>> {
  const rows = rowsOf<{ driver_id: string; m: number | string; ms: number | string }>(
    await db.execute(sql`select driver_id, sum(distance_m)::float8 as m, sum(extract(epoch from ended_at - started_at))::float8 * 1000 as ms
      from trips where organization_id = ${orgId} and started_at >= ${iso(start)}::timestamptz and started_at < ${iso(end)}::timestamptz and driver_id is not null
      group by driver_id`),
  );
  return rows.map((r) => ({ driverId: r.driver_id, distanceM: num(r.m), drivingMs: num(r.ms) }));
}

export interface IdleSums {
  id: string;
  events: number;
  ms: number;
  /** Null when no idling of the subject had the engine's fuel counter. */
  fuelL: number | null;
}

/** The idling events (safety module) started in [start, end), summed per vehicle or per driver. */
export async function readIdling(db: DbOrTx, orgId: string, by: 'vehicle' | 'driver', start: number, end: number): Promise<IdleSums[]> {
  const key = sql.raw(by === 'driver' ? 'driver_id' : 'asset_id');
  const rows = rowsOf<{ id: string; n: number | string; ms: number | string; fuel: number | string | null }>(
    await db.execute(sql`select ${key} as id, count(*)::int as n, sum(extract(epoch from ended_at - started_at))::float8 * 1000 as ms, sum(fuel_burned_l)::float8 as fuel
      from safety_events where organization_id = ${orgId} and type = 'IDLING' and started_at >= ${iso(start)}::timestamptz and started_at < ${iso(end)}::timestamptz
        and ${key} is not null
      group by 1`),
  );
  return rows.map((r) => ({ id: r.id, events: num(r.n), ms: num(r.ms), fuelL: r.fuel === null ? null : num(r.fuel) }));
}

/** Names of the organization's vehicles (unit numbers) or drivers among `ids`. */
export async function readNames(db: DbOrTx, orgId: string, by: 'vehicle' | 'driver', ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const list = `{${ids.join(',')}}`;
  const rows = rowsOf<{ id: string; name: string }>(
    by === 'driver'
      ? await db.execute(sql`select id, first_name || ' ' || last_name as name from drivers where organization_id = ${orgId} and id = any(${list}::uuid[])`)
      : await db.execute(sql`select id, unit_number as name from assets where organization_id = ${orgId} and id = any(${list}::uuid[])`),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The vehicles (or drivers) of one of the organization's groups. */
export async function readGroupMembers(db: DbOrTx, orgId: string, by: 'vehicle' | 'driver', groupId: string): Promise<Set<string>> {
  const rows = rowsOf<{ id: string }>(
    by === 'driver'
      ? await db.execute(sql`select member_id as id from group_members where organization_id = ${orgId} and group_id = ${groupId} and member_type = 'DRIVER'`)
      : await db.execute(sql`select asset_id as id from group_assets where organization_id = ${orgId} and group_id = ${groupId}`),
  );
  return new Set(rows.map((r) => r.id));
}
