import { useQuery } from '@tanstack/react-query';
import type { HistoryRoute, Page, TripRow } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';

// The history-route screen's calls: the vehicles, drivers or devices to pick from, and one's track.

export type HistorySubject = 'assets' | 'drivers' | 'gateways';

export const historyRouteKeys = {
  subjects: (orgId: string | null, subject: HistorySubject) => ['org', orgId, 'history-subjects', subject] as const,
  route: (orgId: string | null, subject: HistorySubject, id: string | null, from: string, to: string) =>
    ['org', orgId, 'history', subject, id, from, to] as const,
};

/** The subject's records as picker options (the API's first 500). */
export function useSubjectOptions(orgId: string | null, subject: HistorySubject) {
  return useQuery({
    queryKey: historyRouteKeys.subjects(orgId, subject),
    enabled: !!orgId,
    queryFn: async ({ signal }) => {
      const page = await api<Page<Record<string, unknown>>>(orgPathFor(orgId!, `/${subject}`), { signal, query: { size: 500 }, toast: false });
      return page.content.map((r) => ({
        value: String(r.id),
        label:
          subject === 'assets'
            ? String(r.unitNumber)
            : subject === 'drivers'
              ? `${String(r.firstName)} ${String(r.lastName)}`
              : `${String(r.name)} (${String(r.uniqueId)})`,
      }));
    },
  });
}

/** The subject's track from..to (ISO instants); only asked when `enabled`. */
export function useHistoryRoute(orgId: string | null, subject: HistorySubject, subjectId: string | null, from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: historyRouteKeys.route(orgId, subject, subjectId, from, to),
    enabled,
    queryFn: ({ signal }) => api<HistoryRoute>(orgPathFor(orgId!, `/history-routes/${subject}/${subjectId}`), { signal, query: { from, to, zoom: 12 } }),
  });
}

/** A vehicle's trips in the range (`reports/trips`, issue 32), oldest first: the day's trips beside the route. */
export function useVehicleTrips(orgId: string | null, assetId: string | null, from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: ['reports', orgId, 'history-trips', assetId, from, to] as const,
    enabled: enabled && !!orgId && !!assetId,
    queryFn: ({ signal }) =>
      api<Page<TripRow>>(orgPathFor(orgId!, '/reports/trips'), {
        signal,
        query: { assetId: assetId!, from, to, size: 200, sort: 'startedAt,asc' },
        toast: false,
      }),
  });
}
