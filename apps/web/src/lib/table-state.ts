import { useCallback, useMemo } from 'react';
import type { PageQuery } from '@fleet/api-contract';
import { DEFAULT_PAGE_SIZE } from '@fleet/api-contract/paging';
import { useSearchParams } from './search-params.ts';

/** Paging, sorting and search of a server-paged list, kept in the URL so reload and Back keep them. */
export interface TableState {
  page: number;
  size: number;
  /** `field,asc` or `field,desc` */
  sort?: string;
  search?: string;
}

/** The query parameter of a table's `name` (`drv.page` under the prefix `drv`). */
const paramName = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

const int = (v: string | null, fallback: number) => {
  const n = v === null ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
};

/**
 * `prefix` separates two tables on one screen (`?drv.page=2`). The returned query object is what the
 * API's `?page=&size=&sort=&search=` expects; put it in the query key.
 */
export function useTableState(defaults: Partial<TableState> = {}, prefix = ''): [TableState, (patch: Partial<TableState>) => void, PageQuery] {
  const [params, setParams] = useSearchParams();
  const state: TableState = useMemo(
    () => ({
      page: int(params.get(paramName(prefix, 'page')), 0),
      size: Math.max(1, int(params.get(paramName(prefix, 'size')), defaults.size ?? DEFAULT_PAGE_SIZE)),
      sort: params.get(paramName(prefix, 'sort')) ?? defaults.sort,
      search: params.get(paramName(prefix, 'search')) ?? undefined,
    }),
    [params, prefix, defaults.size, defaults.sort],
  );
  const update = useCallback(
    (patch: Partial<TableState>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          // Changing what is shown starts again at the first page.
          const resetPage = 'search' in patch || 'size' in patch || 'sort' in patch;
          const merged = { ...state, ...patch, page: patch.page ?? (resetPage ? 0 : state.page) };
          const entries: [string, string | undefined][] = [
            ['page', merged.page ? String(merged.page) : undefined],
            ['size', merged.size !== (defaults.size ?? DEFAULT_PAGE_SIZE) ? String(merged.size) : undefined],
            ['sort', merged.sort && merged.sort !== defaults.sort ? merged.sort : undefined],
            ['search', merged.search?.trim() ? merged.search : undefined],
          ];
          for (const [name, value] of entries) {
            if (value === undefined) next.delete(paramName(prefix, name));
            else next.set(paramName(prefix, name), value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams, state, prefix, defaults.size, defaults.sort],
  );
  const query: PageQuery = { page: state.page, size: state.size, sort: state.sort, search: state.search?.trim() || undefined };
  return [state, update, query];
}
