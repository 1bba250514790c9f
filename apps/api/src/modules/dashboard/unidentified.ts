import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';

/**
 * Driving time of the unidentified driver in [fromMs, toMs) (issue 18's dashboard counter): the
 * unidentified driver's active duty-status records (hos_events with no driver, written by
 * automatic duty status, decision 0095), each Driving record lasting until that vehicle's next
 * one. Issue 16 adds the screen that assigns these records to drivers; a record assigned there is
 * replaced by an active one with a driver, so it stops counting here. Null never: the records
 * exist since automatic duty status.
 */
export async function unidentifiedDrivingMs(db: DbOrTx, orgId: string, fromMs: number, toMs: number, groupId?: string): Promise<number | null> {
  const from = new Date(fromMs).toISOString();
  const to = new Date(toMs).toISOString();
  const inGroup = groupId
    ? sql`and exists (select 1 from group_assets ga where ga.asset_id = e.vehicle_id and ga.group_id = ${groupId} and ga.organization_id = ${orgId})`
    : sql``;
  const rows = rowsOf<{ ms: string | number | null }>(
    await db.execute(sql`with ev as (
        select e.event_code, e.event_time, lead(e.event_time) over (partition by e.vehicle_id order by e.event_time, e.sequence_id) as next_time
        from hos_events e
        where e.organization_id = ${orgId} and e.driver_id is null and e.event_type = 1 and e.record_status = 1
          and e.event_time < ${to}::timestamptz and e.event_time >= ${from}::timestamptz - interval '2 days' ${inGroup}
      )
      select coalesce(sum(extract(epoch from (least(coalesce(next_time, ${to}::timestamptz), ${to}::timestamptz) - greatest(event_time, ${from}::timestamptz)))), 0) * 1000 as ms
      from ev where event_code = 3 and coalesce(next_time, ${to}::timestamptz) > ${from}::timestamptz`),
  );
  return Math.max(0, Math.round(Number(rows[0]?.ms ?? 0)));
}
