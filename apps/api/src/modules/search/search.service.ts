import { and, eq, sql } from 'drizzle-orm';
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
import type { DbOrTx } from '../../db/client.ts';
import { groups } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/paging.ts';
import { listAssets } from '../assets/assets.service.ts';
import { listDrivers } from '../drivers/drivers.service.ts';
import { assetInGroup } from '../groups/groups.filter.ts';
import { rowsOf } from '../positions/sql-rows.ts';

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

export interface SearchScope {
  db: DbOrTx;
  orgId: string;
  permissions: ReadonlySet<string>;
}

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
export async function search(s: SearchScope, q: z.output<typeof searchQuery>): Promise<SearchResult> {
  const tags = (q.tags?.length ? q.tags : SEARCH_TAGS).filter((t) => s.permissions.has(TAG_PERMISSION[t]));
  const want = new Set(tags);
  const { date, rest } = splitDate(q.q);
  const text = rest || q.q;
  const filters = { status: q.status, group: q.group };
  const one = (p: Promise<Group>) => p.then((g) => [g]);
  const tasks: Array<Promise<Group[]>> = [];
  if (want.has('vehicle')) tasks.push(one(assetsOf(s, 'vehicle', text, q.limit, filters)));
  if (want.has('trailer')) tasks.push(one(assetsOf(s, 'trailer', text, q.limit, filters)));
  if (want.has('driver') || want.has('logDay')) tasks.push(driversAndLogs(s, text, date, q.limit, filters, want));
  if (want.has('device')) tasks.push(one(devicesOf(s, text, q.limit, filters)));
  if (want.has('user')) tasks.push(one(usersOf(s, text, q.limit, filters)));
  if (want.has('group')) tasks.push(one(groupsOf(s, text, q.limit)));
  const flat = (await Promise.all(tasks)).flat();
  const order = new Map(SEARCH_TAGS.map((t, i) => [t, i]));
  return { q: q.q, groups: flat.filter((g) => g.hits.length > 0).sort((a, b) => order.get(a.tag)! - order.get(b.tag)!) };
}

interface Filters {
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
}

async function assetsOf(s: SearchScope, tag: 'vehicle' | 'trailer', text: string, limit: number, f: Filters): Promise<Group> {
  const page = await listAssets({ db: s.db, orgId: s.orgId }, { type: tag === 'vehicle' ? 'VEHICLE' : 'TRAILER', search: text, page: 0, size: limit, ...f });
  return {
    tag,
    label: SEARCH_TAG_LABELS[tag],
    total: page.totalElements,
    hits: page.content.map(
      (a): SearchHit => ({
        tag,
        id: a.id,
        title: `${tag === 'vehicle' ? 'Vehicle' : 'Trailer'} ${a.unitNumber}`,
        subtitle: [a.vin ? `VIN ${a.vin}` : null, a.plate ? `Plate ${a.plate}` : null, [a.make, a.model].filter(Boolean).join(' ') || null].filter(Boolean).join(' · ') || null,
        status: a.status,
        link: `${ORG}/${tag === 'vehicle' ? 'vehicles' : 'trailers'}?open=${a.id}`,
      }),
    ),
  };
}

async function driversAndLogs(s: SearchScope, text: string, date: string | null, limit: number, f: Filters, want: Set<SearchTag>): Promise<Group[]> {
  const page = await listDrivers({ db: s.db, orgId: s.orgId }, { search: text, page: 0, size: limit, ...f });
  const out: Group[] = [];
  if (want.has('driver')) {
    out.push({
      tag: 'driver',
      label: SEARCH_TAG_LABELS.driver,
      total: page.totalElements,
      hits: page.content.map((d) => ({
        tag: 'driver',
        id: d.id,
        title: `${d.firstName} ${d.lastName}`,
        subtitle: [d.licenseNumber ? `Licence ${d.licenseNumber}${d.licenseState ? ` (${d.licenseState})` : ''}` : null, d.employeeId ? `Employee ${d.employeeId}` : null].filter(Boolean).join(' · ') || null,
        status: d.status,
        link: `${ORG}/all-drivers?open=${d.id}`,
      })),
    });
  }
  if (want.has('logDay') && page.content.length > 0) {
    const ids = `{${page.content.map((d) => d.id).join(',')}}`;
    // The log day of the date asked for, else each driver's latest.
    const rows = rowsOf<{ id: string; driver_id: string; log_date: string | Date; certified: boolean }>(
      date
        ? await s.db.execute(sql`select id, driver_id, log_date, certified_at is not null as certified from hos_logs
            where organization_id = ${s.orgId} and driver_id = any(${ids}::uuid[]) and log_date = ${date}`)
        : await s.db.execute(sql`select distinct on (driver_id) id, driver_id, log_date, certified_at is not null as certified from hos_logs
            where organization_id = ${s.orgId} and driver_id = any(${ids}::uuid[]) and log_date <= current_date
            order by driver_id, log_date desc`),
    );
    const byDriver = new Map(page.content.map((d) => [d.id, d]));
    const day = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
    out.push({
      tag: 'logDay',
      label: SEARCH_TAG_LABELS.logDay,
      total: rows.length,
      hits: rows.map((r) => {
        const d = byDriver.get(r.driver_id)!;
        return { tag: 'logDay', id: r.id, title: `Log of ${d.firstName} ${d.lastName}, ${day(r.log_date)}`, subtitle: r.certified ? 'Certified' : 'Not certified', status: null, link: `/hos/logs/${r.id}` };
      }),
    });
  }
  return out;
}

async function devicesOf(s: SearchScope, text: string, limit: number, f: Filters): Promise<Group> {
  const rows = rowsOf<{ id: string; name: string; unique_id: string; status: string; unit_number: string | null; total: number }>(
    await s.db.execute(sql`select g.id, g.name, g.unique_id, g.status, a.unit_number, count(*) over ()::int as total
      from gateways g left join assets a on a.id = g.asset_id
      where g.organization_id = ${s.orgId} and g.search_text like ${likePattern(text.toLowerCase())}
        ${f.status ? sql`and g.status = ${f.status}` : sql``}
        ${f.group ? sql`and ${assetInGroup(s.orgId, f.group, sql`g.asset_id`)}` : sql``}
      order by lower(g.name), g.id limit ${limit}`),
  );
  return {
    tag: 'device',
    label: SEARCH_TAG_LABELS.device,
    total: Number(rows[0]?.total ?? 0),
    hits: rows.map((r) => ({
      tag: 'device',
      id: r.id,
      title: `Device ${r.name}`,
      subtitle: [`Id ${r.unique_id}`, r.unit_number ? `in vehicle ${r.unit_number}` : 'not paired'].join(' · '),
      status: r.status,
      link: `${ORG}/devices/${r.id}`,
    })),
  };
}

async function usersOf(s: SearchScope, text: string, limit: number, f: Filters): Promise<Group> {
  const like = likePattern(text.toLowerCase());
  const rows = rowsOf<{ id: string; first_name: string | null; last_name: string | null; email: string; position: string | null; status: string; total: number }>(
    await s.db.execute(sql`select u.id, u.first_name, u.last_name, u.email, u.position, u.status, count(*) over ()::int as total
      from users u
      where u.organization_id = ${s.orgId}
        and lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '') || ' ' || u.email || ' ' || coalesce(u.position, '')) like ${like}
        ${f.status === 'ACTIVE' ? sql`and u.status = 'ACTIVE'` : f.status === 'INACTIVE' ? sql`and u.status <> 'ACTIVE'` : sql``}
        ${f.group ? sql`and exists (select 1 from group_members gm where gm.member_type = 'USER' and gm.member_id = u.id and gm.group_id = ${f.group} and gm.organization_id = ${s.orgId})` : sql``}
      order by lower(coalesce(u.last_name, u.email)), u.id limit ${limit}`),
  );
  return {
    tag: 'user',
    label: SEARCH_TAG_LABELS.user,
    total: Number(rows[0]?.total ?? 0),
    hits: rows.map((r) => ({
      tag: 'user',
      id: r.id,
      title: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email,
      subtitle: [r.email, r.position].filter(Boolean).join(' · '),
      status: r.status,
      link: `${ORG}/user-and-roles?u.search=${encodeURIComponent(r.email)}`,
    })),
  };
}

async function groupsOf(s: SearchScope, text: string, limit: number): Promise<Group> {
  const rows = rowsOf<{ id: string; name: string; description: string | null; total: number }>(
    await s.db.execute(sql`select id, name, description, count(*) over ()::int as total from groups
      where organization_id = ${s.orgId} and lower(name || ' ' || coalesce(description, '')) like ${likePattern(text.toLowerCase())}
      order by lower(name), id limit ${limit}`),
  );
  return {
    tag: 'group',
    label: SEARCH_TAG_LABELS.group,
    total: Number(rows[0]?.total ?? 0),
    hits: rows.map((r) => ({ tag: 'group', id: r.id, title: `Group ${r.name}`, subtitle: r.description, status: null, link: `${ORG}/groups/${r.id}/members` })),
  };
}

/** The tags, with whether the caller may search each. */
export function searchTags(permissions: ReadonlySet<string>): SearchTags {
  return { tags: SEARCH_TAGS.map((tag) => ({ tag, label: SEARCH_TAG_LABELS[tag], allowed: permissions.has(TAG_PERMISSION[tag]) })) };
}

/** The filters: record status, and the organization's groups. */
export async function searchFilters(db: DbOrTx, orgId: string): Promise<SearchFilters> {
  const g = await db.select({ id: groups.id, name: groups.name }).from(groups).where(and(eq(groups.organizationId, orgId))).orderBy(groups.name);
  return { statuses: RECORD_STATUSES.map((value) => ({ value, label: value === 'ACTIVE' ? 'Active' : 'Inactive' })), groups: g };
}
