import { useQuery } from '@tanstack/react-query';
import type { WebConfig } from '@fleet/api-contract';
import { api } from './api-client.ts';

/** Query key of the server's run-time settings (read by the map's base layer and the help page). */
export const webConfigKey = ['web-config'] as const;

/**
 * The server's run-time settings (MAP_STYLE_URL is read when the server starts, not when the app
 * is built). Never persisted across restarts of the tab's session beyond the usual cache.
 */
export function useWebConfig() {
  return useQuery({
    queryKey: webConfigKey,
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => api<WebConfig>('/web-config', { signal, toast: false }),
  });
}
