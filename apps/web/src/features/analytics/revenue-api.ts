import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RevenueGroup, RevenuePeriod, RevenueReport } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

// Revenue analytics (issue 33): delivered loads' revenue, per loaded and total distance, by truck,
// driver, customer or lane and by week or month in the viewer's zone, and the server's CSV export
// (formula-safe, in the organization's units).

export interface RevenueFilters {
  /** Instants bounding the last delivery: [from, to). */
  from: string;
  to: string;
  groupBy: RevenueGroup;
  period: RevenuePeriod;
}

export const revenueKeys = {
  report: (orgId: string, f: RevenueFilters) => ['analytics', orgId, 'revenue', f] as const,
};

export const revenueQuery = (orgId: string, f: RevenueFilters) =>
  queryOptions({
    queryKey: revenueKeys.report(orgId, f),
    queryFn: ({ signal }) => api<RevenueReport>(orgPathFor(orgId, '/analytics/revenue'), { query: { ...f }, signal, toast: false }),
    placeholderData: keepPreviousData,
  });

export function useRevenue(f: RevenueFilters, enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...revenueQuery(orgId ?? '', f), enabled: enabled && !!orgId });
}

/** Saves the server's CSV of the same figures. */
export async function exportRevenueCsv(orgId: string, f: RevenueFilters, fileName: string): Promise<void> {
  const blob = await api<Blob>(orgPathFor(orgId, '/analytics/revenue/export'), { query: { ...f, format: 'csv' }, blob: true });
  saveFile(blob, fileName);
}
