import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { HosDiagnostic, HosUnidentifiedSegment, Page, PageQuery } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import { hosKeys } from './hos-api.ts';

// The office's unidentified driving (issue 16, decision 0113): the list, proposing a segment to a
// driver and annotating one as nobody's driving; and the vehicles' ELD diagnostics (decision 0114).

export interface UnidentifiedFilters extends Pick<PageQuery, 'page' | 'size'> {
  state?: HosUnidentifiedSegment['state'];
  assetId?: string;
}

export const unidentifiedQuery = (orgId: string, f: UnidentifiedFilters) =>
  queryOptions({
    queryKey: hosKeys.unidentifiedList(orgId, f),
    queryFn: ({ signal }) => api<Page<HosUnidentifiedSegment>>(orgPathFor(orgId, '/hos_log/unidentified'), { query: { ...f }, signal }),
    placeholderData: keepPreviousData,
  });

export const diagnosticsQuery = (orgId: string) =>
  queryOptions({
    queryKey: hosKeys.diagnostics(orgId),
    queryFn: ({ signal }) => api<Page<HosDiagnostic>>(orgPathFor(orgId, '/hos_log/diagnostics'), { query: { active: 'true', size: 50 }, signal }),
  });

export function useProposeSegment(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, driverId, annotation }: { id: string; driverId: string; annotation: string | null }) =>
      api<HosUnidentifiedSegment>(orgPathFor(orgId, `/hos_log/unidentified/${id}/proposal`), { method: 'POST', body: { driverId, annotation }, toast: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: hosKeys.all(orgId) }),
  });
}

export function useAnnotateSegment(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api<HosUnidentifiedSegment>(orgPathFor(orgId, `/hos_log/unidentified/${id}/annotation`), { method: 'POST', body: { reason }, toast: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: hosKeys.unidentified(orgId) }),
  });
}
