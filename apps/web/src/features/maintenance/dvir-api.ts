import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dvir, DvirInput, InspectionItems, Page, Signature, UploadedImage } from '@fleet/api-contract';
import { ApiError, api } from '../../lib/api-client.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

// Inspection reports (issue 31, decision 0158): the driver's phone signs and reviews them, the office
// reads them. Every key starts with ['maintenance', orgId], so a new report or review refreshes the
// office's defect and work-order lists too (maintenance-api.ts keys live under the same root).

export const maintenanceRoot = (orgId: string | null) => ['maintenance', orgId] as const;

export const dvirKeys = {
  all: (orgId: string | null) => [...maintenanceRoot(orgId), 'dvirs'] as const,
  list: (orgId: string | null, q: DvirListParams) => [...maintenanceRoot(orgId), 'dvirs', 'list', q] as const,
  one: (orgId: string | null, id: string) => [...maintenanceRoot(orgId), 'dvirs', 'one', id] as const,
  items: (orgId: string | null) => [...maintenanceRoot(orgId), 'inspection-items'] as const,
};

/** `GET dvirs` filters; `from`/`to` are ISO date-times with offset. */
export interface DvirListParams {
  assetId?: string;
  driverId?: string;
  from?: string;
  to?: string;
  hasDefects?: boolean;
  page?: number;
  size?: number;
}

const path = (orgId: string, rest = '') => orgPathFor(orgId, `/dvirs${rest}`);

export const dvirListQuery = (orgId: string | null, q: DvirListParams, enabled = true) =>
  queryOptions({
    queryKey: dvirKeys.list(orgId, q),
    queryFn: ({ signal }) =>
      api<Page<Dvir>>(path(orgId ?? ''), {
        query: { ...q, hasDefects: q.hasDefects === undefined ? undefined : String(q.hasDefects) },
        signal,
      }),
    enabled: enabled && !!orgId,
    placeholderData: keepPreviousData,
  });

export const dvirQuery = (orgId: string | null, id: string | null) =>
  queryOptions({
    queryKey: dvirKeys.one(orgId, id ?? ''),
    queryFn: ({ signal }) => api<Dvir>(path(orgId ?? '', `/${encodeURIComponent(id ?? '')}`), { signal }),
    enabled: !!orgId && !!id,
  });

/**
 * The organization's own inspection items. Until the endpoint exists (or for an organization without
 * any) a 404 reads as "no extra items", so the 396.11 list alone still works.
 */
export const inspectionItemsQuery = (orgId: string | null) =>
  queryOptions({
    queryKey: dvirKeys.items(orgId),
    queryFn: async ({ signal }): Promise<InspectionItems> => {
      try {
        return await api<InspectionItems>(orgPathFor(orgId ?? '', '/maintenance/inspection-items'), { signal, toast: false });
      } catch (err) {
        if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return { items: [] };
        throw err;
      }
    },
    enabled: !!orgId,
    staleTime: 5 * 60_000,
  });

/** Hooks for screens that work in the signed-in user's (or the super admin's chosen) organization. */
export function useDvirs(q: DvirListParams, enabled = true) {
  return useQuery(dvirListQuery(useEffectiveOrganizationId(), q, enabled));
}
export function useDvir(id: string | null) {
  return useQuery(dvirQuery(useEffectiveOrganizationId(), id));
}
export function useInspectionItems() {
  return useQuery(inspectionItemsQuery(useEffectiveOrganizationId()));
}

function useDvirMutation<V, R>(orgId: string, fn: (vars: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: maintenanceRoot(orgId) });
    },
  });
}

/** `POST dvirs`: errors are not toasted; the form shows a 400 next to the field it names. */
export function useCreateDvir(orgId: string) {
  return useDvirMutation(orgId, (body: DvirInput) => api<Dvir>(path(orgId), { method: 'POST', body, toast: false }));
}

/** `POST dvirs/{id}/review`: the next driver's signed review of the repair certifications. */
export function useReviewDvir(orgId: string) {
  return useDvirMutation(orgId, ({ id, signature }: { id: string; signature: Signature }) =>
    api<Dvir>(path(orgId, `/${encodeURIComponent(id)}/review`), { method: 'POST', body: { signature }, toast: false }),
  );
}

/**
 * Uploads a defect photo or a drawn signature (`POST dvirs/images`); a 413 is the size limit. The
 * answer's `url` is a signed link that shows it: images are never public, and an <img> sends no token.
 */
export function uploadDvirImage(orgId: string, file: Blob, name = 'image.png'): Promise<UploadedImage> {
  const body = new FormData();
  body.append('file', file, name);
  return api<UploadedImage>(path(orgId, '/images'), { method: 'POST', body, toast: false });
}

export function useUploadDvirImage(orgId: string) {
  return useMutation({ mutationFn: ({ file, name }: { file: Blob; name?: string }) => uploadDvirImage(orgId, file, name) });
}

/** Where reports and their photos are sent (the driver's phone sends them through its outbox, issue 44). */
export const dvirPaths = (orgId: string) => ({ reports: path(orgId), images: path(orgId, '/images') });

/** The words for an upload error: the 413 names the size limit. */
export function imageUploadError(err: unknown): string {
  if (err instanceof ApiError && err.status === 413) return err.body?.message ?? 'The photo is larger than the upload limit';
  if (err instanceof ApiError) return err.body?.message ?? err.message;
  return 'The photo could not be uploaded; check the connection and try again';
}
