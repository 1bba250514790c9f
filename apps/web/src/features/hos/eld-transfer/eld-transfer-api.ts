import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EldTransfer, EldTransferInput, EldTransferStatusBody, Page } from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { orgPathFor } from '../../../lib/org-path.ts';

// Sending a driver's ELD records to FMCSA for an officer (issue 45): the send, the list of sends and
// whether the two ways (web service, e-mail) are set up on this server.

const keys = {
  all: (orgId: string) => ['eld-transfers', orgId] as const,
  list: (orgId: string, driverId: string, page: number) => ['eld-transfers', orgId, 'list', driverId, page] as const,
  status: (orgId: string) => ['eld-transfers', orgId, 'status'] as const,
};

export const eldTransferStatusQuery = (orgId: string) =>
  queryOptions({
    queryKey: keys.status(orgId),
    queryFn: ({ signal }) => api<EldTransferStatusBody>(orgPathFor(orgId, '/hos_log/eld-transfer-status'), { signal }),
    staleTime: 60_000,
  });

/** A driver's sends, newest first. */
export const eldTransfersQuery = (orgId: string, driverId: string, page = 0, size = 5) =>
  queryOptions({
    queryKey: keys.list(orgId, driverId, page),
    queryFn: ({ signal }) => api<Page<EldTransfer>>(orgPathFor(orgId, '/hos_log/eld-transfers'), { signal, query: { driverId, page, size } }),
  });

/**
 * Sends the file. The answer of a send FMCSA could not take (502) is recorded too: the list is
 * refreshed either way. No toast: the modal shows the outcome in words.
 */
export function useEldTransfer(orgId: string, driverId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: EldTransferInput) =>
      api<EldTransfer>(orgPathFor(orgId, `/drivers/${encodeURIComponent(driverId)}/hos_log/eld-transfer`), { method: 'POST', body, toast: false }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.all(orgId) }),
  });
}
