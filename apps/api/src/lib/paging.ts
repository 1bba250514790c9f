import { parseSort, type Page, type PageQuery } from '@fleet/api-contract';
import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors.ts';

/** The shared page object from one page of rows and the total count. */
export function toPage<T>(content: T[], totalElements: number, q: Pick<PageQuery, 'page' | 'size'>): Page<T> {
  return { content, page: q.page, size: q.size, totalElements, totalPages: Math.ceil(totalElements / q.size) };
}

/**
 * ORDER BY from `?sort=field,dir` restricted to the listed columns (a 400 names the allowed
 * ones), falling back to `fallback`; `tiebreak` keeps paging stable when values repeat.
 */
export function orderBy(sort: string | undefined, columns: Record<string, AnyPgColumn>, fallback: SQL, tiebreak: SQL): SQL[] {
  const s = parseSort(sort);
  if (!s) return [fallback, tiebreak];
  const col = columns[s.field];
  if (!col) throw badRequest(`sort: must be one of ${Object.keys(columns).join(', ')}`, `Unknown sort field ${s.field}`);
  return [s.dir === 'desc' ? desc(col) : asc(col), tiebreak];
}

/** LIKE pattern for a user's search text, with its wildcards escaped. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
