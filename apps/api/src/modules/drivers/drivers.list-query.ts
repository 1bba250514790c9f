import { sql, type SQL } from 'drizzle-orm';
import type { Driver, Page } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, driverSearchDoc } from '../../db/schema/index.ts';
import { BROAD_SEARCH_MATCHES as BROAD_SEARCH, likeTerm, toPage } from '../../lib/paging.ts';
import { isoText, PreparedCache } from '../../lib/prepared-sql.ts';

// The driver list like the asset list (assets.list-query.ts, docs/decisions/0043, 0048): the
// page's ids chosen and counted on the drivers table alone, then only those rows joined to their
// vehicle, account and groups.

export interface DriverListFilter {
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
  search?: string;
}

type DriverListRow = Omit<Driver, 'vehicle' | 'user'> & {
  vehicleId: string | null;
  vehicleUnit: string | null;
  vehicleType: 'VEHICLE' | 'TRAILER' | null;
  userId: string | null;
  userEmail: string | null;
};

const ph = (name: string) => sql.placeholder(name);

function conditions(f: DriverListFilter): SQL {
  const parts: SQL[] = [sql`${drivers.organizationId} = ${ph('org')}`];
  if (f.status) parts.push(sql`${drivers.status} = ${ph('status')}`);
  // The group must be the organization's own: a foreign group id matches nothing.
  if (f.group) parts.push(sql`exists (select 1 from group_members gm where gm.member_type = 'DRIVER' and gm.member_id = ${drivers.id} and gm.group_id = ${ph('group')} and gm.organization_id = ${ph('org')})`);
  if (f.search) parts.push(sql`${driverSearchDoc} like ${ph('search')}`);
  return sql.join(parts, sql` and `);
}

// As in assets.list-query.ts (decision 0048): the page's ids and count run unnamed, planned for
// each term; the rows of those ids run named, on one reused plan.
const idQueries = new PreparedCache<{ id: string; total: number }>('drivers_ids', false);
const countQueries = new PreparedCache<{ n: number }>('drivers_count');
const rowsQuery = new PreparedCache<DriverListRow>('drivers_rows');

/** The ids of one page in order, each with the total count (exported for bench/registry-explain.ts). */
export function pageIdsSql(f: DriverListFilter, order: SQL[]): SQL {
  const where = conditions(f);
  const orderSql = sql.join(order, sql`, `);
  // See assets.list-query.ts (docs/decisions/0047): under a search the matches are counted; a
  // broad search walks the sort index for its page, a narrower one sorts its matches (read into a
  // narrow materialized set); without a search the page walks the sort index and a count scans.
  if (!f.search) {
    return sql`select ${drivers.id} as id, (select count(*) from ${drivers} where ${where})::int as total from ${drivers} where ${where}
  order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')}`;
  }
  return sql`with matches as materialized (select ${drivers.id}, ${drivers.lastName}, ${drivers.firstName}, ${drivers.email}, ${drivers.employeeId},
  ${drivers.licenseNumber}, ${drivers.licenseState}, ${drivers.licenseExpiry}, ${drivers.status}, ${drivers.createdAt} from ${drivers} where ${where}),
counted as (select count(*)::int as n from ${drivers} where ${where})
(select ${drivers.id} as id, (select n from counted) as total from ${drivers}
  where ${where} and (select n from counted) > ${sql.raw(String(BROAD_SEARCH))} order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')})
union all
(select ${drivers.id} as id, (select n from counted) as total from matches as ${drivers}
  where (select n from counted) <= ${sql.raw(String(BROAD_SEARCH))} order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')})`;
}

/** The list rows of the given ids (a `{…}` uuid array literal), in the array's order, with their links. */
export const pageRowsSql = (): SQL => sql`select d.id, d.organization_id as "organizationId", d.first_name as "firstName", d.last_name as "lastName", d.email, d.phone,
  d.employee_id as "employeeId", d.license_number as "licenseNumber", d.license_state as "licenseState", d.license_class as "licenseClass",
  to_char(d.license_expiry, 'YYYY-MM-DD') as "licenseExpiry", d.home_time_zone as "homeTimeZone", d.ruleset,
  d.short_haul_150 as "shortHaul150", d.sixteen_hour as "sixteenHour", d.personal_conveyance_allowed as "personalConveyanceAllowed",
  d.yard_moves_allowed as "yardMovesAllowed", d.eld_exempt as "eldExempt", d.eld_exempt_reason as "eldExemptReason", d.status, d.notes,
  ${sql.raw(isoText('d.created_at'))} as "createdAt", ${sql.raw(isoText('d.updated_at'))} as "updatedAt",
  v.id as "vehicleId", v.unit_number as "vehicleUnit", v.type as "vehicleType", u.id as "userId", u.email as "userEmail",
  coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
     from group_members gm join groups g on g.id = gm.group_id
     where gm.member_type = 'DRIVER' and gm.member_id = d.id), '[]'::json) as groups
from unnest(${ph('ids')}::uuid[]) with ordinality as p(id, rn)
join drivers d on d.id = p.id and d.organization_id = ${ph('org')}
left join assets v on v.current_driver_id = d.id
left join users u on u.id = d.user_id
order by p.rn`;

function present(r: DriverListRow): Driver {
  return {
    id: r.id,
    organizationId: r.organizationId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    employeeId: r.employeeId,
    licenseNumber: r.licenseNumber,
    licenseState: r.licenseState,
    licenseClass: r.licenseClass,
    licenseExpiry: r.licenseExpiry,
    homeTimeZone: r.homeTimeZone,
    ruleset: r.ruleset,
    shortHaul150: r.shortHaul150,
    sixteenHour: r.sixteenHour,
    personalConveyanceAllowed: r.personalConveyanceAllowed,
    yardMovesAllowed: r.yardMovesAllowed,
    eldExempt: r.eldExempt,
    eldExemptReason: r.eldExemptReason,
    status: r.status,
    notes: r.notes,
    vehicle: r.vehicleId ? { id: r.vehicleId, unitNumber: r.vehicleUnit ?? '', type: r.vehicleType ?? 'VEHICLE' } : null,
    user: r.userId ? { id: r.userId, email: r.userEmail ?? '' } : null,
    groups: r.groups,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** A page of the organization's drivers; `order` from lib/paging's orderBy (no parameters in it). */
export async function selectDriverPage(
  db: DbOrTx,
  orgId: string,
  f: DriverListFilter,
  q: { page: number; size: number; sortKey: string; order: SQL[] },
): Promise<Page<Driver>> {
  const shape = `${f.status ? 's' : ''}${f.group ? 'g' : ''}${f.search ? 'q' : ''}|${q.sortKey}`;
  const values = { org: orgId, status: f.status, group: f.group, search: f.search ? likeTerm(f.search) : undefined };
  const ids = await idQueries.get(shape, () => pageIdsSql(f, q.order)).run(db, { ...values, limit: q.size, offset: q.page * q.size });
  if (ids.length === 0) {
    // Past the last page (or nothing matches) there is no row to carry the count.
    const [c] = q.page > 0 ? await countQueries.get(shape, () => sql`select count(*)::int as n from ${drivers} where ${conditions(f)}`).run(db, values) : [];
    return toPage([], c?.n ?? 0, q);
  }
  const rows = await rowsQuery.get('', pageRowsSql).run(db, { ids: `{${ids.map((r) => r.id).join(',')}}`, org: orgId });
  return toPage(rows.map(present), ids[0]?.total ?? 0, q);
}
