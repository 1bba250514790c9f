import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AssetCompliance,
  ComplianceCalendarRow,
  ComplianceItem,
  ComplianceItemCreateInput,
  ComplianceItemUpdateInput,
  ComplianceSummary,
  Defect,
  Page,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPath, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { registryKeys } from '../../lib/registry-api.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { complianceKeys, driverQualificationQuery } from './compliance-keys.ts';

// The compliance screens' calls (issue 71, contract packages/api-contract/src/compliance.ts); the keys
// and the driver's own file are in compliance-keys.ts, which the driver's home loads without this file.

const itemPath = (id: string, rest = '') => orgPath(`/compliance/items/${encodeURIComponent(id)}${rest}`);

/** The calendar: what runs out soonest, with the filters of the page (status, kind, subject, q). */
export function useComplianceCalendar(query: Record<string, QueryValue>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: complianceKeys.calendar(orgId, query),
    queryFn: ({ signal }) => api<Page<ComplianceCalendarRow>>(orgPath('/compliance/items'), { query, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

/** The dashboard tile's counts (read only by those who may see compliance). */
export function useComplianceSummary(enabled: boolean) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: complianceKeys.summary(orgId),
    queryFn: ({ signal }) => api<ComplianceSummary>(orgPath('/compliance/summary'), { signal, toast: false }),
    enabled: enabled && !!orgId,
    staleTime: 60_000,
  });
}

export function useDriverQualification(driverId: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...driverQualificationQuery(orgId ?? '', driverId), enabled: !!orgId && !!driverId });
}

export function useAssetCompliance(assetId: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: complianceKeys.asset(orgId, assetId),
    queryFn: ({ signal }) => api<AssetCompliance>(orgPath(`/assets/${encodeURIComponent(assetId)}/compliance`), { signal, toast: false }),
    enabled: !!orgId && !!assetId,
  });
}

/** A change to a paper: every compliance view is read again after it (the driver's licence fields too, through the registry). */
export function useComplianceMutation<V, R = ComplianceItem>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      // An approved licence writes the driver's licence columns (spec of issue 71): their record is read again too.
      await Promise.all([qc.invalidateQueries({ queryKey: complianceKeys.all(orgId) }), qc.invalidateQueries({ queryKey: registryKeys.all })]);
    },
  });
}

/** Whose file a new paper goes in. */
export type ComplianceSubjectRef = { type: 'DRIVER'; id: string } | { type: 'ASSET'; id: string };

const itemsPath = (s: ComplianceSubjectRef) =>
  s.type === 'DRIVER' ? orgPath(`/drivers/${encodeURIComponent(s.id)}/qualification/items`) : orgPath(`/assets/${encodeURIComponent(s.id)}/compliance/items`);

/** Records a paper (the office's count at once); the form shows the server's field messages, so no toast. */
export const createItem = ({ subject, body }: { subject: ComplianceSubjectRef; body: ComplianceItemCreateInput }) =>
  api<ComplianceItem>(itemsPath(subject), { method: 'POST', body, toast: false });
export const updateItem = ({ id, body }: { id: string; body: ComplianceItemUpdateInput }) =>
  api<ComplianceItem>(itemPath(id), { method: 'PATCH', body, toast: false });
export const deleteItem = (id: string) => api<unknown>(itemPath(id), { method: 'DELETE' });
/** A failed item of an annual inspection made a defect of the unit (a safety defect unless said otherwise). */
export const makeDefect = ({ id, failedItem, safety }: { id: string; failedItem: string; safety: boolean }) =>
  api<Defect>(itemPath(id, '/defects'), { method: 'POST', body: { failedItem, safety } });

export const approveItem = (id: string) => api<ComplianceItem>(itemPath(id, '/approve'), { method: 'POST' });
export const rejectItem = ({ id, reason }: { id: string; reason: string }) =>
  api<ComplianceItem>(itemPath(id, '/reject'), { method: 'POST', body: { reason }, toast: false });

/** Adds a document's pages to a paper: photos or scans (images), or one PDF, in the order given. */
export function uploadPages({ id, files }: { id: string; files: readonly File[] }) {
  const body = new FormData();
  for (const f of files) body.append('file', f, f.name);
  return api<ComplianceItem>(itemPath(id, '/pages'), { method: 'POST', body, toast: false });
}

const fileName = (name: string) => name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'file';

/** One paper's document as a PDF. */
export async function downloadItemPdf(item: Pick<ComplianceItem, 'id' | 'kind' | 'subject'>): Promise<void> {
  saveFile(await api<Blob>(itemPath(item.id, '/pdf'), { blob: true }), `${fileName(`${item.subject.name} ${item.kind.toLowerCase()}`)}.pdf`);
}

/** A driver's qualification file: its index page, then each paper's document. */
export async function downloadQualificationPdf(driverId: string, driverName: string): Promise<void> {
  saveFile(
    await api<Blob>(orgPath(`/drivers/${encodeURIComponent(driverId)}/qualification-file.pdf`), { blob: true }),
    `${fileName(`qualification file ${driverName}`)}.pdf`,
  );
}

/** Every active driver's qualification file, one PDF each, in one ZIP. */
export async function downloadQualificationZip(): Promise<void> {
  saveFile(await api<Blob>(orgPath('/drivers/qualification-files.zip'), { blob: true }), 'qualification-files.zip');
}
