import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  RECORD_STATUSES,
  SEARCH_TAG_LABELS,
  SEARCH_TAGS,
  type Permission,
  type SearchFilters,
  type SearchHit,
  type SearchResult,
  type SearchTag,
  type SearchTags,
  type searchQuery,
} from '@fleet/api-contract';
import type { z } from 'zod';
import { groups } from '../../db/schema/index.ts';
import { likePattern } from '../../http/paging.ts';
import { PreparedCache } from '../../db/sql/prepared-sql.ts';
import { listAssets } from '../assets/index.ts';
import { listDrivers } from '../drivers/index.ts';
import { matchOf } from './search-match.ts';
import type { AuthContext, ReadScope } from '../auth/index.ts';

const ORG = '/settings/organization-settings';

/** The permission a tag's records need (the list that shows them). */
export const TAG_PERMISSION: Record<SearchTag, Permission> = {
  vehicle: 'ASSET_LIST',
  trailer: 'ASSET_LIST',
  driver: 'DRIVER_LIST',
  device: 'GAT_LIST',
  user: 'USER_LIST',
  group: 'GROUP_LIST',
  logDay: 'HOS_READ',
};

type Group = SearchResult['groups'][number];

/**
 * A date in the search text ("2026-06-01", "6/1/26", "6/1"): the log day to look for. The rest of
 * the text finds the drivers.
 */
export function splitDate(q: string, today = new Date()): { date: string | null; rest: string } {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(q);
  const us = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/.exec(q);
  const m = iso ?? us;
  if (!m) return { date: null, rest: q.trim() };
  let date: string;
  if (iso) date = `${iso[1]}-${iso[2]}-${iso[3]}`;
  else {
    const y = us![3] ? (us![3].length === 2 ? 2000 + Number(us![3]) : Number(us![3])) : today.getFullYear();
    date = `${y}-${us![1]!.padStart(2, '0')}-${us![2]!.padStart(2, '0')}`;
  }
  if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) return { date: null, rest: q.trim() };
  return { date, rest: (q.slice(0, m.index) + q.slice(m.index + m[0].length)).replace(/\s+/g, ' ').trim() };
}

/**
 * One box over the organization: each record type the caller may list (and the tags asked for),
 * each with its first `limit` matches and their total, the registry lists through their in-memory
 * index (decision 0083), devices, users and groups with one statement each.
 */
export async function search(s: ReadScope, caller: AuthContext, q: z.output<typeof searchQuery>): Promise<SearchResult> {
  const tags = (q.tags?.length ? q.tags : SEARCH_TAGS).filter((t) => caller.permissions.has(TAG_PERMISSION[t]));
  const want = new Set(tags);
  const { date, rest } = splitDate(q.q);
  const text = rest || q.q;
  const filters = { status: q.status, group: q.group };
  // The registry lists from memory (decision 0083), then everything else in one statement: on the
  // embedded database every statement waits its turn, so fewer statements is most of the speed.
  const [vehicles, trailers, drivers] = await Promise.all([
    want.has('vehicle') ? assetsOf(s, 'vehicle', text, q.limit, filters) : null,
    want.has('trailer') ? assetsOf(s, 'trailer', text, q.limit, filters) : null,
    want.has('driver') || want.has('logDay') ? listDrivers({ db: s.db, orgId: s.orgId }, { search: text, page: 0, size: q.limit, ...filters }) : null,
  ]);
  const others = await smallListsOf(s, text, date, q.limit, filters, want, drivers?.content ?? []);
  const found: Group[] = [vehicles, trailers].filter((g): g is Group => g !== null);
  if (drivers && want.has('driver')) found.push(driverGroup(drivers, text));
  found.push(...others);
  const order = new Map(SEARCH_TAGS.map((t, i) => [t, i]));
  return { q: q.q, groups: found.filter((g) => g.hits.length > 0).sort((a, b) => order.get(a.tag)! - order.get(b.tag)!) };
}

interface Filters {
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
}

async function assetsOf(s: ReadScope, tag: 'vehicle' | 'trailer', text: string, limit: number, f: Filters): Promise<Group> {
  const page = await listAssets({ db: s.db, orgId: s.orgId }, { type: tag === 'vehicle' ? 'VEHICLE' : 'TRAILER', search: text, page: 0, size: limit, ...f });
  return {
    tag,
    label: SEARCH_TAG_LABELS[tag],
    total: page.totalElements,
    hits: page.content.map((a): SearchHit => ({
      tag,
      id: a.id,
      title: `${tag === 'vehicle' ? 'Vehicle' : 'Trailer'} ${a.unitNumber}`,
      subtitle:
        [a.vin ? `VIN ${a.vin}` : null, a.plate ? `Plate ${a.plate}` : null, [a.make, a.model].filter(Boolean).join(' ') || null].filter(Boolean).join(' · ') ||
        null,
      status: a.status,
      link: `${ORG}/${tag === 'vehicle' ? 'vehicles' : 'trailers'}?open=${a.id}`,
      // The order of the assets' search_text (migration 0010).
      match: matchOf(text, [
        ['unit number', a.unitNumber],
        ['VIN', a.vin],
        ['plate', a.plate],
        ['make', a.make],
        ['model', a.model],
      ]),
    })),
  };
}

type DriverPage = Awaited<ReturnType<typeof listDrivers>>;

function driverGroup(page: DriverPage, text: string): Group {
  return {
    tag: 'driver',
    label: SEARCH_TAG_LABELS.driver,
    total: page.totalElements,
    hits: page.content.map((d) => ({
      tag: 'driver',
      id: d.id,
      title: `${d.firstName} ${d.lastName}`,
      subtitle:
        [d.licenseNumber ? `Licence ${d.licenseNumber}${d.licenseState ? ` (${d.licenseState})` : ''}` : null, d.employeeId ? `Employee ${d.employeeId}` : null]
          .filter(Boolean)
          .join(' · ') || null,
      status: d.status,
      link: `${ORG}/all-drivers?open=${d.id}`,
      match: driverMatch(d, text),
    })),
  };
}

/** The order of the drivers' search_text (migration 0010). */
function driverMatch(d: DriverPage['content'][number], text: string): SearchHit['match'] {
  return matchOf(text, [
    ['first name', d.firstName],
    ['last name', d.lastName],
    ['email', d.email],
    ['employee id', d.employeeId],
    ['licence number', d.licenseNumber],
    ['phone', d.phone],
  ]);
}

const ph = (name: string) => sql.placeholder(name);

/** The union's statement for one shape (which tags, filters and log-day form), rendered and prepared once. */
function smallListsSql(shape: {
  device: boolean;
  user: boolean;
  group: boolean;
  logDay: 'date' | 'latest' | null;
  status: string | null;
  inGroup: boolean;
}): SQL {
  const parts: SQL[] = [];
  if (shape.device) {
    parts.push(sql`(select 'device' as tag, g.id, g.name as a, g.unique_id as b, a.unit_number as c, null as d, g.phone as e, g.firmware as f, g.status, count(*) over ()::int as total
      from gateways g left join assets a on a.id = g.asset_id and a.organization_id = g.organization_id
      where g.organization_id = ${ph('org')} and g.search_text like ${ph('like')}
        ${shape.status ? sql`and g.status = ${ph('status')}` : sql``}
        ${shape.inGroup ? sql`and exists (select 1 from group_assets ga where ga.asset_id = g.asset_id and ga.group_id = ${ph('group')} and ga.organization_id = ${ph('org')})` : sql``}
      order by lower(g.name), g.id limit ${ph('limit')})`);
  }
  if (shape.user) {
    parts.push(sql`(select 'user' as tag, u.id, u.first_name as a, u.last_name as b, u.email as c, u.position as d, null as e, null as f, u.status, count(*) over ()::int as total
      from users u
      where u.organization_id = ${ph('org')}
        and lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '') || ' ' || u.email || ' ' || coalesce(u.position, '')) like ${ph('like')}
        ${shape.status === 'ACTIVE' ? sql`and u.status = 'ACTIVE'` : shape.status === 'INACTIVE' ? sql`and u.status <> 'ACTIVE'` : sql``}
        ${shape.inGroup ? sql`and exists (select 1 from group_members gm where gm.member_type = 'USER' and gm.member_id = u.id and gm.group_id = ${ph('group')} and gm.organization_id = ${ph('org')})` : sql``}
      order by lower(coalesce(u.last_name, u.email)), u.id limit ${ph('limit')})`);
  }
  if (shape.group) {
    parts.push(sql`(select 'group' as tag, id, name as a, description as b, null as c, null as d, null as e, null as f, null as status, count(*) over ()::int as total from groups
      where organization_id = ${ph('org')} and lower(name || ' ' || coalesce(description, '')) like ${ph('like')}
      order by lower(name), id limit ${ph('limit')})`);
  }
  if (shape.logDay === 'date') {
    parts.push(sql`(select 'logDay' as tag, id, driver_id::text as a, log_date::text as b, (certified_at is not null)::text as c, null as d, null as e, null as f, null as status, count(*) over ()::int as total
      from hos_logs where organization_id = ${ph('org')} and driver_id = any(${ph('ids')}::uuid[]) and log_date = ${ph('date')}::date limit ${ph('limit')})`);
  } else if (shape.logDay === 'latest') {
    parts.push(sql`(select 'logDay' as tag, id, driver_id::text as a, log_date::text as b, (certified_at is not null)::text as c, null as d, null as e, null as f, null as status, count(*) over ()::int as total
      from (select distinct on (driver_id) id, driver_id, log_date, certified_at from hos_logs
        where organization_id = ${ph('org')} and driver_id = any(${ph('ids')}::uuid[]) and log_date <= current_date order by driver_id, log_date desc) l limit ${ph('limit')})`);
  }
  return sql.join(parts, sql` union all `);
}

type SmallRow = {
  tag: 'device' | 'user' | 'group' | 'logDay';
  id: string;
  a: string | null;
  b: string | null;
  c: string | null;
  d: string | null;
  e: string | null;
  f: string | null;
  status: string | null;
  total: number;
};

const smallStatements = new PreparedCache<SmallRow>('search_small');

/**
 * Devices, users, groups and the found drivers' log days (the date asked for, else each one's
 * latest), each its first `limit` matches with their total, in one statement.
 */
async function smallListsOf(
  s: ReadScope,
  text: string,
  date: string | null,
  limit: number,
  f: Filters,
  want: Set<SearchTag>,
  drivers: DriverPage['content'],
): Promise<Group[]> {
  const logDays = want.has('logDay') && drivers.length > 0;
  const shape = {
    device: want.has('device'),
    user: want.has('user'),
    group: want.has('group'),
    logDay: logDays ? (date ? ('date' as const) : ('latest' as const)) : null,
    status: f.status ?? null,
    inGroup: !!f.group,
  };
  if (!shape.device && !shape.user && !shape.group && !shape.logDay) return [];
  const statement = smallStatements.get(JSON.stringify(shape), () => smallListsSql(shape));
  const rows = await statement.run(s.db, {
    org: s.orgId,
    like: likePattern(text.toLowerCase()),
    limit,
    status: f.status ?? null,
    group: f.group ?? null,
    ids: `{${drivers.map((d) => d.id).join(',')}}`,
    date,
  });
  const byDriver = new Map(drivers.map((d) => [d.id, d]));
  const groupOf = (tag: SmallRow['tag'], hit: (r: SmallRow) => SearchHit): Group => {
    const mine = rows.filter((r) => r.tag === tag);
    return { tag, label: SEARCH_TAG_LABELS[tag], total: Number(mine[0]?.total ?? 0), hits: mine.map(hit) };
  };
  const out: Group[] = [];
  if (want.has('device'))
    out.push(
      groupOf('device', (r) => ({
        tag: 'device',
        id: r.id,
        title: `Device ${r.a}`,
        subtitle: [`Id ${r.b}`, r.c ? `in vehicle ${r.c}` : 'not paired'].join(' · '),
        status: r.status,
        link: `${ORG}/devices/${r.id}`,
        // The order of the gateways' search_text (migration 0010).
        match: matchOf(text, [
          ['device id', r.b],
          ['name', r.a],
          ['phone', r.e],
          ['firmware', r.f],
        ]),
      })),
    );
  if (want.has('user'))
    out.push(
      groupOf('user', (r) => ({
        tag: 'user',
        id: r.id,
        title: [r.a, r.b].filter(Boolean).join(' ') || (r.c ?? ''),
        subtitle: [r.c, r.d].filter(Boolean).join(' · '),
        status: r.status,
        link: `${ORG}/user-and-roles?u.search=${encodeURIComponent(r.c ?? '')}`,
        match: matchOf(text, [
          ['first name', r.a],
          ['last name', r.b],
          ['email', r.c],
          ['position', r.d],
        ]),
      })),
    );
  if (want.has('group'))
    out.push(
      groupOf('group', (r) => ({
        tag: 'group',
        id: r.id,
        title: `Group ${r.a}`,
        subtitle: r.b,
        status: null,
        link: `${ORG}/groups/${r.id}/members`,
        match: matchOf(text, [
          ['name', r.a],
          ['description', r.b],
        ]),
      })),
    );
  if (want.has('logDay'))
    out.push(
      groupOf('logDay', (r) => {
        const d = byDriver.get(r.a ?? '');
        const driver = d ? driverMatch(d, text) : null;
        // A date in the text picked the day; the rest picked the driver.
        const match = date
          ? { field: driver ? `log date and driver's ${driver.field}` : 'log date', value: driver ? `${r.b} ${driver.value}` : (r.b ?? '') }
          : driver;
        return {
          tag: 'logDay',
          id: r.id,
          title: `Log of ${d ? `${d.firstName} ${d.lastName}` : 'a driver'}, ${r.b}`,
          subtitle: r.c === 'true' ? 'Certified' : 'Not certified',
          status: null,
          link: `/hos/logs/${r.id}`,
          match,
        };
      }),
    );
  return out;
}

/** The tags, with whether the caller may search each. */
export function searchTags(permissions: ReadonlySet<string>): SearchTags {
  return { tags: SEARCH_TAGS.map((tag) => ({ tag, label: SEARCH_TAG_LABELS[tag], allowed: permissions.has(TAG_PERMISSION[tag]) })) };
}

/** The filters: record status, and the organization's groups (for a caller who may list them). */
export async function searchFilters({ db, orgId }: ReadScope, caller: AuthContext): Promise<SearchFilters> {
  const g = caller.permissions.has('GROUP_LIST')
    ? await db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .where(and(eq(groups.organizationId, orgId)))
        .orderBy(groups.name)
    : [];
  return { statuses: RECORD_STATUSES.map((value) => ({ value, label: value === 'ACTIVE' ? 'Active' : 'Inactive' })), groups: g };
}
