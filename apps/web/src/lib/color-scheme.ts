import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { useCurrentUser } from './auth-store.ts';
import { darkModeFlagStore } from './color-scheme-base.ts';
import { useOrgSettings } from './org-settings.ts';
import { local, STORAGE_KEYS } from './storage.ts';

export * from './color-scheme-base.ts';

interface FeatureFlag {
  key: string;
  isEnabled: boolean;
  defaultTheme: 'light' | 'dark';
}

/** GET /settings read without zod (on every page's first load, issue 67): a flag of another shape is an error, as the schema made it. */
export function readSettingsResponse(v: unknown): { featureFlags: FeatureFlag[] } {
  const flags = (v as { featureFlags?: unknown } | null)?.featureFlags;
  const ok = (f: unknown): f is FeatureFlag => {
    const x = f as Partial<FeatureFlag> | null;
    return !!x && typeof x.key === 'string' && typeof x.isEnabled === 'boolean' && (x.defaultTheme === 'light' || x.defaultTheme === 'dark');
  };
  if (!Array.isArray(flags) || !flags.every(ok)) throw new Error('The settings answer is not readable');
  return { featureFlags: flags.map(({ key, isEnabled, defaultTheme }) => ({ key, isEnabled, defaultTheme })) };
}

export const settingsQueryOptions = {
  queryKey: ['settings', 'feature-flags'] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => readSettingsResponse(await api<unknown>('/settings', { signal, toast: false })),
  staleTime: 5 * 60 * 1000,
};

/**
 * Fetches the flag for the signed-in user and keeps the stored copy current. The organization's
 * settings, when read (and just saved by an administrator), are the fresher copy of the same flag.
 */
export function useDarkModeFlagSync(): void {
  const user = useCurrentUser();
  const { data } = useQuery({ ...settingsQueryOptions, enabled: !!user });
  const org = useOrgSettings().data?.darkMode;
  useEffect(() => {
    const f = org ?? data?.featureFlags.find((x) => x.key === 'darkMode');
    if (!f) return;
    const flag = { isEnabled: f.isEnabled, defaultTheme: f.defaultTheme };
    local.setJson(STORAGE_KEYS.darkModeFlag, flag);
    darkModeFlagStore.set((prev) => (prev && prev.isEnabled === flag.isEnabled && prev.defaultTheme === flag.defaultTheme ? prev : flag));
  }, [data, org]);
}
