import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SearchFilters, SearchResult, SearchTag, SearchTags } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

export interface SearchParams {
  q: string;
  tags?: SearchTag[];
  status?: 'ACTIVE' | 'INACTIVE';
  group?: string;
  limit?: number;
}

export const searchKeys = {
  all: (orgId: string | null) => ['search', orgId] as const,
  results: (orgId: string, p: SearchParams) => ['search', orgId, p] as const,
  tags: (orgId: string | null) => ['search', orgId, 'tags'] as const,
  filters: (orgId: string | null) => ['search', orgId, 'filters'] as const,
};

export const searchQuery = (orgId: string, p: SearchParams) =>
  queryOptions({
    queryKey: searchKeys.results(orgId, p),
    queryFn: ({ signal }) =>
      api<SearchResult>(orgPathFor(orgId, '/search'), {
        query: { q: p.q, tags: p.tags, status: p.status, group: p.group, limit: p.limit },
        signal,
        toast: false,
      }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** Results for a (debounced) text; nothing is asked for an empty box. */
export function useSearch(p: SearchParams) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...searchQuery(orgId ?? '', p), enabled: !!orgId && p.q.trim().length > 0 });
}

export function useSearchTags() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: searchKeys.tags(orgId),
    queryFn: ({ signal }) => api<SearchTags>(orgPathFor(orgId ?? '', '/search/tags'), { signal }),
    enabled: !!orgId,
    staleTime: 5 * 60_000,
  });
}

export function useSearchFilters() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: searchKeys.filters(orgId),
    queryFn: ({ signal }) => api<SearchFilters>(orgPathFor(orgId ?? '', '/search/filters'), { signal }),
    enabled: !!orgId,
    staleTime: 5 * 60_000,
  });
}
