import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ActivityLogDetail, ActivityLogEntry, ActivityLogFilters, Page, PageQuery, User } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';

export interface ActivityFilters extends PageQuery {
  userId?: string;
  action?: string;
  entityType?: string;
  from?: string;
  to?: string;
}

// Keys name the answer's shape (entries with sentences, filter options with labels): a page cached in
// sessionStorage under an older key is never shown in the newer shape's place.

export const activityKeys = {
  all: (orgId: string) => ['activity-log', orgId] as const,
  entries: (orgId: string, userId: string | null, q: Omit<ActivityFilters, 'userId'>) => ['activity-log', orgId, 'entries', userId, q] as const,
  entry: (orgId: string, id: number) => ['activity-log', orgId, 'entry', id] as const,
  filterOptions: (orgId: string) => ['activity-log', orgId, 'filter-options'] as const,
  users: (orgId: string) => ['activity-log', orgId, 'users'] as const,
};

/** The per-user view has its own path (spec section 7: activity-logs/users/{userId}). */
export const activityQuery = (orgId: string, { userId, ...q }: ActivityFilters) =>
  queryOptions({
    queryKey: activityKeys.entries(orgId, userId ?? null, q),
    queryFn: ({ signal }) =>
      api<Page<ActivityLogEntry>>(orgPathFor(orgId, userId ? `/activity-logs/users/${userId}` : '/activity-logs'), { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

export const activityDetailQuery = (orgId: string, id: number) =>
  queryOptions({
    queryKey: activityKeys.entry(orgId, id),
    queryFn: ({ signal }) => api<ActivityLogDetail>(orgPathFor(orgId, `/activity-logs/${id}`), { signal }),
  });

/** The actions and entity types present in the log, with their labels, for the filter drop-downs. */
export const activityFiltersQuery = (orgId: string) =>
  queryOptions({
    queryKey: activityKeys.filterOptions(orgId),
    queryFn: ({ signal }) => api<ActivityLogFilters>(orgPathFor(orgId, '/activity-logs/filters'), { signal }),
  });

/** The organization's users for the "User" filter (the route requires USER_LIST). */
export const activityUsersQuery = (orgId: string) =>
  queryOptions({
    queryKey: activityKeys.users(orgId),
    queryFn: ({ signal }) => api<Page<User>>(orgPathFor(orgId, '/users'), { query: { page: 0, size: 500, sort: 'lastName,asc' }, signal }),
  });
