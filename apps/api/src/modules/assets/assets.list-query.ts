import { sql, type SQL } from 'drizzle-orm';
import type { Asset, Page } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { assets, assetSearchDoc } from '../../db/schema/index.ts';
import { listVersionSql, type IndexedList } from '../../list-index/list-index.ts';
import { ListPageQueries, pageIdsSql as listPageIdsSql, type ListTable } from '../../list-index/list-page-sql.ts';
import { likeTerm } from '../../http/paging.ts';
import { isoText } from '../../db/sql/prepared-sql.ts';
import { presentAssetListRow, type AssetListRow } from './assets.presenter.ts';

// The asset list as statements rendered once per shape (which filters are present, which sort):
// the page's ids are chosen and counted on the assets table alone, and only those rows are joined
// to their driver, device, towing vehicle, trailers and groups. No per-request query building,
// rows mapped by one plain function (docs/decisions/0043, 0048).

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
  if (f.group)
    parts.push(
      sql`exists (select 1 from group_assets ga where ga.asset_id = ${assets.id} and ga.group_id = ${ph('group')} and ga.organization_id = ${ph('org')})`,
    );
  if (f.search) parts.push(sql`${assetSearchDoc} like ${ph('search')}`);
  return sql.join(parts, sql` and `);
}

const assetList: ListTable = {
  table: assets,
  id: assets.id,
  sortable: [
    assets.unitNumber,
    assets.vin,
    assets.make,
    assets.model,
    assets.year,
    assets.plate,
    assets.status,
    assets.type,
    assets.createdAt,
    assets.updatedAt,
  ],
};

/** The ids of one page in order, each with the total count (exported for bench/registry-explain.ts). */
export const pageIdsSql = (f: AssetListFilter, order: SQL[]): SQL => listPageIdsSql(assetList, conditions(f), Boolean(f.search), order);

// A list row's columns and links, shared by the page statement and the whole-list statement.
const rowColumns = (
  trailers: SQL,
  groups: SQL,
) => sql`a.id, a.organization_id as "organizationId", a.type, a.unit_number as "unitNumber", a.vin, a.make, a.model, a.year,
  a.plate, a.plate_state as "plateState", a.fuel_type as "fuelType", a.ifta_qualified as "iftaQualified", a.odometer_m as "odometerM",
  a.tank_capacity_l as "tankCapacityL", a.trailer_type as "trailerType", a.length_m as "lengthM", a.status, a.notes,
  ${sql.raw(isoText('a.created_at'))} as "createdAt", ${sql.raw(isoText('a.updated_at'))} as "updatedAt",
  d.id as "driverId", d.first_name as "driverFirstName", d.last_name as "driverLastName",
  g.id as "deviceId", g.unique_id as "deviceUniqueId", g.name as "deviceName", ${sql.raw(isoText('g.last_seen_at'))} as "deviceLastSeenAt",
  tv.id as "towingId", tv.unit_number as "towingUnit", ${trailers} as trailers, ${groups} as groups`;
// Every join and sub-select names the organization too: on Citus rows are co-located by it, and a
// join on an id alone needs a repartition it refuses; a sub-select in the select list stays on one
// shard only when it names the organization itself, not the outer row's (decision 0169).
const rowLinks = sql`left join drivers d on d.id = a.current_driver_id and d.organization_id = a.organization_id
left join gateways g on g.asset_id = a.id and g.organization_id = a.organization_id
left join trailer_attachments oa on oa.trailer_id = a.id and oa.organization_id = a.organization_id and oa.detached_at is null
left join assets tv on tv.id = oa.vehicle_id and tv.organization_id = oa.organization_id`;
const trailersJson = sql`json_agg(json_build_object('id', t.id, 'unitNumber', t.unit_number, 'type', t.type) order by ta.attached_at)`;
const groupsJson = sql`json_agg(json_build_object('id', gr.id, 'name', gr.name) order by gr.name)`;

/** The list rows of the given ids (a `{…}` uuid array literal), in the array's order, with their links. */
export const pageRowsSql = (): SQL => sql`select ${rowColumns(
  sql`coalesce((select ${trailersJson} from trailer_attachments ta join assets t on t.id = ta.trailer_id and t.organization_id = ta.organization_id
    where ta.vehicle_id = a.id and ta.organization_id = ${ph('org')} and ta.detached_at is null), '[]'::json)`,
  sql`coalesce((select ${groupsJson} from group_assets ga join groups gr on gr.id = ga.group_id and gr.organization_id = ga.organization_id
    where ga.asset_id = a.id and ga.organization_id = ${ph('org')}), '[]'::json)`,
)}
from unnest(${ph('ids')}::uuid[]) with ordinality as p(id, rn)
join assets a on a.id = p.id and a.organization_id = ${ph('org')}
${rowLinks}
order by p.rn`;

/**
 * Every list row of the organization with the list's version, for the in-memory index: the same
 * rows as pageRowsSql, their trailers and groups aggregated once per list instead of a sub-select
 * per row (a third of the time for 10,000 rows).
 */
const allRowsSql = sql`select ${listVersionSql('assets')} as "listVersion", ${rowColumns(sql`coalesce(tr.trailers, '[]'::json)`, sql`coalesce(grs.groups, '[]'::json)`)}
from assets a
${rowLinks}
left join (select ta.vehicle_id, ${trailersJson} as trailers from trailer_attachments ta join assets t on t.id = ta.trailer_id and t.organization_id = ta.organization_id
  where ta.detached_at is null and ta.organization_id = ${ph('org')} group by ta.vehicle_id) tr on tr.vehicle_id = a.id
left join (select ga.asset_id, ${groupsJson} as groups from group_assets ga join groups gr on gr.id = ga.group_id and gr.organization_id = ga.organization_id
  where ga.organization_id = ${ph('org')} group by ga.asset_id) grs on grs.asset_id = a.id
where a.organization_id = ${ph('org')}`;

/** The asset list in the in-memory index: type and status filters, group membership, search text. */
const indexedAssets: IndexedList<Asset> = {
  name: 'assets',
  filters: ['type', 'status'],
  allRowsSql,
  entriesSql: sql`select a.id, a.search_text as text, a.type as f0, a.status as f1, ga.groups, ${listVersionSql('assets')} as version
from assets a
left join (select asset_id, string_agg(group_id::text, ',') as groups from group_assets where organization_id = ${ph('org')} group by asset_id) ga on ga.asset_id = a.id
where a.organization_id = ${ph('org')}
order by a.id`,
  table: assets,
  id: assets.id,
  organizationId: assets.organizationId,
  // A paired device's last-seen time moves with every position, without a version bump.
  checkSql: sql`select ${listVersionSql('assets')} as version,
  (select json_object_agg(g.asset_id, ${sql.raw(isoText('g.last_seen_at'))}) from gateways g
    where g.organization_id = ${ph('org')} and g.asset_id = any(${ph('ids')}::uuid[]) and g.last_seen_at is not null)::text as live`,
  withLive: (items, live) => {
    const seen = live ? (JSON.parse(live) as Record<string, string>) : {};
    return items.map((a) => (a.device ? { ...a, device: { ...a.device, lastSeenAt: seen[a.id] ?? null } } : a));
  },
};

const queries = new ListPageQueries<AssetListRow, Asset>('assets', assetList, pageRowsSql, presentAssetListRow, indexedAssets);

/**
 * A page of the organization's vehicles and/or trailers. `order` comes from lib/paging's
 * orderBy over the assets columns (no parameters in it), so it is part of the shape.
 */
export function selectAssetPage(
  db: DbOrTx,
  orgId: string,
  f: AssetListFilter,
  q: { page: number; size: number; sortKey: string; order: SQL[] },
): Promise<Page<Asset>> {
  const shape = `${f.type ? 't' : ''}${f.status ? 's' : ''}${f.group ? 'g' : ''}${f.search ? 'q' : ''}|${q.sortKey}`;
  const values = { org: orgId, type: f.type, status: f.status, group: f.group, search: f.search ? likeTerm(f.search) : undefined };
  return queries.page(db, shape, () => conditions(f), values, q, {
    search: f.search || undefined,
    group: f.group,
    filters: { type: f.type, status: f.status },
  });
}

/** The asset as its list row shows it (one prepared statement, planned once per connection), or undefined. */
export async function selectListedAsset(db: DbOrTx, orgId: string, assetId: string): Promise<Asset | undefined> {
  return (await queries.rowsOf(db, orgId, [assetId]))[0];
}
