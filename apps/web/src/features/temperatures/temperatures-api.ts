import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoadTemperatures, ReeferSettingsInput, TrailerSensors, TrailerTemperatures } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';

// The reefer temperatures' calls (issue 73, contract packages/api-contract/src/temperatures.ts): a
// load's record and settings, its PDF log, a trailer's chart and sensors. Keys under ['temperatures', orgId].

export const temperatureKeys = {
  all: (orgId: string | null) => ['temperatures', orgId] as const,
  load: (orgId: string | null, loadId: string) => ['temperatures', orgId, 'load', loadId] as const,
  trailer: (orgId: string | null, trailerId: string) => ['temperatures', orgId, 'trailer', trailerId] as const,
};

const loadPath = (orgId: string, loadId: string, rest: string) => orgPathFor(orgId, `/loads/${encodeURIComponent(loadId)}${rest}`);
const trailerPath = (orgId: string, trailerId: string, rest: string) => orgPathFor(orgId, `/assets/${encodeURIComponent(trailerId)}${rest}`);

/** Readings come in every few minutes: the chart reads them again each minute while open. */
const REFRESH_MS = 60_000;

export function useLoadTemperatures(loadId: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery(
    queryOptions({
      queryKey: temperatureKeys.load(orgId, loadId),
      queryFn: ({ signal }) => api<LoadTemperatures>(loadPath(orgId ?? '', loadId, '/temperatures'), { signal }),
      enabled: !!orgId,
      refetchInterval: REFRESH_MS,
    }),
  );
}

export function useTrailerTemperatures(trailerId: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery(
    queryOptions({
      queryKey: temperatureKeys.trailer(orgId, trailerId),
      queryFn: ({ signal }) => api<TrailerTemperatures>(trailerPath(orgId ?? '', trailerId, '/temperatures'), { signal }),
      enabled: !!orgId,
      refetchInterval: REFRESH_MS,
    }),
  );
}

/** Saves a load's set point, tolerance (°C) and delay; errors come back untoasted for the form. */
export function useSaveReeferSettings(loadId: string) {
  const orgId = useEffectiveOrganizationId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ReeferSettingsInput) =>
      api<LoadTemperatures>(loadPath(orgId ?? '', loadId, '/temperatures/settings'), { method: 'PUT', body, toast: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: temperatureKeys.all(orgId) }),
  });
}

/** Saves which of a trailer's sensors is return air, supply air or a zone. */
export function useSaveTrailerSensors(trailerId: string) {
  const orgId = useEffectiveOrganizationId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TrailerSensors) =>
      api<TrailerTemperatures>(trailerPath(orgId ?? '', trailerId, '/temperature-sensors'), { method: 'PUT', body, toast: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: temperatureKeys.all(orgId) }),
  });
}

/** Downloads the load's temperature log (readings every `interval` minutes). */
export async function downloadTemperatureLog(orgId: string, loadId: string, loadNumber: string, interval: number): Promise<void> {
  const pdf = await api<Blob>(loadPath(orgId, loadId, '/temperature-log.pdf'), { query: { interval }, blob: true });
  saveFile(pdf, `temperature-log-${loadNumber}.pdf`);
}
