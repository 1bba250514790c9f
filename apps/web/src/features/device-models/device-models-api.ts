import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceModel, Page, PageQuery } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { deviceModelKeys } from '../../lib/device-model-keys.ts';

// The device-model catalogue screen's calls (super administrator): a change refreshes every
// catalogue query, the device form's model choices included.

export function useDeviceModelList(query: PageQuery) {
  return useQuery({
    queryKey: deviceModelKeys.list(query),
    queryFn: ({ signal }) => api<Page<DeviceModel>>('/settings/device-models', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Adds (no id) or saves a model; the form shows the server's field messages, so no toast. */
const saveDeviceModel = ({ id, body }: { id?: string; body: unknown }) =>
  id
    ? api<DeviceModel>(`/settings/device-models/${id}`, { method: 'PUT', body, toast: false })
    : api<DeviceModel>('/settings/device-models', { method: 'POST', body, toast: false });

const deleteDeviceModel = (id: string) => api<null>(`/settings/device-models/${id}`, { method: 'DELETE' });

function useCatalogueMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: deviceModelKeys.all }) });
}

export const useSaveDeviceModel = () => useCatalogueMutation(saveDeviceModel);
export const useDeleteDeviceModel = () => useCatalogueMutation(deleteDeviceModel);
