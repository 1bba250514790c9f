import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DetentionTotals, Page, Place, PlaceCategory, PlaceImportResult, PlaceInput, VisitRow } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The places screens' calls (issue 32): the list, one place, create/update/delete, GeoJSON export,
// CSV/GeoJSON import with a dry run, and a place's visits and detention totals. Every key sits
// under ['places', orgId]; the live map's own place keys are under it too (lib/map/map-api.ts), so a
// saved place redraws everywhere.

export const placeKeys = {
  all: (orgId: string | null) => ['places', orgId] as const,
  list: (orgId: string | null, q: Record<string, QueryValue>) => ['places', orgId, 'list', q] as const,
  one: (orgId: string | null, id: string) => ['places', orgId, 'one', id] as const,
  visits: (orgId: string | null, q: Record<string, QueryValue>) => ['places', orgId, 'visits', q] as const,
  detention: (orgId: string | null, q: Record<string, QueryValue>) => ['places', orgId, 'detention', q] as const,
};

export interface PlaceListQuery extends Record<string, QueryValue> {
  page?: number;
  size?: number;
  sort?: string;
  search?: string;
  category?: PlaceCategory;
  groupId?: string;
  bbox?: string;
}

export function usePlaces(query: PlaceListQuery, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: placeKeys.list(orgId, query),
    queryFn: ({ signal }) => api<Page<Place>>(orgPathFor(orgId ?? '', '/places'), { query, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

export function usePlace(id: string | null) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: placeKeys.one(orgId, id ?? ''),
    queryFn: ({ signal }) => api<Place>(orgPathFor(orgId ?? '', `/places/${encodeURIComponent(id ?? '')}`), { signal, toast: false }),
    enabled: !!orgId && !!id,
  });
}

/** A place's visits (the visits report filtered to it), newest first. */
export function usePlaceVisits(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: placeKeys.visits(orgId, query),
    queryFn: ({ signal }) => api<Page<VisitRow>>(orgPathFor(orgId ?? '', '/reports/visits'), { query, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: !!orgId && !!query.placeId,
  });
}

/** Detention totalled per customer (`reports/detention`), for one place with `placeId`. */
export function useDetentionTotals(query: Record<string, QueryValue>) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: placeKeys.detention(orgId, query),
    queryFn: ({ signal }) => api<DetentionTotals>(orgPathFor(orgId ?? '', '/reports/detention'), { query, signal, toast: false }),
    enabled: !!orgId,
  });
}

/** A change to places: every places list, shape and the live map's layer are read again after it. */
export function usePlaceMutation<V, R = unknown>(fn: (orgId: string, v: V) => Promise<R>) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return useMutation({
    mutationFn: (v: V) => fn(orgId ?? '', v),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: placeKeys.all(orgId) });
    },
  });
}

export const savePlace = (orgId: string, { id, body }: { id?: string; body: PlaceInput }) =>
  id
    ? api<Place>(orgPathFor(orgId, `/places/${encodeURIComponent(id)}`), { method: 'PUT', body, toast: false })
    : api<Place>(orgPathFor(orgId, '/places'), { method: 'POST', body, toast: false });

export const deletePlace = (orgId: string, id: string) => api<null>(orgPathFor(orgId, `/places/${encodeURIComponent(id)}`), { method: 'DELETE' });

export type { PlaceImportResult };
export type PlaceImportFormat = 'csv' | 'geojson';

export const importPlaces = (orgId: string, { format, content, dryRun }: { format: PlaceImportFormat; content: string; dryRun: boolean }) =>
  api<PlaceImportResult>(orgPathFor(orgId, '/places/import'), { method: 'POST', body: { format, content, dryRun }, toast: false });

/** Saves every place (under the list's filters) as a GeoJSON FeatureCollection. */
export async function exportPlacesGeoJson(orgId: string, query: Record<string, QueryValue>): Promise<void> {
  const blob = await api<Blob>(orgPathFor(orgId, '/places/export'), { query: { ...query, format: 'geojson' }, blob: true });
  saveFile(blob, 'places.geojson');
}
