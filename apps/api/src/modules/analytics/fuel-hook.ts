import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';

/**
 * Litres of fuel bought per vehicle in [from, to] (calendar days, both included, in the
 * organization's zone like the daily statistics they are divided by), for fleet performance's fuel
 * economy. Read from the IFTA fuel purchases (receipts in gallons or litres, converted once here
 * with the exact US gallon); every fuel type counts, as it all went into the tank. Null when the
 * organization bought no fuel in the range, so the screen says "No fuel data" rather than 0.
 */
export async function fuelUsedLitres(db: DbOrTx, orgId: string, from: string, to: string): Promise<Map<string, number> | null> {
  // One grouped statement on the purchases' (organization, time) index; the day bounds are the
  // organization's local midnights.
  const rows = rowsOf<{ vehicle_id: string; litres: number | string }>(
    await db.execute(sql`
      with z as (select coalesce(time_zone, 'UTC') as tz from organizations where id = ${orgId})
      select p.vehicle_id, sum(p.quantity_milli / 1000.0 * case when p.volume_unit = 'GAL' then 3.785411784 else 1 end)::float8 as litres
      from ifta_fuel_purchases p, z
      where p.organization_id = ${orgId}
        and p.purchased_at >= (${from}::date)::timestamp at time zone z.tz
        and p.purchased_at < (${to}::date + 1)::timestamp at time zone z.tz
      group by p.vehicle_id`),
  );
  if (rows.length === 0) return null;
  return new Map(rows.map((r) => [r.vehicle_id, Number(r.litres)]));
}

/** A vehicle's fuel over the days it has positions for: what its fuel economy divides by its distance. */
export interface FuelOverSpan {
  litres: number;
  /** First and last day (organization's calendar) of the vehicle's positions in the range: the purchases counted are those days'. */
  from: string;
  to: string;
}

/**
 * Litres bought per vehicle over the span of days it has positions for inside [from, to] (issue 46):
 * a month of fuel over a week of positions made 1.6 mpg. Fuel bought before a vehicle's first day
 * with positions or after its last is left out, as its miles are unknown; a vehicle with no
 * positions in the range, or no purchase within its span, has none. Empty map: no such vehicle.
 */
export async function fuelOverDrivenSpan(db: DbOrTx, orgId: string, from: string, to: string): Promise<Map<string, FuelOverSpan>> {
  const rows = rowsOf<{ vehicle_id: string; litres: number | string; first_day: string; last_day: string }>(
    await db.execute(sql`
      with z as (select coalesce(time_zone, 'UTC') as tz from organizations where id = ${orgId}),
      s as (select asset_id, min(day) as first_day, max(day) as last_day from vehicle_daily_stats
        where organization_id = ${orgId} and day >= ${from}::date and day <= ${to}::date and distance_m > 0 group by asset_id)
      select p.vehicle_id, sum(p.quantity_milli / 1000.0 * case when p.volume_unit = 'GAL' then 3.785411784 else 1 end)::float8 as litres,
        s.first_day::text as first_day, s.last_day::text as last_day
      from ifta_fuel_purchases p join s on s.asset_id = p.vehicle_id, z
      where p.organization_id = ${orgId}
        and p.purchased_at >= (s.first_day)::timestamp at time zone z.tz
        and p.purchased_at < (s.last_day + 1)::timestamp at time zone z.tz
      group by p.vehicle_id, s.first_day, s.last_day`),
  );
  return new Map(rows.map((r) => [r.vehicle_id, { litres: Number(r.litres), from: r.first_day.slice(0, 10), to: r.last_day.slice(0, 10) }]));
}
