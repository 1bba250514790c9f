import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DetentionTotals, HistoryRoute, Page, Place, ReportKind, ReportSubscription, ReportSubscriptionInput, SummaryRow } from '@fleet/api-contract';
import { REPORT_PATHS } from '@fleet/api-contract/reports';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The reports screens' calls (issue 32): the four report pages and their exports, detention totals,
// the tracks of the trips on screen (history routes), the places to filter by, and the user's
// scheduled reports. Every key sits under ['reports', orgId].

export const reportKeys = {
  all: (orgId: string | null) => ['reports', orgId] as const,
  page: (orgId: string | null, kind: ReportKind, q: Record<string, QueryValue>) => ['reports', orgId, kind, q] as const,
  detention: (orgId: string | null, q: Record<string, QueryValue>) => ['reports', orgId, 'detention', q] as const,
  track: (orgId: string | null, assetId: string, from: string, to: string) => ['reports', orgId, 'track', assetId, from, to] as const,
  places: (orgId: string | null) => ['reports', orgId, 'places'] as const,
  subscriptions: (orgId: string | null, q: Record<string, QueryValue>) => ['reports', orgId, 'subscriptions', q] as const,
};

/** One report's page under the filters (`reports/trips|stops|visits|summary`). */
export function useReport<T>(kind: ReportKind, query: Record<string, QueryValue>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: reportKeys.page(orgId, kind, query),
    queryFn: ({ signal }) => api<Page<T>>(orgPathFor(orgId ?? '', `/reports/${REPORT_PATHS[kind]}`), { query, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

/** The daily summary under the filters, up to 500 rows: what the charts add up by day. */
export const useSummaryForChart = (query: Record<string, QueryValue>) => useReport<SummaryRow>('SUMMARY', { ...query, page: 0, size: 500, sort: 'day,asc' });

export function useDetentionTotals(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: reportKeys.detention(orgId, query),
    queryFn: ({ signal }) => api<DetentionTotals>(orgPathFor(orgId ?? '', '/reports/detention'), { query, signal, toast: false }),
    enabled: !!orgId,
  });
}

/** Saves a report under the filters as CSV or PDF (the API client shows an error toast). */
export async function downloadReport(orgId: string, kind: ReportKind, query: Record<string, QueryValue>, format: 'csv' | 'pdf'): Promise<void> {
  const blob = await api<Blob>(orgPathFor(orgId, `/reports/${REPORT_PATHS[kind]}/export`), { query: { ...query, format }, blob: true });
  saveFile(blob, `${REPORT_PATHS[kind]}-report.${format}`);
}

/** Each answer's points; module-level so useQueries keeps the array until an answer changes. */
const tracksOf = (results: ReadonlyArray<{ data?: HistoryRoute }>) => results.map((r) => r.data?.track);

/** The tracks of the trips on screen (each a vehicle's history between the trip's start and end), in the trips' order. */
export function useTripTracks(trips: readonly { id: string; assetId: string; from: string; to: string }[]) {
  const orgId = useEffectiveOrganizationId();
  return useQueries({
    queries: trips.map((t) => ({
      queryKey: reportKeys.track(orgId, t.assetId, t.from, t.to),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api<HistoryRoute>(orgPathFor(orgId ?? '', `/history-routes/assets/${encodeURIComponent(t.assetId)}`), {
          query: { from: t.from, to: t.to, zoom: 11 },
          signal,
          toast: false,
        }),
      enabled: !!orgId,
      staleTime: 10 * 60_000,
      retry: false,
    })),
    combine: tracksOf,
  });
}

/** The organization's places (first 500, by name): the visits filter and where visits are drawn. */
export function usePlaceOptions(enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: reportKeys.places(orgId),
    queryFn: ({ signal }) => api<Page<Place>>(orgPathFor(orgId ?? '', '/places'), { query: { size: 500, sort: 'name,asc' }, signal, toast: false }),
    enabled: enabled && !!orgId,
    staleTime: 5 * 60_000,
  });
}

export function useSubscriptions(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: reportKeys.subscriptions(orgId, query),
    queryFn: ({ signal }) => api<Page<ReportSubscription>>(orgPathFor(orgId ?? '', '/report-subscriptions'), { query, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

/** A change to scheduled reports: their list is read again after it. */
export function useSubscriptionMutation<V, R = unknown>(fn: (orgId: string, v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: (v: V) => fn(orgId ?? '', v),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: [...reportKeys.all(orgId), 'subscriptions'] });
    },
  });
}

export const saveSubscription = (orgId: string, { id, body }: { id?: string; body: ReportSubscriptionInput }) =>
  id
    ? api<ReportSubscription>(orgPathFor(orgId, `/report-subscriptions/${encodeURIComponent(id)}`), { method: 'PUT', body, toast: false })
    : api<ReportSubscription>(orgPathFor(orgId, '/report-subscriptions'), { method: 'POST', body, toast: false });

export const deleteSubscription = (orgId: string, id: string) =>
  api<null>(orgPathFor(orgId, `/report-subscriptions/${encodeURIComponent(id)}`), { method: 'DELETE' });
