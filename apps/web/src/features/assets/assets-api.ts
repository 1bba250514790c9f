import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AssetDetail,
  AssetListItem,
  DriverCardReadList,
  PositionImportBody,
  PositionImportResult,
  RemovalResult,
  ShareLink,
  ShareLinkCreated,
  VehicleShareLinkCreate,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { resourceKeys, usePagedList, useRecord, useRegistryMutation } from '../../lib/registry-api.ts';

// The vehicle and trailer screens' calls (one place). Assets are registry records: their keys live
// under `registry`, so a change here also refreshes the drivers, devices and groups that show them.

export const assetKeys = resourceKeys('assets');

/** A page of vehicles or trailers (the query names the type, status, group, search and page). */
export const useAssets = (query: Record<string, QueryValue>) => usePagedList<AssetListItem>('assets', query);

export const useAsset = (id: string | null | undefined) => useRecord<AssetDetail>('assets', id);

/** Adds (no id) or saves a vehicle or trailer; the form shows the server's field messages, so no toast. */
export const saveAsset = (id: string | undefined, body: unknown) =>
  id
    ? api<AssetDetail>(orgPath(`/assets/${id}`), { method: 'PUT', body, toast: false })
    : api<AssetDetail>(orgPath('/assets'), { method: 'POST', body, toast: false });

export const deleteAsset = (id: string) => api<RemovalResult>(orgPath(`/assets/${id}`), { method: 'DELETE' });

export const assignDriver = (assetId: string, driverId: string) => api<unknown>(orgPath(`/assets/${assetId}/driver/${driverId}`), { method: 'PUT' });
export const unassignDriver = (assetId: string) => api<unknown>(orgPath(`/assets/${assetId}/driver`), { method: 'DELETE' });
export const attachTrailer = (assetId: string, trailerId: string) => api<unknown>(orgPath(`/assets/${assetId}/attach/${trailerId}`), { method: 'POST' });
export const detachTrailer = (assetId: string, trailerId: string) => api<unknown>(orgPath(`/assets/${assetId}/deattach/${trailerId}`), { method: 'POST' });
export const pairDevice = (gatewayId: string, assetId: string) => api<unknown>(orgPath(`/gateways/${gatewayId}/pair/${assetId}`), { method: 'POST' });
export const unpairDevice = (gatewayId: string) => api<unknown>(orgPath(`/gateways/${gatewayId}/unpair`), { method: 'POST' });

/** A vehicle's GPS history from another system: `dryRun` answers the preview and saves nothing. */
export const importPositions = (assetId: string, body: PositionImportBody, opts: { toast?: boolean } = {}) =>
  api<PositionImportResult>(orgPath(`/assets/${assetId}/positions/import`), { method: 'POST', body, ...opts });

/** Runs one of the calls above as a mutation: every registry list and detail is read again after it. */
export const useAssetMutation = <V, R>(fn: (v: V) => Promise<R>) => useRegistryMutation(fn);

// A vehicle's location links (issue 69): a time box of at most 7 days for a customer meeting a truck
// that carries no load. Their own key: a change to them touches no registry record.
const shareLinksKey = (orgId: string | null, assetId: string) => ['asset-share-links', orgId, assetId] as const;

export function useVehicleShareLinks(assetId: string, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: shareLinksKey(orgId, assetId),
    // Views happen outside the app: each opening of the list reads them afresh.
    staleTime: 0,
    queryFn: ({ signal }) => api<{ items: ShareLink[] }>(orgPath(`/assets/${assetId}/share-links`), { signal, toast: false }),
    enabled: enabled && !!orgId && !!assetId,
  });
}

/** Making and revoking a vehicle's links; the list is read again after each. */
export function useVehicleShareLinkMutations(assetId: string) {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  const onSuccess = () => qc.invalidateQueries({ queryKey: shareLinksKey(orgId, assetId) });
  const create = useMutation({
    mutationFn: (body: VehicleShareLinkCreate) => api<ShareLinkCreated>(orgPath(`/assets/${assetId}/share-links`), { method: 'POST', body, toast: false }),
    onSuccess,
  });
  // The organization's revoke path takes a load's or a vehicle's link alike.
  const revoke = useMutation({ mutationFn: (linkId: string) => api<unknown>(orgPath(`/share-links/${linkId}`), { method: 'DELETE' }), onSuccess });
  return { create, revoke };
}

// A vehicle's driver card reads (issue 73): the device reads cards outside the app, so each opening
// of the vehicle reads them afresh; an assignment made here does not change them.
const cardReadsKey = (orgId: string | null, assetId: string) => ['asset-card-reads', orgId, assetId] as const;

export function useVehicleCardReads(assetId: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: cardReadsKey(orgId, assetId),
    staleTime: 0,
    queryFn: ({ signal }) => api<DriverCardReadList>(orgPath(`/assets/${assetId}/card-reads`), { signal, toast: false }),
    enabled: !!orgId && !!assetId,
  });
}
