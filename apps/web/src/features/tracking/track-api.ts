import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublicTracking } from '@fleet/api-contract/tracking';

// The public tracking page's one call (issue 69): no session, no API client (its bundle stays small,
// decision 0286). A 404 is the end of the link (expired, revoked and unknown tokens answer alike).

export const TRACK_REFRESH_MS = 60_000;

export type TrackState = { kind: 'loading' } | { kind: 'expired' } | { kind: 'failed' } | { kind: 'ready'; data: PublicTracking; at: Date; stale: boolean };

/** The token of `/track/{token}`, or null. */
export function tokenFromPath(pathname: string): string | null {
  const m = /^\/track\/([^/?#]+)\/?$/.exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}

async function fetchTracking(token: string, signal: AbortSignal): Promise<PublicTracking | 'expired'> {
  const res = await fetch(`/api/v1/public/tracking/${encodeURIComponent(token)}`, { signal, headers: { accept: 'application/json' } });
  if (res.status === 404) return 'expired';
  if (!res.ok) throw new Error(`tracking answered ${res.status}`);
  return (await res.json()) as PublicTracking;
}

/**
 * The tracking answer, read again every minute and when the page comes back into view. A refresh
 * keeps what is shown until the new answer is in (no flicker); a failed one keeps it, marked stale.
 */
export function useTracking(token: string | null): { state: TrackState; retry: () => void } {
  const [state, setState] = useState<TrackState>(token ? { kind: 'loading' } : { kind: 'expired' });
  const inFlight = useRef<AbortController | null>(null);

  const load = useCallback(async () => {
    if (!token) return;
    inFlight.current?.abort();
    const ctl = new AbortController();
    inFlight.current = ctl;
    try {
      const answer = await fetchTracking(token, ctl.signal);
      if (ctl.signal.aborted) return;
      setState(answer === 'expired' ? { kind: 'expired' } : { kind: 'ready', data: answer, at: new Date(), stale: false });
    } catch {
      if (ctl.signal.aborted) return;
      setState((prev) => (prev.kind === 'ready' ? { ...prev, stale: true } : { kind: 'failed' }));
    }
  }, [token]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, TRACK_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      inFlight.current?.abort();
    };
  }, [load]);

  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    void load();
  }, [load]);
  return { state, retry };
}
