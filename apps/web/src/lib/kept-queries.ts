import { clear, createStore as idbStore, entries, set, type UseStore } from 'idb-keyval';
import type { QueryKey } from '@tanstack/react-query';
import { sessionStore } from './auth-store.ts';
import { queryClient } from './query-client.ts';

// The driver's last synced days kept across app restarts (issue 44, decision 0184). The query cache
// lives in sessionStorage (spec sections 7 and 9), which an installed app loses when it is closed; a
// driver who reopens it without signal must still see their status, clocks and the roadside view's
// 8 days. So the signed-in driver's own answers (keys ['hos', orgId, 'driver', userId, …]) are also
// written to IndexedDB, read back at start when the cache lacks them, and cleared at logout.

interface Kept {
  key: QueryKey;
  data: unknown;
  updatedAt: number;
}

let db: UseStore | null = null;
const store = (): UseStore => (db ??= idbStore('fleetline-kept-queries', 'queries'));

/** A key of the signed-in driver's own screen. */
function isDriversOwn(key: QueryKey, userId: string | undefined): boolean {
  return !!userId && key[0] === 'hos' && key[2] === 'driver' && key[3] === userId;
}

let watching = false;

/** Writes one answer of the signed-in driver's own screen to IndexedDB. */
function keep(key: QueryKey, data: unknown, updatedAt: number): void {
  if (!isDriversOwn(key, sessionStore.get().user?.id)) return;
  set(JSON.stringify(key), { key, data, updatedAt } satisfies Kept, store()).catch(() => undefined);
}

/**
 * Restores what was kept (where the cache has nothing newer), then keeps every later answer. It
 * listens before it reads: an answer that arrives while the kept ones are read is kept too, and so is
 * what the cache already had (a page loaded at the driver's screen fetches before this runs).
 */
export async function keepDriverQueries(): Promise<void> {
  if (watching || typeof indexedDB === 'undefined') return;
  watching = true;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    keep(event.query.queryKey, event.query.state.data, event.query.state.dataUpdatedAt);
  });
  const userId = sessionStore.get().user?.id;
  try {
    for (const [, kept] of await entries<string, Kept>(store())) {
      if (!isDriversOwn(kept.key, userId)) continue;
      const state = queryClient.getQueryState(kept.key);
      if (!state?.dataUpdatedAt || state.dataUpdatedAt < kept.updatedAt) queryClient.setQueryData(kept.key, kept.data, { updatedAt: kept.updatedAt });
    }
  } catch {
    // No IndexedDB here: nothing was kept.
  }
  for (const q of queryClient.getQueryCache().getAll()) {
    if (q.state.status === 'success' && q.state.dataUpdatedAt) keep(q.queryKey, q.state.data, q.state.dataUpdatedAt);
  }
}

/** Logout: nothing of the driver's records stays on the device. */
export async function clearKeptQueries(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  await clear(store()).catch(() => undefined);
}
