import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { parseSort, type Page } from '@fleet/api-contract';
import { badRequest } from './errors.ts';

export function toPage<T>(content: T[], total: number, page: number, size: number): Page<T> {
  return { content, page, size, totalElements: total, totalPages: Math.ceil(total / size) };
}

/**
 * ORDER BY for `sort=field,dir` from the fields a list allows; an unknown field is a 400 naming
 * it. `tieBreak` keeps paging stable when the sort key repeats.
 */
export function orderBy(
  sort: string | undefined,
  allowed: Record<string, AnyPgColumn | SQL>,
  fallback: string,
  tieBreak: AnyPgColumn,
): SQL[] {
  const parsed = parseSort(sort) ?? { field: fallback, dir: 'asc' as const };
  const key = allowed[parsed.field];
  if (!key) throw badRequest(`sort: must be one of ${Object.keys(allowed).join(', ')}`, `Unknown sort field ${parsed.field}`);
  const dir = parsed.dir === 'desc' ? desc : asc;
  // NULLS LAST either way: empty values never crowd the first page.
  return [sql`${dir(key)} nulls last`, asc(tieBreak)];
}

/** `%term%` for LIKE over a lower-cased search document, with LIKE's wildcards escaped. */
export function likeTerm(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
