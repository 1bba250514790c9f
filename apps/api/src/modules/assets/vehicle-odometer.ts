import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets } from '../../db/schema/index.ts';

// The vehicle's odometer (issue 66, decision 0244): one reading per vehicle and moment, the same on
// its page, the driver's log and ELD file, the maintenance schedules and the inspection reports.
// The newest fix at or before the moment that carries an odometer gives it: the engine's where the
// device reports one (ingest keeps the engine's over the GNSS one in `positions.odometer`, decision
// 0152), else the device's GPS odometer; a vehicle no fix has given one for reads the odometer
// entered on it. Nothing else in the code reads an odometer for a vehicle.

export type OdometerSource = 'ENGINE' | 'GPS' | 'ENTERED';

export interface VehicleOdometer {
  metres: number;
  source: OdometerSource;
  /** The fix's time the reading is from; null for the entered one. */
  at: Date | null;
}

/**
 * The newest reading of the vehicle in `assetId` at or before `at` (now when null), as JSON
 * `{m, s, t}` (metres, ECM or GPS, the fix's time), or null. The sub-select is correlated to the outer
 * row's organization as well as to the parameter: Citus pushes a correlated sub-select down only when
 * it joins on the distribution column, and the parameter routes it to the one shard (decision 0169).
 * Walks positions_asset_time_idx backwards.
 */
const readingJson = (orgId: string, assetId: SQL | typeof assets.id, at: Date | null) => {
  const fromPositions = sql`(
  select json_build_object('m', p.odometer, 's', p.odometer_source, 't', p.fix_time)
  from positions p
  where p.organization_id = ${orgId} and p.organization_id = ${assets.organizationId} and p.asset_id = ${assetId} and p.odometer is not null ${at ? sql`and p.fix_time <= ${at.toISOString()}::timestamptz` : sql``}
  order by p.fix_time desc limit 1)`;
  if (at) return fromPositions;
  // Now: the newest fix as ingest keeps it (its engine odometer is in the attributes), else the
  // newest fix that carried one.
  return sql`coalesce((
  select json_build_object('m', lp.odometer, 's', case when jsonb_typeof(lp.attributes->'vehicleOdometer') = 'number' then 'ECM' else 'GPS' end, 't', lp.fix_time)
  from latest_positions lp
  where lp.organization_id = ${orgId} and lp.organization_id = ${assets.organizationId} and lp.asset_id = ${assetId} and lp.odometer is not null), ${fromPositions})`;
};

/** The vehicle's odometer in metres now (or at `at`), as SQL over a row of `assets`: the reading, else the entered one. */
export const vehicleOdometerSql = (orgId: string, at: Date | null = null) =>
  sql<number | null>`coalesce((${readingJson(orgId, assets.id, at)}->>'m')::float8, ${assets.odometerM})`;

type Row = { id: string; reading: { m: number | string; s: string | null; t: string } | string | null; entered: number | null };

function odometerOf(r: Row): VehicleOdometer | null {
  const reading = typeof r.reading === 'string' ? (JSON.parse(r.reading) as Exclude<Row['reading'], string>) : r.reading;
  if (reading) return { metres: Number(reading.m), source: reading.s === 'ECM' ? 'ENGINE' : 'GPS', at: new Date(reading.t) };
  return r.entered === null ? null : { metres: r.entered, source: 'ENTERED', at: null };
}

/** Each vehicle's odometer now (or at `at`), by id; a vehicle with none is absent. */
export async function vehicleOdometers(db: DbOrTx, orgId: string, assetIds: readonly string[], at: Date | null = null): Promise<Map<string, VehicleOdometer>> {
  const out = new Map<string, VehicleOdometer>();
  if (assetIds.length === 0) return out;
  const rows = await db
    .select({ id: assets.id, reading: sql<Row['reading']>`${readingJson(orgId, assets.id, at)}`, entered: assets.odometerM })
    .from(assets)
    .where(and(eq(assets.organizationId, orgId), inArray(assets.id, [...assetIds])));
  for (const r of rows) {
    const o = odometerOf(r);
    if (o) out.set(r.id, o);
  }
  return out;
}

/** The vehicle's odometer at `at` (now when null), or null when it has none. */
export async function vehicleOdometerAt(db: DbOrTx, orgId: string, assetId: string, at: Date | null = null): Promise<VehicleOdometer | null> {
  return (await vehicleOdometers(db, orgId, [assetId], at)).get(assetId) ?? null;
}
