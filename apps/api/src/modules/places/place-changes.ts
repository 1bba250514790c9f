// Places changed through this instance's API: the geofence follower reloads the organization's
// index at once. Other instances see the change within PLACES_RECHECK_MS (decision 0162).

type Listener = (orgId: string) => void;
const listeners = new Set<Listener>();

/** Calls `fn` with the organization whenever its places change here; returns the unsubscribe. */
export function onPlacesChanged(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function placesChanged(orgId: string): void {
  for (const fn of listeners) fn(orgId);
}
