import { sql, type SQL } from 'drizzle-orm';
import type { Driver, Page } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, driverSearchDoc } from '../../db/schema/index.ts';
import { BROAD_SEARCH_MATCHES as BROAD_SEARCH, likeTerm, toPage } from '../../lib/paging.ts';
import { isoText, PreparedCache } from '../../lib/prepared-sql.ts';

// The driver list as one prepared statement per shape, like the asset list
// (assets.list-query.ts, docs/decisions/0043): page of ids chosen, numbered and counted on the
// drivers table alone, then only those rows joined to their vehicle, account and groups.

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
  total: number;
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

const pageQueries = new PreparedCache<DriverListRow>('drivers_page');
const countQueries = new PreparedCache<{ n: number }>('drivers_count');

/** The page statement of one shape (exported for bench/registry-explain.ts). */
export function pageSql(f: DriverListFilter, order: SQL[]): SQL {
  const where = conditions(f);
  const orderSql = sql.join(order, sql`, `);
  // See assets.list-query.ts (docs/decisions/0047): under a search the matches are counted; a
  // broad search walks the sort index for its page, a narrower one sorts its matches (read into a
  // narrow materialized set); without a search the page walks the sort index and a count scans.
  const withMatches = f.search
    ? sql`with matches as materialized (select ${drivers.id}, ${drivers.lastName}, ${drivers.firstName}, ${drivers.email}, ${drivers.employeeId},
  ${drivers.licenseNumber}, ${drivers.licenseState}, ${drivers.licenseExpiry}, ${drivers.status}, ${drivers.createdAt} from ${drivers} where ${where}),
counted as (select count(*) as n from ${drivers} where ${where})\n`
    : sql``;
  const page = f.search
    ? sql`(select ${drivers.id} as id, (select n from counted) as total from ${drivers}
     where ${where} and (select n from counted) > ${sql.raw(String(BROAD_SEARCH))} order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')})
   union all
   (select ${drivers.id} as id, (select n from counted) as total from matches as ${drivers}
     where (select n from counted) <= ${sql.raw(String(BROAD_SEARCH))} order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')})`
    : sql`select ${drivers.id} as id, (select count(*) from ${drivers} where ${where}) as total from ${drivers} where ${where}
     order by ${orderSql} limit ${ph('limit')} offset ${ph('offset')}`;
  const d = drivers;
  return sql`${withMatches}select ${d}.id, ${d}.organization_id as "organizationId", ${d}.first_name as "firstName", ${d}.last_name as "lastName", ${d}.email, ${d}.phone,
  ${d}.employee_id as "employeeId", ${d}.license_number as "licenseNumber", ${d}.license_state as "licenseState", ${d}.license_class as "licenseClass",
  to_char(${d}.license_expiry, 'YYYY-MM-DD') as "licenseExpiry", ${d}.home_time_zone as "homeTimeZone", ${d}.ruleset,
  ${d}.short_haul_150 as "shortHaul150", ${d}.sixteen_hour as "sixteenHour", ${d}.personal_conveyance_allowed as "personalConveyanceAllowed",
  ${d}.yard_moves_allowed as "yardMovesAllowed", ${d}.eld_exempt as "eldExempt", ${d}.eld_exempt_reason as "eldExemptReason", ${d}.status, ${d}.notes,
  ${sql.raw(isoText('"drivers".created_at'))} as "createdAt", ${sql.raw(isoText('"drivers".updated_at'))} as "updatedAt",
  v.id as "vehicleId", v.unit_number as "vehicleUnit", v.type as "vehicleType", u.id as "userId", u.email as "userEmail",
  coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
     from group_members gm join groups g on g.id = gm.group_id
     where gm.member_type = 'DRIVER' and gm.member_id = ${d}.id), '[]'::json) as groups,
  p.total::int as total
from (
  ${page}
) p
join ${d} on ${d}.id = p.id
left join assets v on v.current_driver_id = ${d}.id
left join users u on u.id = ${d}.user_id
order by ${orderSql}`;
}

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
  const rows = await pageQueries.get(shape, () => pageSql(f, q.order)).run(db, { ...values, limit: q.size, offset: q.page * q.size });
  let total = rows[0]?.total ?? 0;
  // Past the last page there is no row to carry the count.
  if (rows.length === 0 && q.page > 0) {
    const [c] = await countQueries.get(shape, () => sql`select count(*)::int as n from ${drivers} where ${conditions(f)}`).run(db, values);
    total = c?.n ?? 0;
  }
  return toPage(rows.map(present), total, q);
}
