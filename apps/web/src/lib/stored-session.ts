import { STORAGE_KEYS } from './storage.ts';

/** Whether a session is stored in this browser (auth-store's rule: a refresh token and a user), for the page's entry. */
export function hasStoredSession(): boolean {
  try {
    return !!window.localStorage.getItem(STORAGE_KEYS.refreshToken) && !!window.localStorage.getItem(STORAGE_KEYS.user);
  } catch {
    return false;
  }
}
