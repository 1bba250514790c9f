/** Browser-storage keys in one place, so logout can clear exactly what the app wrote. */
export const STORAGE_KEYS = {
  accessToken: 'fleet.accessToken',
  refreshToken: 'fleet.refreshToken',
  user: 'fleet.user',
  controlledOrganization: 'fleet.controlledOrganization',
  navCollapsed: 'fleet.navCollapsed',
  colorScheme: 'fleet.colorScheme',
  // '1' while the stored scheme is the organization's default (or its forced light), not the user's choice.
  colorSchemeFromOrganization: 'fleet.colorSchemeFromOrganization',
  darkModeFlag: 'fleet.darkModeFlag',
  shownOnce: 'fleet.notificationsShownOnce',
  queryCache: 'fleet.queryCache',
  chunkReload: 'fleet.chunkReloaded',
} as const;

/** localStorage that never throws (private mode, quota, disabled storage). */
export const local = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      /* storage unavailable: the value lives for this page only */
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      /* nothing stored */
    }
  },
  getJson<T>(key: string): T | null {
    const raw = local.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: string, value: unknown): void {
    local.set(key, JSON.stringify(value));
  },
};
