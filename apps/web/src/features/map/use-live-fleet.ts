import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { currentUser, homePath } from '../../lib/auth-store.ts';
import { fetchLiveVehicles, fetchStreamTicket } from '../../lib/map/map-api.ts';
import { onStreamRevoked } from '../../lib/stream-revoked.ts';
import { connectLiveStream, liveStreamUrl, LiveStore } from './live-store.ts';

export type StreamState = 'open' | 'reconnecting' | 'closed';

/**
 * The organization's vehicles where they are now: the first paint from REST, then the stream
 * (snapshot and changes), each connection with a fresh single-use ticket. A stream the server
 * revokes for want of permission sends the user home.
 */
export function useLiveFleet(orgId: string | null) {
  const navigate = useNavigate();
  const store = useMemo(() => new LiveStore(), []);
  const live = useSyncExternalStore(store.subscribe, store.getState);
  const [streamState, setStreamState] = useState<StreamState>('reconnecting');
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (!orgId) return;
    const ac = new AbortController();
    fetchLiveVehicles(orgId, ac.signal)
      .then((r) => {
        if (!store.getState().loaded) store.setSnapshot(r.vehicles);
      })
      .catch((e: unknown) => {
        if (!ac.signal.aborted) setLoadError(e instanceof Error ? e.message : 'The vehicles could not be loaded');
      });
    const stop = connectLiveStream(store, {
      url: async (signal) => liveStreamUrl(orgId, (await fetchStreamTicket(orgId, signal)).ticket),
      onStatus: setStreamState,
      // No permission or no such organization will not change by retrying (a 401 has already
      // tried a token refresh, and signs out when that fails).
      isFatal: (e) => e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429,
      onRevoked: (revoked) => {
        if (revoked.reason === 'forbidden') {
          // ASSET_LIST or the organization was withdrawn: the fleet on screen is no longer the user's to see.
          onStreamRevoked({ ...revoked, message: 'You no longer have access to the live map.' });
          void navigate(homePath(currentUser()), { replace: true });
        } else onStreamRevoked(revoked);
      },
    });
    return () => {
      ac.abort();
      stop();
    };
  }, [orgId, store, navigate]);

  return { live, streamState, loadError };
}

/** Re-renders every `ms` (the "last update" ages on screen). */
export function useTick(ms: number): void {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms]);
}
