import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Load, Page } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The loads' query keys and list: what the driver's home needs of the dispatch calls, apart from
// dispatch-api.ts's mutations, documents, imports and option lists, so that the driver's first load
// does not carry them (issue 67's 250 KB). dispatch-api.ts re-exports these.

export const loadKeys = {
  all: (orgId: string | null) => ['loads', orgId] as const,
  list: (orgId: string | null, q: Record<string, QueryValue>) => ['loads', orgId, 'list', q] as const,
  one: (orgId: string | null, id: string) => ['loads', orgId, 'one', id] as const,
  plan: (orgId: string | null, id: string, driverId: string | null) => ['loads', orgId, 'plan', id, driverId] as const,
  candidates: (orgId: string | null, id: string, q: Record<string, QueryValue>) => ['loads', orgId, 'candidates', id, q] as const,
  shareLinks: (orgId: string | null, id: string) => ['loads', orgId, 'share-links', id] as const,
  contacts: (orgId: string | null, id: string) => ['loads', orgId, 'contacts', id] as const,
};

export const loadPath = (orgId: string, id: string, rest = '') => orgPathFor(orgId, `/loads/${encodeURIComponent(id)}${rest}`);

export interface LoadListFilters extends Record<string, QueryValue> {
  page?: number;
  size?: number;
  sort?: string;
  search?: string;
  /** One status or several, comma-separated. */
  status?: string;
  driverId?: string;
  customer?: string;
  from?: string;
  to?: string;
}

export const loadsQuery = (orgId: string, q: LoadListFilters) =>
  queryOptions({
    queryKey: loadKeys.list(orgId, q),
    queryFn: ({ signal }) => api<Page<Load>>(orgPathFor(orgId, '/loads'), { query: q, signal, toast: false }),
    placeholderData: keepPreviousData,
  });

/** A page of loads under the filters (the board asks for one status at a time). */
export function useLoads(q: LoadListFilters, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...loadsQuery(orgId ?? '', q), enabled: enabled && !!orgId, refetchInterval: 60_000 });
}

export const stopStatusPath = (orgId: string, id: string, stopId: string) => loadPath(orgId, id, `/stops/${encodeURIComponent(stopId)}/status`);
