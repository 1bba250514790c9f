import { sql } from 'drizzle-orm';
import type { TrackFix } from '@fleet/geo/ifta';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { writeRound, type VehicleDays } from './ifta-miles.repository.ts';

// The recompute's reads and writes for many vehicles of one organization at once (decision 0215):
// the same conditions as neighbours, fixesBetween and replaceDays (ifta-miles.repository.ts), one
// statement for a batch instead of one per vehicle. Each names the organization and reads its keys
// from json_to_recordset, so that on Citus the whole statement routes to the organization's shard.

/** A vehicle's span of stored fixes: [startMs, endMs), none later than watermarkMs. */
export interface FixSpan {
  vehicleId: string;
  startMs: number;
  endMs: number;
  watermarkMs: number;
}

/** A fix as JSON: [time ms, latitude, longitude, speed, odometer], as toFix reads a row. */
const FIX_JSON = sql`json_build_array(extract(epoch from p.fix_time) * 1000, p.latitude, p.longitude, p.speed, p.odometer)`;
type FixTuple = [number | string, number, number, number | null, number | null];
const toFix = ([t, lat, lon, speed, odometer]: FixTuple): TrackFix => ({ time: Math.round(Number(t)), lat, lon, speedKmh: speed ?? 0, odometerM: odometer });
const spanKeys = (spans: readonly FixSpan[]) => JSON.stringify(spans.map((s, i) => ({ i, v: s.vehicleId, s: s.startMs, e: s.endMs, w: s.watermarkMs })));
const KEYS = sql`k(i int, v uuid, s float8, e float8, w float8)`;

/** For each span, neighbours(): the stored fix just before its start, and the first at or after its end up to the watermark. */
export async function neighboursMany(tx: DbOrTx, orgId: string, spans: readonly FixSpan[]): Promise<Array<{ before: TrackFix | null; after: TrackFix | null }>> {
  if (spans.length === 0) return [];
  const rows = rowsOf<{ i: number; b: string | null; a: string | null }>(
    await tx.execute(sql`select k.i,
        (select ${FIX_JSON} from positions p where p.organization_id = ${orgId} and p.asset_id = k.v and p.fix_time < to_timestamp(k.s / 1000)
          order by p.fix_time desc limit 1)::text as b,
        (select ${FIX_JSON} from positions p where p.organization_id = ${orgId} and p.asset_id = k.v and p.fix_time >= to_timestamp(k.e / 1000)
          and p.fix_time <= to_timestamp(k.w / 1000) order by p.fix_time limit 1)::text as a
      from json_to_recordset(${spanKeys(spans)}::json) as ${KEYS}`),
  );
  const out = spans.map(() => ({ before: null as TrackFix | null, after: null as TrackFix | null }));
  const fix = (j: string | null) => (j ? toFix(JSON.parse(j) as FixTuple) : null);
  for (const r of rows) out[r.i] = { before: fix(r.b), after: fix(r.a) };
  return out;
}

/** How many stored fixes each span holds (to size the reads of fixesInMany). */
export async function countFixesMany(tx: DbOrTx, orgId: string, spans: readonly FixSpan[]): Promise<number[]> {
  if (spans.length === 0) return [];
  const rows = rowsOf<{ i: number; n: number | string }>(
    await tx.execute(sql`select k.i, (select count(*) from positions p where p.organization_id = ${orgId} and p.asset_id = k.v
          and p.fix_time >= to_timestamp(k.s / 1000) and p.fix_time < to_timestamp(k.e / 1000) and p.fix_time <= to_timestamp(k.w / 1000)) as n
      from json_to_recordset(${spanKeys(spans)}::json) as ${KEYS}`),
  );
  const out = spans.map(() => 0);
  for (const r of rows) out[r.i] = Number(r.n);
  return out;
}

/** For each span, fixesBetween(): its stored fixes in time order. */
export async function fixesInMany(tx: DbOrTx, orgId: string, spans: readonly FixSpan[]): Promise<TrackFix[][]> {
  if (spans.length === 0) return [];
  const rows = rowsOf<{ i: number; j: string | null }>(
    await tx.execute(sql`select k.i, (select json_agg(${FIX_JSON} order by p.fix_time) from positions p where p.organization_id = ${orgId} and p.asset_id = k.v
          and p.fix_time >= to_timestamp(k.s / 1000) and p.fix_time < to_timestamp(k.e / 1000) and p.fix_time <= to_timestamp(k.w / 1000))::text as j
      from json_to_recordset(${spanKeys(spans)}::json) as ${KEYS}`),
  );
  const out: TrackFix[][] = spans.map(() => []);
  for (const r of rows) out[r.i] = r.j ? (JSON.parse(r.j) as FixTuple[]).map(toFix) : [];
  return out;
}

/** Removes the vehicles' recompute marks of the listed days. */
export async function deleteDirtyMarks(tx: DbOrTx, orgId: string, marks: ReadonlyArray<{ vehicleId: string; days: readonly string[] }>): Promise<void> {
  if (marks.length === 0) return;
  const keys = JSON.stringify(marks.flatMap((m) => m.days.map((d) => ({ v: m.vehicleId, d }))));
  await tx.execute(sql`delete from ifta_dirty_days x where x.organization_id = ${orgId} and x.vehicle_id = any(${`{${marks.map((m) => m.vehicleId).join(',')}}`}::uuid[])
    and exists (select 1 from json_to_recordset(${keys}::json) as k(v uuid, d date) where k.v = x.vehicle_id and k.d = x.day)`);
}

/** A vehicle's days [fromDay, toDay] and their freshly computed records. */
export interface DayRange {
  vehicleId: string;
  fromDay: string;
  toDay: string;
  days: VehicleDays['days'];
}

/**
 * replaceDays for many vehicles: every range's stored records deleted (the month rollups less what
 * they held) in one statement, then all the new records written as one round. A vehicle's ranges
 * must not overlap: a day in two of them would be written twice.
 */
export async function replaceDaysMany(tx: DbOrTx, orgId: string, ranges: readonly DayRange[], routed: boolean): Promise<void> {
  if (ranges.length === 0) return;
  const ids = sql`${`{${[...new Set(ranges.map((r) => r.vehicleId))].join(',')}}`}::uuid[]`;
  const keys = JSON.stringify(ranges.map((r) => ({ v: r.vehicleId, f: r.fromDay, t: r.toDay })));
  const inRange = sql`exists (select 1 from json_to_recordset(${keys}::json) as k(v uuid, f date, t date) where k.v = x.vehicle_id and x.day between k.f and k.t)`;
  // As replaceDays: date_trunc through timestamp (immutable), which Citus accepts in RETURNING.
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
