import type { CurrentUser, SignInResponse, Tokens } from '@fleet/api-contract';
import { isSuperAdmin } from '@fleet/api-contract/permissions';
import { createStore, useStore } from './create-store.ts';
import { local, STORAGE_KEYS } from './storage.ts';

export interface Session {
  user: CurrentUser | null;
  accessToken: string | null;
  refreshToken: string | null;
}

function readSession(): Session {
  if (typeof window === 'undefined') return { user: null, accessToken: null, refreshToken: null };
  const accessToken = local.get(STORAGE_KEYS.accessToken);
  const refreshToken = local.get(STORAGE_KEYS.refreshToken);
  const user = local.getJson<CurrentUser>(STORAGE_KEYS.user);
  // A half-written session (no refresh token or no user) counts as signed out.
  if (!refreshToken || !user) return { user: null, accessToken: null, refreshToken: null };
  return { user, accessToken, refreshToken };
}

/** Spec section 4: tokens (and the current user) live in localStorage, so a reload keeps the session. */
export const sessionStore = createStore<Session>(readSession());

export function signIn(res: SignInResponse): void {
  local.set(STORAGE_KEYS.accessToken, res.accessToken);
  local.set(STORAGE_KEYS.refreshToken, res.refreshToken);
  local.setJson(STORAGE_KEYS.user, res.user);
  sessionStore.set({ user: res.user, accessToken: res.accessToken, refreshToken: res.refreshToken });
}

export function setTokens(tokens: Tokens): void {
  local.set(STORAGE_KEYS.accessToken, tokens.accessToken);
  local.set(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  sessionStore.set((s) => ({ ...s, ...tokens }));
}

export function setCurrentUser(user: CurrentUser): void {
  local.setJson(STORAGE_KEYS.user, user);
  sessionStore.set((s) => ({ ...s, user }));
}

/** Forgets the session in this browser (the server call, cache and notifications are the caller's job). */
export function clearSession(): void {
  local.remove(STORAGE_KEYS.accessToken);
  local.remove(STORAGE_KEYS.refreshToken);
  local.remove(STORAGE_KEYS.user);
  sessionStore.set({ user: null, accessToken: null, refreshToken: null });
}

export const currentUser = (): CurrentUser | null => sessionStore.get().user;

export function useCurrentUser(): CurrentUser | null {
  return useStore(sessionStore).user;
}

/**
 * Spec section 4: super administrators land on the organizations list, everyone else on the dashboard;
 * a driver (their own HoS codes and a driver record, no dashboard) on their driver screen (decision 0115).
 */
export function homePath(user: CurrentUser | null): string {
  if (!user) return '/';
  if (isSuperAdmin(user)) return '/administration/organizations';
  if (user.driverId && user.permissions.includes('HOS_SELF_READ') && !user.permissions.includes('ORG_DASH_READ')) return '/driver';
  return '/dashboard';
}

// Another tab signing in or out changes this tab too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === STORAGE_KEYS.refreshToken || e.key === STORAGE_KEYS.user || e.key === STORAGE_KEYS.accessToken) {
      sessionStore.set(readSession());
    }
  });
}
