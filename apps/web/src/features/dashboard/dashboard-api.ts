import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

/** How often the dashboard asks again (it is also refreshed on focus). */
export const DASHBOARD_REFRESH_MS = 60_000;

export interface DashboardFilters {
  days: 7 | 14 | 30;
  groupId?: string;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The dashboard in the reader's zone ("today" as the violations list counts it). */
export const dashboardQuery = (orgId: string, f: DashboardFilters) =>
  queryOptions({
    queryKey: ['dashboard', orgId, f] as const,
    queryFn: ({ signal }) => api<Dashboard>(orgPathFor(orgId, '/dashboard/charts'), { query: { days: f.days, groupId: f.groupId, tz: browserZone() }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

export function useDashboard(f: DashboardFilters) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...dashboardQuery(orgId ?? '', f), enabled: !!orgId });
}
