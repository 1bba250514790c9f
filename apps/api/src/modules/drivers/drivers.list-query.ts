import { sql, type SQL } from 'drizzle-orm';
import type { Driver, Page } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, driverSearchDoc } from '../../db/schema/index.ts';
import { listVersionSql, type IndexedList } from '../../list-index/list-index.ts';
import { ListPageQueries, pageIdsSql as listPageIdsSql, type ListTable } from '../../list-index/list-page-sql.ts';
import { likeTerm } from '../../http/paging.ts';
import { isoText } from '../../db/sql/prepared-sql.ts';

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
  if (f.group)
    parts.push(
      sql`exists (select 1 from group_members gm where gm.member_type = 'DRIVER' and gm.member_id = ${drivers.id} and gm.group_id = ${ph('group')} and gm.organization_id = ${ph('org')})`,
    );
  if (f.search) parts.push(sql`${driverSearchDoc} like ${ph('search')}`);
  return sql.join(parts, sql` and `);
}

const driverList: ListTable = {
  table: drivers,
  id: drivers.id,
  sortable: [
    drivers.lastName,
    drivers.firstName,
    drivers.email,
    drivers.employeeId,
    drivers.licenseNumber,
    drivers.licenseState,
    drivers.licenseExpiry,
    drivers.status,
    drivers.createdAt,
  ],
};

/** The ids of one page in order, each with the total count (exported for bench/registry-explain.ts). */
export const pageIdsSql = (f: DriverListFilter, order: SQL[]): SQL => listPageIdsSql(driverList, conditions(f), Boolean(f.search), order);

// A list row's columns and links, shared by the page statement and the whole-list statement.
const rowColumns = (groups: SQL) => sql`d.id, d.organization_id as "organizationId", d.first_name as "firstName", d.last_name as "lastName", d.email, d.phone,
  d.employee_id as "employeeId", d.license_number as "licenseNumber", d.license_state as "licenseState", d.license_class as "licenseClass",
  to_char(d.license_expiry, 'YYYY-MM-DD') as "licenseExpiry", d.home_time_zone as "homeTimeZone", d.home_terminal_id as "homeTerminalId", d.ruleset,
  d.short_haul_150 as "shortHaul150", d.sixteen_hour as "sixteenHour", d.oilfield, d.personal_conveyance_allowed as "personalConveyanceAllowed",
  d.yard_moves_allowed as "yardMovesAllowed", d.eld_exempt as "eldExempt", d.eld_exempt_reason as "eldExemptReason", d.status, d.notes, d.card_number as "cardNumber",
  ${sql.raw(isoText('d.created_at'))} as "createdAt", ${sql.raw(isoText('d.updated_at'))} as "updatedAt",
  v.id as "vehicleId", v.unit_number as "vehicleUnit", v.type as "vehicleType", u.id as "userId", u.email as "userEmail", ${groups} as groups`;
// Joins and sub-selects name the organization too (Citus co-locates by it; a sub-select in the
// select list names it as the parameter to stay on one shard, decision 0169).
const rowLinks = sql`left join assets v on v.current_driver_id = d.id and v.organization_id = d.organization_id
left join users u on u.id = d.user_id`;
const groupsJson = sql`json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)`;

/** The list rows of the given ids (a `{…}` uuid array literal), in the array's order, with their links. */
export const pageRowsSql = (): SQL => sql`select ${rowColumns(
  sql`coalesce((select ${groupsJson} from group_members gm join groups g on g.id = gm.group_id and g.organization_id = gm.organization_id
    where gm.member_type = 'DRIVER' and gm.member_id = d.id and gm.organization_id = ${ph('org')}), '[]'::json)`,
)}
from unnest(${ph('ids')}::uuid[]) with ordinality as p(id, rn)
join drivers d on d.id = p.id and d.organization_id = ${ph('org')}
${rowLinks}
order by p.rn`;

/** Every list row of the organization with the list's version (as pageRowsSql, groups aggregated once per list). */
const allRowsSql = sql`select ${listVersionSql('drivers')} as "listVersion", ${rowColumns(sql`coalesce(gms.groups, '[]'::json)`)}
from drivers d
${rowLinks}
left join (select gm.member_id, ${groupsJson} as groups from group_members gm join groups g on g.id = gm.group_id and g.organization_id = gm.organization_id
  where gm.member_type = 'DRIVER' and gm.organization_id = ${ph('org')} group by gm.member_id) gms on gms.member_id = d.id
where d.organization_id = ${ph('org')}`;

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
    homeTerminalId: r.homeTerminalId,
    ruleset: r.ruleset,
    shortHaul150: r.shortHaul150,
    sixteenHour: r.sixteenHour,
    oilfield: r.oilfield,
    personalConveyanceAllowed: r.personalConveyanceAllowed,
    yardMovesAllowed: r.yardMovesAllowed,
    eldExempt: r.eldExempt,
    eldExemptReason: r.eldExemptReason,
    status: r.status,
    notes: r.notes,
    cardNumber: r.cardNumber,
    vehicle: r.vehicleId ? { id: r.vehicleId, unitNumber: r.vehicleUnit ?? '', type: r.vehicleType ?? 'VEHICLE' } : null,
    user: r.userId ? { id: r.userId, email: r.userEmail ?? '' } : null,
    groups: r.groups,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The driver list in the in-memory index: status filter, group membership, search text. */
const indexedDrivers: IndexedList<Driver> = {
  name: 'drivers',
  filters: ['status'],
  allRowsSql,
  entriesSql: sql`select d.id, d.search_text as text, d.status as f0, gm.groups, ${listVersionSql('drivers')} as version
from drivers d
left join (select member_id, string_agg(group_id::text, ',') as groups from group_members
  where organization_id = ${ph('org')} and member_type = 'DRIVER' group by member_id) gm on gm.member_id = d.id
where d.organization_id = ${ph('org')}
order by d.id`,
  table: drivers,
  id: drivers.id,
  organizationId: drivers.organizationId,
  checkSql: sql`select ${listVersionSql('drivers')} as version, null::text as live`,
};

const queries = new ListPageQueries<DriverListRow, Driver>('drivers', driverList, pageRowsSql, present, indexedDrivers);

/** A page of the organization's drivers; `order` from lib/paging's orderBy (no parameters in it). */
export function selectDriverPage(
  db: DbOrTx,
  orgId: string,
  f: DriverListFilter,
  q: { page: number; size: number; sortKey: string; order: SQL[] },
): Promise<Page<Driver>> {
  const shape = `${f.status ? 's' : ''}${f.group ? 'g' : ''}${f.search ? 'q' : ''}|${q.sortKey}`;
  const values = { org: orgId, status: f.status, group: f.group, search: f.search ? likeTerm(f.search) : undefined };
  return queries.page(db, shape, () => conditions(f), values, q, { search: f.search || undefined, group: f.group, filters: { status: f.status } });
}
