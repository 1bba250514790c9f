import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';

/** A vehicle's rows of every IFTA table, without what tells two vehicles (or organizations) apart: tests compare two ways of writing them. */
export async function iftaTablesOf(db: Db, vehicleId: string): Promise<Record<string, unknown[]>> {
  const q = async (text: string) => rowsOf<Record<string, unknown>>(await db.execute(sql.raw(text.replaceAll('$v', `'${vehicleId}'`))));
  return {
    days: await q(
      `select day::text, jurisdiction, round(metres::numeric, 6)::text as m, round(interpolated_metres::numeric, 6)::text as im from ifta_distance_days where vehicle_id = $v order by 1, 2`,
    ),
    months: await q(
      `select month::text, jurisdiction, round(metres::numeric, 6)::text as m, round(interpolated_metres::numeric, 6)::text as im from ifta_distance_months where vehicle_id = $v order by 1, 2`,
    ),
    vmonths: await q(
      `select month::text, round(metres::numeric, 6)::text as m, round(odometer_travel_m::numeric, 6)::text as ot, round(odometer_metres::numeric, 6)::text as om from ifta_vehicle_months where vehicle_id = $v order by 1`,
    ),
    vdays: await q(
      `select day::text, first_fix_at::text, last_fix_at::text, odometer_start_m, odometer_end_m, fixes, round(metres::numeric, 6)::text as m, round(odometer_travel_m::numeric, 6)::text as ot, round(odometer_metres::numeric, 6)::text as om from ifta_vehicle_days where vehicle_id = $v order by 1`,
    ),
    crossings: await q(
      `select day::text, crossed_at::text, latitude, longitude, odometer_m, from_jurisdiction, to_jurisdiction from ifta_crossings where vehicle_id = $v order by 1, 2, 3, 4, 6, 7`,
    ),
    flagged: await q(
      `select day::text, from_time::text, to_time::text, from_lat, from_lon, to_lat, to_lon, flags, metres, jurisdictions, metres_by_jurisdiction from ifta_flagged_segments where vehicle_id = $v order by 1, 2, 3`,
    ),
    state: await q(`select fix_time::text, latitude, longitude, speed, odometer from ifta_vehicle_state where vehicle_id = $v`),
    dirty: await q(`select day::text from ifta_dirty_days where vehicle_id = $v order by 1`),
  };
}
