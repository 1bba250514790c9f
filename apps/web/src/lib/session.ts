import type { SignInResponse } from '@fleet/api-contract';
import { api } from './api-client.ts';
import { clearSession, sessionStore, signIn } from './auth-store.ts';
import { clearControlledOrganization } from './control-store.ts';
import { createStore } from './create-store.ts';
import { clearNotifications } from './notifications-store.ts';
import { clearQueryCache } from './query-client.ts';

/** Work the global loading bar shows besides queries and navigation (logout). */
export const busyStore = createStore(0);

async function busy<T>(work: () => Promise<T>): Promise<T> {
  busyStore.set((n) => n + 1);
  try {
    return await work();
  } finally {
    busyStore.set((n) => n - 1);
  }
}

/** Starts a session from a sign-in or registration answer (the previous user's cache is dropped first). */
export async function startSession(res: SignInResponse): Promise<void> {
  await clearQueryCache();
  clearNotifications();
  clearControlledOrganization();
  signIn(res);
}

/**
 * Spec section 4, logout: loading indicator, notifications cleared, tokens removed, user reset.
 * The server call revokes the refresh token; it is best effort (an expired session still logs out here).
 * `server: false` leaves it out, for a session the server already ended (a refused refresh).
 * Navigation to login is the caller's (the router's) job.
 */
export async function logout({ server = true }: { server?: boolean } = {}): Promise<void> {
  await busy(async () => {
    const { refreshToken, accessToken } = sessionStore.get();
    if (accessToken && server) {
      await api('/auth/logout', { method: 'POST', body: refreshToken ? { refreshToken } : {}, toast: false, auth: true }).catch(() => undefined);
    }
    clearNotifications();
    clearControlledOrganization();
    clearSession();
    await clearQueryCache();
    // The driver's records kept for offline starts (loaded only when a driver's screen ran).
    await import('./kept-queries.ts').then((m) => m.clearKeptQueries());
  });
}
