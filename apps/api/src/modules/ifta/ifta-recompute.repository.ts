import { sql } from 'drizzle-orm';
import type { TrackFix } from '@fleet/geo/ifta';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// The recompute's reads for many vehicles of one organization at once (decision 0215): the same
// conditions as neighbours and fixesBetween (ifta-miles.repository.ts, the plain path's reads), one
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

/** The stored fixes around a span (null when there is none). */
export interface SpanEnds {
  before: TrackFix | null;
  after: TrackFix | null;
}

/** For each span, neighbours(): the stored fix just before its start, and the first at or after its end up to the watermark. */
export async function neighboursMany(tx: DbOrTx, orgId: string, spans: readonly FixSpan[]): Promise<SpanEnds[]> {
  if (spans.length === 0) return [];
  const rows = rowsOf<{ i: number; b: string | null; a: string | null }>(
    await tx.execute(sql`select k.i,
        (select ${FIX_JSON} from positions p where p.organization_id = ${orgId} and p.asset_id = k.v and p.fix_time < to_timestamp(k.s / 1000)
          order by p.fix_time desc limit 1)::text as b,
        (select ${FIX_JSON} from positions p where p.organization_id = ${orgId} and p.asset_id = k.v and p.fix_time >= to_timestamp(k.e / 1000)
          and p.fix_time <= to_timestamp(k.w / 1000) order by p.fix_time limit 1)::text as a
      from json_to_recordset(${spanKeys(spans)}::json) as ${KEYS}`),
  );
  const out: SpanEnds[] = spans.map(() => ({ before: null, after: null }));
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
