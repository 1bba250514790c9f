import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Defect,
  GroundingCodes,
  InspectionDue,
  InspectionItems,
  MaintenanceDue,
  MaintenanceNext,
  MaintenanceSchedule,
  MaintenanceScheduleInput,
  Organization,
  Page,
  Signature,
  WorkOrder,
  WorkOrderInput,
} from '@fleet/api-contract';
import { ApiError, api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPath, orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { maintenanceRoot } from './dvir-api.ts';

// The office's maintenance calls (issue 31): defects, work orders, schedules, what is due, the next
// service of a vehicle, inspections due and the organization's own items. Every key sits under
// ['maintenance', orgId] (dvir-api.ts), so any change here refreshes every maintenance list.

export const maintenanceKeys = {
  all: maintenanceRoot,
  list: (orgId: string | null, what: string, q: Record<string, QueryValue>) => [...maintenanceRoot(orgId), what, 'list', q] as const,
  one: (orgId: string | null, what: string, id: string) => [...maintenanceRoot(orgId), what, 'one', id] as const,
};

/** Lists that may not exist yet on an older API answer "nothing" on 404 rather than an error. */
async function orEmpty<T>(run: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return empty;
    throw err;
  }
}

const emptyPage = <T>(): Page<T> => ({ content: [], page: 0, size: 0, totalElements: 0, totalPages: 0 });

/** A paged maintenance list: `defects`, `work-orders`, `maintenance-schedules`, `maintenance/due`, `maintenance/inspections-due`. */
export function useMaintenanceList<T>(what: string, query: Record<string, QueryValue>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: maintenanceKeys.list(orgId, what, query),
    queryFn: ({ signal }) => orEmpty(() => api<Page<T>>(orgPathFor(orgId ?? '', `/${what}`), { query, signal, toast: false }), emptyPage<T>()),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

export const useDefects = (q: Record<string, QueryValue>, enabled = true) => useMaintenanceList<Defect>('defects', q, enabled);
export const useWorkOrders = (q: Record<string, QueryValue>, enabled = true) => useMaintenanceList<WorkOrder>('work-orders', q, enabled);
export const useSchedules = (q: Record<string, QueryValue>, enabled = true) => useMaintenanceList<MaintenanceSchedule>('maintenance-schedules', q, enabled);
export const useDue = (q: Record<string, QueryValue>, enabled = true) => useMaintenanceList<MaintenanceDue>('maintenance/due', q, enabled);
export const useInspectionsDue = (q: Record<string, QueryValue>, enabled = true) =>
  useMaintenanceList<InspectionDue>('maintenance/inspections-due', q, enabled);

export function useWorkOrder(id: string | null) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: maintenanceKeys.one(orgId, 'work-orders', id ?? ''),
    queryFn: ({ signal }) => api<WorkOrder>(orgPathFor(orgId ?? '', `/work-orders/${encodeURIComponent(id ?? '')}`), { signal }),
    enabled: !!orgId && !!id,
  });
}

export function useSchedule(id: string | null) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: maintenanceKeys.one(orgId, 'maintenance-schedules', id ?? ''),
    queryFn: ({ signal }) => api<MaintenanceSchedule>(orgPathFor(orgId ?? '', `/maintenance-schedules/${encodeURIComponent(id ?? '')}`), { signal }),
    enabled: !!orgId && !!id,
  });
}

/** Every schedule covering one vehicle with its next service (empty until the endpoint exists). */
export function useNextService(assetId: string | null, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: [...maintenanceRoot(orgId), 'next', assetId ?? ''] as const,
    queryFn: ({ signal }) =>
      orEmpty(() => api<MaintenanceNext>(orgPathFor(orgId ?? '', '/maintenance/next'), { query: { assetId: assetId ?? '' }, signal, toast: false }), {
        items: [],
      }),
    enabled: enabled && !!orgId && !!assetId,
  });
}

/** The organization's own inspection items, for the settings screen (a 404 reads as none yet). */
export function useOwnInspectionItems() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: [...maintenanceRoot(orgId), 'inspection-items'] as const,
    queryFn: ({ signal }) =>
      orEmpty(() => api<InspectionItems>(orgPathFor(orgId ?? '', '/maintenance/inspection-items'), { signal, toast: false }), { items: [] }),
    enabled: !!orgId,
  });
}

/** The organization's grounding engine fault codes (decision 0191). */
export function useGroundingCodes(enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: [...maintenanceRoot(orgId), 'grounding-codes'] as const,
    queryFn: ({ signal }) => api<GroundingCodes>(orgPathFor(orgId ?? '', '/maintenance/grounding-codes'), { signal, toast: false }),
    enabled: enabled && !!orgId,
  });
}

/** USD, or CAD for a Canadian organization: what a work order's cost is in. */
export function useOrgCurrency(): string {
  const orgId = useEffectiveOrganizationId();
  const q = useQuery({
    queryKey: ['org', orgId, 'account'] as const,
    queryFn: ({ signal }) => api<Organization>(orgPathFor(orgId ?? ''), { signal, toast: false }),
    enabled: !!orgId,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return q.data?.country === 'CA' ? 'CAD' : 'USD';
}

/** A change to maintenance records: every maintenance list and detail is read again after it. */
export function useMaintenanceMutation<V, R = unknown>(fn: (orgId: string, v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: (v: V) => fn(orgId ?? '', v),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: maintenanceRoot(orgId) });
    },
  });
}

const at = (orgId: string, path: string) => orgPathFor(orgId, path);

export const saveWorkOrder = (orgId: string, { id, body }: { id?: string; body: WorkOrderInput }) =>
  id
    ? api<WorkOrder>(at(orgId, `/work-orders/${encodeURIComponent(id)}`), { method: 'PUT', body, toast: false })
    : api<WorkOrder>(at(orgId, '/work-orders'), { method: 'POST', body, toast: false });
export const deleteWorkOrder = (orgId: string, id: string) => api<null>(at(orgId, `/work-orders/${encodeURIComponent(id)}`), { method: 'DELETE' });

export const saveSchedule = (orgId: string, { id, body }: { id?: string; body: MaintenanceScheduleInput }) =>
  id
    ? api<MaintenanceSchedule>(at(orgId, `/maintenance-schedules/${encodeURIComponent(id)}`), { method: 'PUT', body, toast: false })
    : api<MaintenanceSchedule>(at(orgId, '/maintenance-schedules'), { method: 'POST', body, toast: false });
export const deleteSchedule = (orgId: string, id: string) => api<null>(at(orgId, `/maintenance-schedules/${encodeURIComponent(id)}`), { method: 'DELETE' });

export interface Certification {
  status: 'REPAIRED' | 'NOT_NEEDED';
  certification?: string | null;
  signature: Signature;
}
export const certifyDefect = (orgId: string, { id, body }: { id: string; body: Certification }) =>
  api<Defect>(at(orgId, `/defects/${encodeURIComponent(id)}`), { method: 'PUT', body, toast: false });

export const saveInspectionItems = (orgId: string, body: InspectionItems) =>
  api<InspectionItems>(at(orgId, '/maintenance/inspection-items'), { method: 'PUT', body, toast: false });
export const saveGroundingCodes = (orgId: string, body: { codes: string[] }) =>
  api<GroundingCodes>(at(orgId, '/maintenance/grounding-codes'), { method: 'PUT', body, toast: false });

/** Downloads a report's or a unit's maintenance history export (`dvirs/{id}/export`, `maintenance/history/export`). */
export async function downloadMaintenance(path: string, query: Record<string, QueryValue>, fileName: string): Promise<void> {
  saveFile(await api<Blob>(orgPath(path), { query, blob: true }), fileName);
}
