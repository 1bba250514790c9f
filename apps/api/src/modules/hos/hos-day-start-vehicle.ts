import { sql } from 'drizzle-orm';
import { HOS_EVENT_TYPES, HOS_RECORD_STATUSES } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';
import { statusOfCode, type DutyEventFacts } from './hos.periods.ts';

export interface DayStartVehicle {
  id: string;
  unitNumber: string;
  type: 'VEHICLE' | 'TRAILER';
}

/**
 * Whether a driver's day starts Driving or On duty: a drive carried over midnight used its vehicle
 * on the new day too, so that vehicle belongs in the day's header (ELD 4.8.1.3) though no record of
 * the day names it.
 */
export function startsInVehicle(events: readonly DutyEventFacts[], startMs: number): boolean {
  let last: DutyEventFacts | undefined;
  for (const e of events) if (e.eventType === HOS_EVENT_TYPES.DUTY_STATUS && e.at < startMs) last = e;
  const status = last ? statusOfCode(last.eventCode) : null;
  return status === 'D' || status === 'ON';
}

/**
 * The vehicle of each driver's last active duty status before their day's start, in one statement
 * (one index probe per driver); drivers without one are absent.
 */
export async function vehiclesAtDayStart(
  db: DbOrTx,
  orgId: string,
  starts: ReadonlyArray<{ driverId: string; startMs: number }>,
): Promise<Map<string, DayStartVehicle>> {
  if (starts.length === 0) return new Map();
  const ids = `{${starts.map((s) => s.driverId).join(',')}}`;
  const times = `{${starts.map((s) => s.startMs).join(',')}}`;
  const rows = rowsOf<{ driver_id: string; id: string; unit_number: string; type: 'VEHICLE' | 'TRAILER' }>(
    await db.execute(sql`
      select s.d as driver_id, a.id, a.unit_number, a.type
      from unnest(${ids}::uuid[], ${times}::float8[]) as s(d, t)
      cross join lateral (
        select e.vehicle_id from hos_events e
        where e.organization_id = ${orgId}::uuid and e.driver_id = s.d and e.event_type = ${HOS_EVENT_TYPES.DUTY_STATUS}
          and e.record_status = ${HOS_RECORD_STATUSES.ACTIVE} and e.event_time < to_timestamp(s.t / 1000)
        order by e.event_time desc limit 1) v
      join assets a on a.organization_id = ${orgId}::uuid and a.id = v.vehicle_id`),
  );
  return new Map(rows.map((r) => [r.driver_id, { id: r.id, unitNumber: r.unit_number, type: r.type }]));
}
