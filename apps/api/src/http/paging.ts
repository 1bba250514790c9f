import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { parseSort, type Page, type PageQuery } from '@fleet/api-contract';
import { invalidField } from './errors.ts';

/** The shared page object from one page of rows and the total count. */
export function toPage<T>(content: T[], totalElements: number, q: Pick<PageQuery, 'page' | 'size'>): Page<T> {
  return { content, page: q.page, size: q.size, totalElements, totalPages: Math.ceil(totalElements / q.size) };
}

/**
 * ORDER BY from `?sort=field,dir` restricted to the listed columns or expressions (an unknown field
 * is a 400 naming the allowed ones). Without a sort, `fallback` orders: a key of `allowed` (ascending)
 * or an ordering expression. `tieBreak` keeps paging stable when values repeat. NULLS LAST either way,
 * so empty values never crowd the first page.
 */
export function orderBy(sort: string | undefined, allowed: Record<string, AnyPgColumn | SQL>, fallback: string | SQL, tieBreak: SQL): SQL[] {
  const parsed = parseSort(sort) ?? (typeof fallback === 'string' ? { field: fallback, dir: 'asc' as const } : null);
  if (!parsed) return [fallback as SQL, tieBreak];
  const key = allowed[parsed.field];
  if (!key) throw invalidField('sort', `sort must be one of ${Object.keys(allowed).join(', ')}`);
  const dir = parsed.dir === 'desc' ? desc : asc;
  return [sql`${dir(key)} nulls last`, tieBreak];
}

/** A normalised `field,dir` of a list's sort (the fallback field ascending when unset): a cache key. */
export function sortKey(sort: string | undefined, fallback: string): string {
  const parsed = parseSort(sort);
  return parsed ? `${parsed.field},${parsed.dir}` : `${fallback},asc`;
}

/** LIKE pattern for a user's search text, with LIKE's wildcards escaped. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `%term%` for LIKE over a lower-cased search document. */
export const likeTerm = (search: string) => likePattern(search.toLowerCase());

/**
 * Above this many matches a searched list page walks its sort index (testing each row's stored
 * search text, stopping at the page) instead of sorting every match: sorting 10,000 matches by
 * lower-cased names costs tens of ms, a walk reads about (offset + size) x rows / matches entries.
 * Below it the matches are few enough to sort (docs/decisions/0047).
 */
export const BROAD_SEARCH_MATCHES = 1000;
