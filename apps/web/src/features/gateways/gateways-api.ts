import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceCommand, DeviceModel, Gateway, GatewayDetail, GatewayPairBody, Page, RefusedDevice, RefusedFix } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { deviceModelKeys } from '../../lib/device-model-keys.ts';
import { orgPath } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';
import { resourceKeys, usePagedList, useRecord, useRegistryMutation } from '../../lib/registry-api.ts';

// The devices screens' calls (one place). Devices are registry records: their keys live under
// `registry`, so a change here also refreshes the vehicles that show them.

export const gatewayKeys = resourceKeys('gateways');

export const useGateways = (query: Record<string, QueryValue>) => usePagedList<Gateway>('gateways', query);

export const useGateway = (id: string | null | undefined) => useRecord<GatewayDetail>('gateways', id);

/** The device's fixes refused in the last 24 hours, newest first (issue 43), 10 a page. */
export const useRefusedFixes = (id: string, page: number) => usePagedList<RefusedFix>(`gateways/${id}/refused-fixes`, { page, size: 10 });

/** The global device-model catalogue the device form picks from. */
export function useDeviceModels() {
  return useQuery({
    queryKey: deviceModelKeys.choices(),
    queryFn: ({ signal }) => api<Page<DeviceModel>>('/settings/device-models', { query: { size: 500, sort: 'name,asc' }, signal }),
  });
}

/** A saved device; after an add it carries the batch-ingest token, shown once. */
export type SavedGateway = GatewayDetail & { ingestToken?: string };

/** Adds (no id) or saves a device; the form shows the server's field messages, so no toast. */
export const saveGateway = (id: string | undefined, body: unknown) =>
  id
    ? api<SavedGateway>(orgPath(`/gateways/${id}`), { method: 'PUT', body, toast: false })
    : api<SavedGateway>(orgPath('/gateways'), { method: 'POST', body, toast: false });

export const deleteGateway = (id: string) => api<{ result: string; message: string }>(orgPath(`/gateways/${id}`), { method: 'DELETE' });
export const regenerateToken = (id: string) => api<{ ingestToken: string }>(orgPath(`/gateways/${id}/token`), { method: 'POST' });
/** Pairs with a vehicle, from now or (`body.from`) from a time in the past. */
export const pairGateway = (id: string, assetId: string, body?: GatewayPairBody) =>
  api<unknown>(orgPath(`/gateways/${id}/pair/${assetId}`), { method: 'POST', body });
export const unpairGateway = (id: string) => api<unknown>(orgPath(`/gateways/${id}/unpair`), { method: 'POST' });

/** Runs one of the calls above as a mutation: every registry list and detail is read again after it. */
export const useGatewayMutation = <V, R>(fn: (v: V) => Promise<R>) => useRegistryMutation(fn);

/** Ids refused through this organization's forwarding token (decision 0154), newest first; under `registry` so adding a device refreshes them. */
export function useRefusedDevices(enabled: boolean) {
  return useQuery({
    queryKey: ['registry', 'gateways-refused'],
    queryFn: ({ signal }) => api<RefusedDevice[]>(orgPath('/gateways/refused'), { signal }),
    enabled,
    refetchInterval: 30_000,
  });
}

/** Whether this exact id tried to connect (the add form); nothing is listed. */
export function useRefusedLookup(uniqueId: string) {
  return useQuery({
    queryKey: ['registry', 'gateways-refused', 'lookup', uniqueId],
    queryFn: ({ signal }) =>
      api<{ lastAt: string | null; protocol: string | null; attempts: number }>(orgPath('/gateways/refused/lookup'), {
        query: { uniqueId },
        signal,
        toast: false,
      }),
    enabled: uniqueId.length >= 6,
  });
}

/** A device's commands (issue 73): their own keys, not under `registry` (a device's edit does not change them). */
export const deviceCommandKeys = {
  all: ['device-commands'] as const,
  list: (gatewayId: string, page: number) => ['device-commands', gatewayId, page] as const,
};

/** Whether a command still waits for the device (the list is read again every few seconds while one does). */
export const isWaiting = (c: DeviceCommand) => c.status === 'QUEUED' || c.status === 'SENT';

/** The device's commands, newest first, 10 a page; read again every 3 s while any is queued or sent. */
export function useDeviceCommands(gatewayId: string, page: number) {
  return useQuery({
    queryKey: deviceCommandKeys.list(gatewayId, page),
    queryFn: ({ signal }) => api<Page<DeviceCommand>>(orgPath(`/gateways/${gatewayId}/commands`), { query: { page, size: 10 }, signal }),
    refetchInterval: (q) => (q.state.data?.content.some(isWaiting) ? 3000 : false),
  });
}

/** Queues a command; the form shows the server's field message, so no toast. */
export function useSendCommand(gatewayId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api<DeviceCommand>(orgPath(`/gateways/${gatewayId}/commands`), { method: 'POST', body: { text }, toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...deviceCommandKeys.all, gatewayId] }),
  });
}
