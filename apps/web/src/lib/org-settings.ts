import type { OrganizationSettingsValues } from '@fleet/api-contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from './org-path.ts';

/** Query key of an organization's settings; the settings form writes its saved values under it. */
export const orgSettingsKey = (orgId: string | null) => ['org', orgId, 'settings'] as const;

/** The effective organization's settings (units, thresholds, HoS defaults), readable by every member. */
export function useOrgSettings() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: orgSettingsKey(orgId),
    enabled: !!orgId,
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => api<OrganizationSettingsValues>(orgPathFor(orgId!, '/settings'), { signal, toast: false }),
  });
}
