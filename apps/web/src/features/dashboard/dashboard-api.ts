import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { useViewerZone } from '../../lib/dates.ts';
import { registerHosLiveKeys } from '../../lib/hos-live.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

/** How often the dashboard asks again (it is also refreshed on focus). */
export const DASHBOARD_REFRESH_MS = 60_000;

export interface DashboardFilters {
  days: 7 | 14 | 30;
  groupId?: string;
}

/**
 * The dashboard in the viewer's zone: the server reads the user's profile zone, else the
 * organization's (decision 0140), never the browser's; the zone is in the key so a profile change refetches.
 */
export const dashboardKeys = {
  all: (orgId: string) => ['dashboard', orgId] as const,
  charts: (orgId: string, f: DashboardFilters, zone: string) => ['dashboard', orgId, f, zone] as const,
};

// Its driver counters move with any driver's duty status: refetched on the stream's `hos` event too.
registerHosLiveKeys((orgId) => [dashboardKeys.all(orgId)]);

export const dashboardQuery = (orgId: string, f: DashboardFilters, zone: string) =>
  queryOptions({
    queryKey: dashboardKeys.charts(orgId, f, zone),
    queryFn: ({ signal }) => api<Dashboard>(orgPathFor(orgId, '/dashboard/charts'), { query: { days: f.days, groupId: f.groupId }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

export function useDashboard(f: DashboardFilters) {
  const orgId = useEffectiveOrganizationId();
  const zone = useViewerZone();
  return useQuery({ ...dashboardQuery(orgId ?? '', f, zone), enabled: !!orgId });
}
