import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ActivityLogDetail, ActivityLogEntry, Page, PageQuery, User } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';

export interface ActivityFilters extends PageQuery {
  userId?: string;
  action?: string;
  entityType?: string;
  from?: string;
  to?: string;
}

/** The per-user view has its own path (spec section 7: activity-logs/users/{userId}). */
export const activityQuery = (orgId: string, { userId, ...q }: ActivityFilters) =>
  queryOptions({
    queryKey: ['activity-log', orgId, 'list', userId ?? null, q] as const,
    queryFn: ({ signal }) =>
      api<Page<ActivityLogEntry>>(orgPathFor(orgId, userId ? `/activity-logs/users/${userId}` : '/activity-logs'), { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

export const activityDetailQuery = (orgId: string, id: number) =>
  queryOptions({
    queryKey: ['activity-log', orgId, 'detail', id] as const,
    queryFn: ({ signal }) => api<ActivityLogDetail>(orgPathFor(orgId, `/activity-logs/${id}`), { signal }),
  });

export const activityFiltersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['activity-log', orgId, 'filters'] as const,
    queryFn: ({ signal }) => api<{ actions: string[]; entityTypes: string[] }>(orgPathFor(orgId, '/activity-logs/filters'), { signal }),
  });

/** The organization's users for the "User" filter (the route requires USER_LIST). */
export const activityUsersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['activity-log', orgId, 'users'] as const,
    queryFn: ({ signal }) => api<Page<User>>(orgPathFor(orgId, '/users'), { query: { page: 0, size: 500, sort: 'lastName,asc' }, signal }),
  });
