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
