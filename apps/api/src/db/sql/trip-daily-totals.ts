import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';

// safety_daily_totals (decision 0199): each vehicle's trips summed per driver and UTC day, so scores
// read a few rows per driver instead of every trip. Kept by the one code path that writes trips (not
// by a trigger: Citus refuses triggers on distributed tables), in the same transaction and under the
// same per-vehicle lock: a vehicle's days from its cut are summed again from its trips as they are
// after the replacement, so late, reversed and duplicated fixes leave the totals equal to the trips.

/**
 * Sums each vehicle's trips again from the UTC day of its cut on (`cuts`: JSON of
 * `[{ asset_id, from_at }]`, the trips writer's shape). Call after the vehicle's trips were replaced.
 */
export async function refreshTripDailyTotals(tx: DbOrTx, orgId: string, cuts: string): Promise<void> {
  await tx.execute(sql`delete from safety_daily_totals x using json_to_recordset(${cuts}::json) as c(asset_id uuid, from_at timestamptz)
    where x.organization_id = ${orgId} and x.asset_id = c.asset_id and x.day >= (c.from_at at time zone 'UTC')::date`);
  await tx.execute(sql`insert into safety_daily_totals (organization_id, asset_id, driver_id, day, distance_m, driving_s, trips)
    select t.organization_id, t.asset_id, t.driver_id, (t.started_at at time zone 'UTC')::date, sum(t.distance_m), sum(extract(epoch from t.ended_at - t.started_at))::float8, count(*)::int
    from trips t join json_to_recordset(${cuts}::json) as c(asset_id uuid, from_at timestamptz) on t.asset_id = c.asset_id
    where t.organization_id = ${orgId} and t.started_at >= ((c.from_at at time zone 'UTC')::date)::timestamp at time zone 'UTC'
    group by t.organization_id, t.asset_id, t.driver_id, (t.started_at at time zone 'UTC')::date`);
}
