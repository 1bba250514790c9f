import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FuelCardAssignment,
  FuelEventPage,
  FuelImportBody,
  FuelImportPresetInfo,
  FuelImportPresetInput,
  FuelImportResult,
  FuelTransaction,
  FuelTransactionPage,
  FuelTransactionReviewInput,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The fuel-transactions screen's calls (issue 68): query options own their keys, mutations invalidate by them.

export const fuelCardKeys = {
  all: ['fuel-transactions'] as const,
  list: (orgId: string | null, q: Record<string, QueryValue>) => ['fuel-transactions', orgId, 'list', q] as const,
  presets: (orgId: string | null) => ['fuel-transactions', orgId, 'presets'] as const,
  events: (orgId: string | null, q: Record<string, QueryValue>) => ['fuel-transactions', orgId, 'events', q] as const,
};

export function useFuelTransactions(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: fuelCardKeys.list(orgId, query),
    queryFn: ({ signal }) => api<FuelTransactionPage>(orgPath('/fuel-transactions'), { query, signal }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

/** Refuels and drops of the fuel level (issue 68, part 2). */
export function useFuelEvents(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: fuelCardKeys.events(orgId, query),
    queryFn: ({ signal }) => api<FuelEventPage>(orgPath('/fuel-events'), { query, signal }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

export function useImportPresets() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: fuelCardKeys.presets(orgId),
    queryFn: ({ signal }) => api<{ content: FuelImportPresetInfo[] }>(orgPath('/fuel-transactions/import-presets'), { signal }),
    enabled: !!orgId,
  });
}

/** A change to transactions or presets: the lists are read again after it. */
export function useFuelCardMutation<V, R = unknown>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: fuelCardKeys.all }) });
}

export const reviewTransaction = ({ id, body }: { id: string; body: FuelTransactionReviewInput }) =>
  api<FuelTransaction>(orgPath(`/fuel-transactions/${id}/review`), { method: 'POST', body, toast: false });
export const checkImport = (body: FuelImportBody) =>
  api<FuelImportResult>(orgPath('/fuel-transactions/import'), { method: 'POST', body, query: { dryRun: 'true' }, toast: false });
export const runImport = (body: FuelImportBody) => api<FuelImportResult>(orgPath('/fuel-transactions/import'), { method: 'POST', body });
export const savePreset = ({ name, body }: { name: string; body: FuelImportPresetInput }) =>
  api<FuelImportPresetInfo>(orgPath(`/fuel-transactions/import-presets/${encodeURIComponent(name)}`), { method: 'PUT', body, toast: false });

export function useFuelCards(enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: [...fuelCardKeys.all, orgId, 'cards'] as const,
    queryFn: ({ signal }) => api<{ content: FuelCardAssignment[] }>(orgPath('/fuel-cards'), { signal }),
    enabled: enabled && !!orgId,
  });
}

export const assignCard = ({ last4, body }: { last4: string; body: { vehicleId?: string | null; driverId?: string | null } }) =>
  api<FuelCardAssignment>(orgPath(`/fuel-cards/${last4}`), { method: 'PUT', body, toast: false });
export const unassignCard = (last4: string) => api<null>(orgPath(`/fuel-cards/${last4}`), { method: 'DELETE' });
