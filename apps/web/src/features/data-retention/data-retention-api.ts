import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataRetention, DataRetentionInput } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';

// The data-retention screen's calls: the organization's policies and the purge job's last run.

export const dataRetentionKeys = {
  one: (orgId: string) => ['data-retention', orgId] as const,
};

export const retentionQuery = (orgId: string) =>
  queryOptions({ queryKey: dataRetentionKeys.one(orgId), queryFn: ({ signal }) => api<DataRetention>(orgPathFor(orgId, '/data-retention'), { signal }) });

/** Saves the policies; the answer replaces the screen's copy (no refetch). */
export function useSaveRetention(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: DataRetentionInput) => api<DataRetention>(orgPathFor(orgId, '/data-retention'), { method: 'PUT', body: input }),
    onSuccess: (out) => qc.setQueryData(dataRetentionKeys.one(orgId), out),
  });
}
