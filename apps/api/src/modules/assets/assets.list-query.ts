import { sql, type SQL } from 'drizzle-orm';
import type { Asset, Page } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, assetSearchDoc } from '../../db/schema/index.ts';
import { BROAD_SEARCH_MATCHES as BROAD_SEARCH, likeTerm, toPage } from '../../lib/paging.ts';
import { isoText, PreparedCache } from '../../lib/prepared-sql.ts';
import { presentAssetListRow, type AssetListRow } from './assets.presenter.ts';

// The asset list as one prepared statement per shape (which filters are present, which sort):
// the page is chosen on the assets table alone, numbered, counted, and only its rows are joined
// to their driver, device, towing vehicle, trailers and groups. One round trip, no per-request
// query building, rows mapped by one plain function (docs/decisions/0043).

export interface AssetListFilter {
  type?: 'VEHICLE' | 'TRAILER';
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
  search?: string;
}

const ph = (name: string) => sql.placeholder(name);

function conditions(f: AssetListFilter): SQL {
  const parts: SQL[] = [sql`${assets.organizationId} = ${ph('org')}`];
  if (f.type) parts.push(sql`${assets.type} = ${ph('type')}`);
  if (f.status) parts.push(sql`${assets.status} = ${ph('status')}`);
  // The group must be the organization's own: a foreign group id matches nothing.
  if (f.group) parts.push(sql`exists (select 1 from group_assets ga where ga.asset_id = ${assets.id} and ga.group_id = ${ph('group')} and ga.organization_id = ${ph('org')})`);
  if (f.search) parts.push(sql`${assetSearchDoc} like ${ph('search')}`);
  return sql.join(parts, sql` and `);
}

const pageQueries = new PreparedCache<AssetListRow & { total: number }>('assets_page');
const countQueries = new PreparedCache<{ n: number }>('assets_count');

/** The page statement of one shape (exported for bench/registry-explain.ts). */
export function pageSql(f: AssetListFilter, order: SQL[]): SQL {
  const where = conditions(f);
  const orderSql = sql.join(order, sql`, `);
  // With a search, the matches are counted first (through the trigram index, or a scan when they
  // are most of the table): totalElements stays exact. The page then comes from one of two
  // branches, the other skipped by its one-time filter on the count (docs/decisions/0047): a broad
  // search (more than BROAD_SEARCH_MATCHES) walks the sort index testing the stored search text and
  // stops at the page, instead of sorting thousands of matches; a narrower one reads its matches
  // into a narrow set (id and the sortable columns; materialized, so the planner cannot swap it for
  // a walk of the sort index, which costs the whole index when the matches sort late) and takes the
  // top N. The CTE is only computed when that branch runs. Without a search the page walks the sort
  // index and a separate count scans. `matches AS "assets"` lets the sort expressions, written
  // against the assets table, name the matched rows; the outer query sorts the page's rows again.
  const withMatches = f.search
    ? sql`with matches as materialized (select ${assets.id}, ${assets.unitNumber}, ${assets.vin}, ${assets.make}, ${assets.model}, ${assets.year}, ${assets.plate},
  ${assets.status}, ${assets.type}, ${assets.createdAt}, ${assets.updatedAt} from ${assets} where ${where}),
counted as (select count(*) as n from ${assets} where ${where})
`
    : sql``;
  const page = f.search
    ? sql`(select ${assets.id} as id, (select n from counted) as total from ${assets}
     where ${where} and (select n from counted) > ${sql.raw(String(BROAD_SEARCH))} order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')})
   union all
   (select ${assets.id} as id, (select n from counted) as total from matches as ${assets}
     where (select n from counted) <= ${sql.raw(String(BROAD_SEARCH))} order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')})`
    : sql`select ${assets.id} as id, (select count(*) from ${assets} where ${where}) as total from ${assets} where ${where}
     order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')}`;
  return sql`${withMatches}select ${assets}.id, ${assets}.organization_id as "organizationId", ${assets}.type, ${assets}.unit_number as "unitNumber", ${assets}.vin,
  ${assets}.make, ${assets}.model, ${assets}.year, ${assets}.plate, ${assets}.plate_state as "plateState", ${assets}.fuel_type as "fuelType",
  ${assets}.ifta_qualified as "iftaQualified", ${assets}.odometer_m as "odometerM", ${assets}.trailer_type as "trailerType", ${assets}.length_m as "lengthM",
  ${assets}.status, ${assets}.notes, ${sql.raw(isoText('"assets".created_at'))} as "createdAt", ${sql.raw(isoText('"assets".updated_at'))} as "updatedAt",
  d.id as "driverId", d.first_name as "driverFirstName", d.last_name as "driverLastName",
  g.id as "deviceId", g.unique_id as "deviceUniqueId", g.name as "deviceName", ${sql.raw(isoText('g.last_seen_at'))} as "deviceLastSeenAt",
  tv.id as "towingId", tv.unit_number as "towingUnit",
  coalesce((select json_agg(json_build_object('id', t.id, 'unitNumber', t.unit_number, 'type', t.type) order by ta.attached_at)
     from trailer_attachments ta join assets t on t.id = ta.trailer_id
     where ta.vehicle_id = ${assets}.id and ta.detached_at is null), '[]'::json) as trailers,
  coalesce((select json_agg(json_build_object('id', gr.id, 'name', gr.name) order by gr.name)
     from group_assets ga join groups gr on gr.id = ga.group_id where ga.asset_id = ${assets}.id), '[]'::json) as groups,
  p.total::int as total
from (
  ${page}
) p
join ${assets} on ${assets}.id = p.id
left join drivers d on d.id = ${assets}.current_driver_id
left join gateways g on g.asset_id = ${assets}.id
left join trailer_attachments oa on oa.trailer_id = ${assets}.id and oa.detached_at is null
left join assets tv on tv.id = oa.vehicle_id
order by ${orderSql}`;
}

/**
 * A page of the organization's vehicles and/or trailers. `order` comes from lib/paging's
 * orderBy over the assets columns (no parameters in it), so it is part of the shape.
 */
export async function selectAssetPage(
  db: DbOrTx,
  orgId: string,
  f: AssetListFilter,
  q: { page: number; size: number; sortKey: string; order: SQL[] },
): Promise<Page<Asset>> {
  const shape = `${f.type ? 't' : ''}${f.status ? 's' : ''}${f.group ? 'g' : ''}${f.search ? 'q' : ''}|${q.sortKey}`;
  const values = { org: orgId, type: f.type, status: f.status, group: f.group, search: f.search ? likeTerm(f.search) : undefined };
  const rows = await pageQueries.get(shape, () => pageSql(f, q.order)).run(db, { ...values, limit: q.size, offset: q.page * q.size });
  let total = rows[0]?.total ?? 0;
  // Past the last page there is no row to carry the count.
  if (rows.length === 0 && q.page > 0) {
    const [c] = await countQueries.get(shape, () => sql`select count(*)::int as n from ${assets} where ${conditions(f)}`).run(db, values);
    total = c?.n ?? 0;
  }
  return toPage(rows.map(presentAssetListRow), total, q);
}
