import type { QueryClient, QueryKey } from '@tanstack/react-query';

// Duty-status changes pushed by the server (the notification stream's `hos` event, decision 0134):
// the screens that show drivers' statuses and clocks refetch at once instead of at their next minute.
// Each feature registers the keys of its screens (the HoS feature its office views, the dashboard
// its counters) when its api file loads; a screen that is not loaded has no query to refetch.

type LiveKeys = (orgId: string) => QueryKey[];
const registered = new Set<LiveKeys>();

/** Adds a feature's keys to those refetched on each push; answers the function that removes them. */
export function registerHosLiveKeys(keys: LiveKeys): () => void {
  registered.add(keys);
  return () => registered.delete(keys);
}

/** The queries a change of any driver's records can move: only those on screen are refetched. */
const liveKeys = (orgId: string): QueryKey[] => [...registered].flatMap((keys) => keys(orgId));

/**
 * Answers a function to call on each push. One refetch round runs at a time: a push during a round
 * asks for one more round after it, so a busy fleet costs each screen at most one request in flight,
 * and the last change is always shown.
 */
export function hosRefresher(qc: QueryClient, orgId: string): () => void {
  let running = false;
  let again = false;
  const round = async (): Promise<void> => {
    running = true;
    try {
      do {
        again = false;
        await Promise.all(liveKeys(orgId).map((queryKey) => qc.refetchQueries({ queryKey, type: 'active' }).catch(() => undefined)));
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => {
    if (running) again = true;
    else void round();
  };
}
