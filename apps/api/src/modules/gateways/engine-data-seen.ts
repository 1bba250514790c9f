import { sql } from 'drizzle-orm';
import { ELD_ENGINE_ATTRIBUTES, ENGINE_ATTRIBUTE_NAMES, type EngineAttribute, type EngineDataSeen } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql/rows.ts';

// Which engine attributes a device sent lately (the devices screen's "engine data seen"): its
// newest positions, read through the (gateway_id, fix_time) key, so a page of devices costs one
// short index scan each. An attribute counts when a decoder named it, or its column was filled.
// The organization is named so that Citus routes the lateral to the organization's shard.

/** How many of a device's newest positions are looked at. */
export const RECENT_POSITIONS = 20;

const seenSql = (name: EngineAttribute) => {
  if (name === 'ignition') return sql`bool_or(p.ignition is not null or p.attributes ? 'ignition')`;
  if (name === 'vehicleOdometer') return sql`bool_or(p.odometer_source = 'ECM' or p.attributes ? 'vehicleOdometer')`;
  if (name === 'engineHours') return sql`bool_or(p.engine_hours is not null or p.attributes ? 'engineHours')`;
  return sql`bool_or(p.attributes ? ${sql.raw(`'${name}'`)})`;
};

export const noEngineData = (): EngineDataSeen => ({
  lastPositionAt: null,
  attributes: Object.fromEntries(ENGINE_ATTRIBUTE_NAMES.map((n) => [n, false])) as EngineDataSeen['attributes'],
  gpsOnly: false,
});

export async function engineDataSeen(db: DbOrTx, orgId: string, gatewayIds: readonly string[]): Promise<Map<string, EngineDataSeen>> {
  const out = new Map<string, EngineDataSeen>();
  if (gatewayIds.length === 0) return out;
  const cols = sql.join(
    ENGINE_ATTRIBUTE_NAMES.map((n) => sql`coalesce(${seenSql(n)}, false) as ${sql.raw(`"${n}"`)}`),
    sql`, `,
  );
  const ids = sql.join(
    gatewayIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = rowsOf<Record<string, unknown> & { id: string; last: number | null }>(
    await db.execute(sql`
      select g.id, e.*
      from unnest(array[${ids}]) as g(id)
      cross join lateral (
        select (extract(epoch from max(p.fix_time)) * 1000)::float8 as last, ${cols}
        from (select fix_time, ignition, odometer_source, engine_hours, attributes from positions
              where organization_id = ${orgId} and gateway_id = g.id order by fix_time desc limit ${RECENT_POSITIONS}) p
      ) e`),
  );
  for (const r of rows) {
    const attributes = Object.fromEntries(ENGINE_ATTRIBUTE_NAMES.map((n) => [n, r[n] === true])) as EngineDataSeen['attributes'];
    const last = r.last === null ? null : new Date(Number(r.last));
    out.set(r.id, {
      lastPositionAt: last?.toISOString() ?? null,
      attributes,
      // No position yet is not "GPS only": nothing is known.
      gpsOnly: last !== null && ELD_ENGINE_ATTRIBUTES.some((n) => !attributes[n]),
    });
  }
  return out;
}
