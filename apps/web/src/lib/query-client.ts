import { onlineManager, QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { ApiError } from './api-client.ts';
import { STORAGE_KEYS } from './storage.ts';

/** Spec sections 7 and 9: GET results are cached in sessionStorage for 2 hours. */
export const CACHE_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: CACHE_MAX_AGE_MS,
      staleTime: 30_000,
      // A 4xx will not get better by asking again; network blips may.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});

// TanStack Query hears the browser's online and offline events but starts out online: a page opened
// with no network would fetch, fail and show errors instead of what it last had (issue 44).
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine !== false);

export const queryPersister = createSyncStoragePersister({
  storage: typeof window === 'undefined' ? undefined : window.sessionStorage,
  key: STORAGE_KEYS.queryCache,
  throttleTime: 200,
});

/** Logout: nothing of the previous user stays in memory or in sessionStorage. */
export async function clearQueryCache(): Promise<void> {
  queryClient.clear();
  await queryPersister.removeClient();
}
