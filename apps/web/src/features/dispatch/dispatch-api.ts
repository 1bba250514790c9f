import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Candidate,
  Customer,
  Load,
  LoadContact,
  LoadContactInput,
  LoadShareLinkCreate,
  LoadAssignment,
  LoadDocument,
  LoadImportResult,
  LoadInput,
  LoadPlan,
  Page,
  ShareLink,
  ShareLinkCreated,
  StopStatusInput,
} from '@fleet/api-contract';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { usePagedList } from '../../lib/registry-api.ts';
import { loadKeys, loadPath, loadsQuery, type LoadListFilters } from './loads-query.ts';

// The dispatch screens' calls (issue 33, contract packages/api-contract/src/loads.ts): loads CRUD and
// list, assignment, status, stop arrivals and departures, documents, CSV import, a driver's plan and
// the candidates. Every key sits under ['loads', orgId], so one change reads every view again (the
// board, the load's page, its plan and candidates, the driver's card).

export { loadKeys, loadPath, loadsQuery, stopStatusPath, useLoads, type LoadListFilters } from './loads-query.ts';

export function useLoad(id: string | null) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: loadKeys.one(orgId, id ?? ''),
    queryFn: ({ signal }) => api<Load>(loadPath(orgId ?? '', id ?? ''), { signal, toast: false }),
    enabled: !!orgId && !!id,
    // Live ETAs move with the trucks.
    refetchInterval: 60_000,
  });
}

/** The driver's legal plan for the load (the assigned lead driver when `driverId` is null). */
export function usePlan(id: string, driverId: string | null, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: loadKeys.plan(orgId, id, driverId),
    queryFn: ({ signal }) => api<LoadPlan>(loadPath(orgId ?? '', id, '/plan'), { query: { driverId: driverId ?? undefined }, signal, toast: false }),
    enabled: enabled && !!orgId && !!id,
    retry: false,
  });
}

/** Candidates per page on a load's page. */
export const CANDIDATES_PAGE = 10;

export function useCandidates(id: string, q: { page?: number; size?: number; search?: string }, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: loadKeys.candidates(orgId, id, q),
    queryFn: ({ signal }) => api<Page<Candidate>>(loadPath(orgId ?? '', id, '/candidates'), { query: q, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId && !!id,
    retry: false,
  });
}

/** A change to loads: every loads key of the organization is read again after it. */
export function useLoadMutation<V, R = unknown>(fn: (orgId: string, v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: (v: V) => fn(orgId ?? '', v),
    onSuccess: async () => {
      // A load names a customer (a new name adds one): the customers' lists and load counts change too.
      await Promise.all([qc.invalidateQueries({ queryKey: loadKeys.all(orgId) }), qc.invalidateQueries({ queryKey: ['registry', orgId, 'customers'] })]);
    },
  });
}

export const saveLoad = (orgId: string, { id, body }: { id?: string; body: LoadInput }) =>
  id ? api<Load>(loadPath(orgId, id), { method: 'PUT', body, toast: false }) : api<Load>(orgPathFor(orgId, '/loads'), { method: 'POST', body, toast: false });

/** Assigns drivers and units; errors come back untoasted, so a refusal for overlapping loads can be asked about (`isOverlapRefusal`). */
export const assignLoad = (orgId: string, { id, body }: { id: string; body: LoadAssignment }) =>
  api<Load>(loadPath(orgId, id, '/assignment'), { method: 'POST', body, toast: false });

/** The API's 409 for a driver or tractor on a load whose time overlaps ("driverIds.0: Dana Driver is on load L-1064 until …"). */
export function isOverlapRefusal(err: unknown): err is ApiError & { body: NonNullable<ApiError['body']> } {
  return (
    err instanceof ApiError &&
    err.status === 409 &&
    !!err.body &&
    /^(driverIds(\.\d+)?|assetId): .* (on|assigned to) load \S+ until /.test(err.body.technicalMessage)
  );
}

export const setLoadStatus = (
  orgId: string,
  { id, status, note, podWaived }: { id: string; status: 'CANCELLED' | 'PLANNED' | 'DELIVERED'; note?: string; podWaived?: boolean },
) => api<Load>(loadPath(orgId, id, '/status'), { method: 'POST', body: { status, note, podWaived }, toast: false });

/** Where a stop's arrival or departure is sent (the driver's phone sends it through its outbox, issue 44). */

export const setStopStatus = (orgId: string, { id, stopId, body }: { id: string; stopId: string; body: StopStatusInput }) =>
  api<Load>(loadPath(orgId, id, `/stops/${encodeURIComponent(stopId)}/status`), { method: 'POST', body, toast: false });

/** The API's 409 for a delivery whose customer requires a proof of delivery it does not have yet (issue 70). */
export const isPodRefusal = (err: unknown): err is ApiError & { body: NonNullable<ApiError['body']> } =>
  err instanceof ApiError && !!err.body && err.body.code === 'loads.pod_required';

/** Where a load's papers are sent (the driver's phone sends them through its outbox, issue 70). */
export const loadDocumentsPath = (orgId: string, id: string) => loadPath(orgId, id, '/documents');

/**
 * Where a photo is uploaded before a paper names it: the product's one image store. The loads
 * contract has no upload path of its own, so a page goes where the inspection card's photos go
 * (`dvirs/images`, which the Driver role may call); the document then references it.
 */
export const loadPhotoUploadPath = (orgId: string) => orgPathFor(orgId, '/dvirs/images');

/**
 * Opens a paper's PDF in a new tab. The tab is opened at the tap (a browser lets a tap open one),
 * then shown the PDF read with the session; where tabs are refused, the PDF is saved instead.
 */
export async function openDocumentPdf(orgId: string, loadId: string, doc: Pick<LoadDocument, 'id' | 'type'>, fileName: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const pdf = await api<Blob>(loadPath(orgId, loadId, `/documents/${encodeURIComponent(doc.id)}/pdf`), { blob: true });
    const url = URL.createObjectURL(pdf);
    if (tab) tab.location.href = url;
    else saveFile(pdf, fileName);
    // The tab has read it by then; the address is not needed after.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}

export const importLoads = (orgId: string, { content, dryRun }: { content: string; dryRun: boolean }) =>
  api<LoadImportResult>(orgPathFor(orgId, '/loads/import'), { method: 'POST', body: { content, dryRun }, toast: false });

/** How many loads each status holds under the same filters (one page of one row per status). */
export function useLoadCounts(statuses: readonly string[], q: Omit<LoadListFilters, 'status' | 'page' | 'size'>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQueries({
    queries: statuses.map((status) => ({ ...loadsQuery(orgId ?? '', { ...q, status, page: 0, size: 1 }), enabled: enabled && !!orgId })),
    combine: (results) => Object.fromEntries(statuses.map((s, i) => [s, results[i]?.data?.totalElements])) as Record<string, number | undefined>,
  });
}

/**
 * Customers whose name, address or e-mail holds `search` (the first 10 by name), for the load form's
 * customer (issue 70). Registry keys: adding or editing a customer refreshes them.
 */
export const useCustomerOptions = (search: string, enabled = true) =>
  usePagedList<Customer>('customers', { size: 10, sort: 'name,asc', ...(search.trim() ? { search: search.trim() } : {}) }, enabled);

/** The organization's drivers for pickers (first 500 by name). */
export function useDriverOptions(enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['loads', orgId, 'driver-options'],
    queryFn: ({ signal }) =>
      api<Page<{ id: string; firstName: string; lastName: string; status?: string }>>(orgPathFor(orgId ?? '', '/drivers'), {
        query: { size: 500, sort: 'lastName,asc' },
        signal,
        toast: false,
      }),
    enabled: enabled && !!orgId,
    staleTime: 5 * 60_000,
  });
}

/** Vehicles or trailers for pickers (first 500). */
export function useAssetOptions(type: 'VEHICLE' | 'TRAILER', enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['loads', orgId, 'asset-options', type],
    queryFn: ({ signal }) =>
      api<Page<{ id: string; unitNumber: string }>>(orgPathFor(orgId ?? '', '/assets'), { query: { size: 500, type }, signal, toast: false }),
    enabled: enabled && !!orgId,
    staleTime: 5 * 60_000,
  });
}

/** The organization's places for the stop picker (first 500 by name). */
export function usePlaceOptions(enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: ['places', orgId, 'list', { size: 500, sort: 'name,asc', for: 'dispatch' }],
    queryFn: ({ signal }) =>
      api<
        Page<{
          id: string;
          name: string;
          address: string | null;
          geometry: { type: 'Point'; coordinates: number[] } | { type: 'Polygon'; coordinates: number[][][] };
        }>
      >(orgPathFor(orgId ?? '', '/places'), {
        query: { size: 500, sort: 'name,asc' },
        signal,
        toast: false,
      }),
    enabled: enabled && !!orgId,
    staleTime: 5 * 60_000,
  });
}

// Customer tracking (issue 69): a load's tracking links and the contacts who get its notices.

/** The load's tracking links, newest first, with their views (LOAD_LIST). */
export function useLoadShareLinks(id: string, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: loadKeys.shareLinks(orgId, id),
    // Views happen outside the app: each opening of the list reads them afresh.
    staleTime: 0,
    queryFn: ({ signal }) => api<{ items: ShareLink[] }>(loadPath(orgId ?? '', id, '/share-links'), { signal, toast: false }),
    enabled: enabled && !!orgId && !!id,
  });
}

/** Makes a link; the answer's url (with its token) is the only time it is shown. */
export const createLoadShareLink = (orgId: string, { id, body }: { id: string; body: LoadShareLinkCreate }) =>
  api<ShareLinkCreated>(loadPath(orgId, id, '/share-links'), { method: 'POST', body, toast: false });

export const revokeLoadShareLink = (orgId: string, { id, linkId }: { id: string; linkId: string }) =>
  api<unknown>(loadPath(orgId, id, `/share-links/${encodeURIComponent(linkId)}`), { method: 'DELETE' });

/** The load's contacts with the notices each chose, what was sent and whether they unsubscribed. */
export function useLoadContacts(id: string, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: loadKeys.contacts(orgId, id),
    queryFn: ({ signal }) => api<{ items: LoadContact[] }>(loadPath(orgId ?? '', id, '/contacts'), { signal, toast: false }),
    enabled: enabled && !!orgId && !!id,
  });
}

/** Replaces the load's contacts as a whole; a 400 comes back untoasted, for the form to show at its fields. */
export const saveLoadContacts = (orgId: string, { id, contacts }: { id: string; contacts: LoadContactInput[] }) =>
  api<{ items: LoadContact[] }>(loadPath(orgId, id, '/contacts'), { method: 'PUT', body: { contacts }, toast: false });
