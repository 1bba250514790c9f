import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FleetOverview } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

/** Refreshed every minute while open. */
const REFRESH_MS = 60_000;

export const fleetKeys = {
  overview: (orgId: string) => ['fleet', orgId, 'overview'] as const,
};

export const fleetOverviewQuery = (orgId: string) =>
  queryOptions({
    queryKey: fleetKeys.overview(orgId),
    queryFn: ({ signal }) => api<FleetOverview>(orgPathFor(orgId, '/fleet/overview'), { signal }),
    staleTime: 0,
    refetchInterval: REFRESH_MS,
  });

export function useFleetOverview() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...fleetOverviewQuery(orgId ?? ''), enabled: !!orgId });
}
