import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FuelCsvImportBody,
  FuelCsvPreview,
  FuelCsvResult,
  FuelPurchase,
  IftaAdjustment,
  IftaDistanceDay,
  IftaFiling,
  IftaFilters,
  IftaRateImportPreview,
  IftaRateMatrix,
  IftaReport,
  IftaReviewInput,
  IftaReviewResult,
  Page,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { saveFile } from '../../lib/download.ts';

// The IFTA screen's calls (one place): query options own their keys, mutations invalidate by them.

export const iftaKeys = {
  all: ['ifta'] as const,
  filters: (orgId: string | null) => ['ifta', orgId, 'filters'] as const,
  report: (orgId: string | null, q: Record<string, QueryValue>) => ['ifta', orgId, 'report', q] as const,
  list: (orgId: string | null, what: string, q: Record<string, QueryValue>) => ['ifta', orgId, what, q] as const,
  /** Tax rates are global (not an organization's): their own tree. */
  allRates: ['ifta-rates'] as const,
  rates: (quarter: string) => ['ifta-rates', quarter] as const,
  rateQuarters: ['ifta-rates', 'filters'] as const,
};

export function useIftaFilters() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: iftaKeys.filters(orgId),
    queryFn: ({ signal }) => api<IftaFilters>('/settings/ifta-filters', { query: { organizationId: orgId ?? undefined }, signal }),
  });
}

export interface ReportParams {
  quarter: string;
  fuelType: string;
  assetId?: string | null;
  groupId?: string | null;
}

const reportQuery = (p: ReportParams): Record<string, QueryValue> => ({
  quarter: p.quarter,
  fuelType: p.fuelType,
  assetId: p.assetId ?? undefined,
  groupId: p.groupId ?? undefined,
});

export function reportOptions(orgId: string | null, p: ReportParams | null) {
  const q = p ? reportQuery(p) : {};
  return queryOptions({
    queryKey: iftaKeys.report(orgId, q),
    queryFn: ({ signal }) => api<IftaReport>(orgPath('/ifta/report'), { query: q, signal }),
    enabled: !!orgId && !!p,
    placeholderData: keepPreviousData,
  });
}

export function useIftaReport(p: ReportParams | null) {
  return useQuery(reportOptions(useEffectiveOrganizationId(), p));
}

/** A paged IFTA list (`fuel-purchases`, `adjustments`, `distance-records`). */
export function useIftaList<T>(what: 'fuel-purchases' | 'adjustments' | 'distance-records', query: Record<string, QueryValue>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: iftaKeys.list(orgId, what, query),
    queryFn: ({ signal }) => api<Page<T>>(orgPath(`/ifta/${what}`), { query, signal }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

export type { FuelPurchase, IftaAdjustment, IftaDistanceDay };

/** A mutation of IFTA records: the report, lists and filters are read again after it. */
export function useIftaMutation<V, R = unknown>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: iftaKeys.all }) });
}

export const savePurchase = ({ id, body }: { id?: string; body: unknown }) =>
  id
    ? api<FuelPurchase>(orgPath(`/ifta/fuel-purchases/${id}`), { method: 'PUT', body, toast: false })
    : api<FuelPurchase>(orgPath('/ifta/fuel-purchases'), { method: 'POST', body, toast: false });
export const deletePurchase = (id: string) => api<null>(orgPath(`/ifta/fuel-purchases/${id}`), { method: 'DELETE' });
export const createAdjustment = (body: unknown) => api<IftaAdjustment>(orgPath('/ifta/adjustments'), { method: 'POST', body, toast: false });
export const deleteAdjustment = (id: string) => api<null>(orgPath(`/ifta/adjustments/${id}`), { method: 'DELETE' });
/** Marks items to review checked (who and when are kept), or not checked again. */
export const markReviewed = (body: IftaReviewInput) => api<IftaReviewResult>(orgPath('/ifta/review-marks'), { method: 'PUT', body });
export const fileQuarter = (body: { quarter: string; filedAt?: string }) => api<IftaFiling>(orgPath('/ifta/filings'), { method: 'POST', body });
export const previewFuelImport = (body: FuelCsvImportBody) =>
  api<FuelCsvPreview>(orgPath('/ifta/fuel-purchases/import/preview'), { method: 'POST', body, toast: false });
export const commitFuelImport = (body: FuelCsvImportBody) => api<FuelCsvResult>(orgPath('/ifta/fuel-purchases/import'), { method: 'POST', body });

/** Downloads an export (the return or the distance records, CSV or PDF) as a file. */
export async function downloadExport(what: 'report' | 'distance-records', query: Record<string, QueryValue>, fileName: string): Promise<void> {
  saveFile(await api<Blob>(orgPath(`/ifta/${what}/export`), { query, blob: true }), fileName);
}

// Tax rates (super administrator screen; every signed-in user may read them).
export function useIftaRates(quarter: string | null) {
  return useQuery({
    queryKey: iftaKeys.rates(quarter ?? ''),
    queryFn: ({ signal }) => api<IftaRateMatrix>('/settings/ifta-rates', { query: { quarter: quarter ?? undefined }, signal }),
    enabled: !!quarter,
  });
}

export function useRateQuarters() {
  return useQuery({ queryKey: iftaKeys.rateQuarters, queryFn: ({ signal }) => api<IftaFilters>('/settings/ifta-filters', { signal }) });
}

export const previewRates = (body: { csv: string; quarter?: string; source?: string }) =>
  api<IftaRateImportPreview>('/settings/ifta-rates/preview', { method: 'POST', body, toast: false });
export function useImportRates() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { csv: string; quarter?: string; source?: string }) =>
      api<IftaRateImportPreview & { imported: number }>('/settings/ifta-rates', { method: 'POST', body }),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: iftaKeys.allRates }), qc.invalidateQueries({ queryKey: iftaKeys.all })]),
  });
}
