import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateOrganizationInput,
  Organization,
  OrganizationAccountInput,
  OrganizationSettingsValues,
  OrganizationSummary,
  Page,
  PageQuery,
} from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { orgPathFor } from '../../../lib/org-path.ts';
import { orgSettingsKey } from '../../../lib/org-settings.ts';

export const organizationKeys = {
  all: ['organizations'] as const,
  list: (q: PageQuery & { status?: string }) => ['organizations', 'list', q] as const,
  one: (orgId: string) => ['organizations', 'one', orgId] as const,
};

/** GET /organizations (super administrator): search, paging, status. */
export const organizationsQuery = (q: PageQuery & { status?: string }) =>
  queryOptions({
    queryKey: organizationKeys.list(q),
    queryFn: ({ signal }) => api<Page<OrganizationSummary>>('/organizations', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

/** GET /organizations/{orgId}: the account with its settings. */
export const organizationQuery = (orgId: string) =>
  queryOptions({ queryKey: organizationKeys.one(orgId), queryFn: ({ signal }) => api<Organization>(orgPathFor(orgId), { signal }) });

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: organizationKeys.all });
}

export function useCreateOrganization() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: CreateOrganizationInput) => api<{ organization: Organization; adminUserId: string }>('/organizations', { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateAccount(orgId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: OrganizationAccountInput) => api<Organization>(orgPathFor(orgId), { method: 'PUT', body: input }),
    onSuccess: invalidate,
  });
}

export function useSetOrganizationStatus() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ orgId, active }: { orgId: string; active: boolean }) =>
      api<Organization>(orgPathFor(orgId, active ? '/activate' : '/deactivate'), { method: 'POST' }),
    onSuccess: invalidate,
  });
}

/** Saves the settings; every screen reading them (units, map thresholds) sees the saved values at once. */
export function useUpdateSettings(orgId: string) {
  const qc = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: OrganizationSettingsValues) => api<OrganizationSettingsValues>(orgPathFor(orgId, '/settings'), { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      qc.setQueryData(orgSettingsKey(orgId), saved);
      return invalidate();
    },
  });
}

export function useUploadLogo(orgId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return api<{ logo: string }>(orgPathFor(orgId, '/image'), { method: 'POST', body });
    },
    onSuccess: invalidate,
  });
}

export function useRemoveLogo(orgId: string) {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: () => api<void>(orgPathFor(orgId, '/image'), { method: 'DELETE' }), onSuccess: invalidate });
}
