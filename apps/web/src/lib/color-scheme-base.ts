// The colour scheme without the API client: the sign-in page's own bundle (issue 67) uses it as the
// app does; color-scheme.ts adds the flag's sync with the server.

import { useCallback, useEffect, useRef } from 'react';
import { localStorageColorSchemeManager, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { createStore, useStore } from './create-store.ts';
import { local, STORAGE_KEYS } from './storage.ts';
import { THEME_SWITCH_DELAY_MS } from './theme.ts';

/** Spec section 3: the dark-mode feature flag (default: disabled, light). */
export interface DarkModeFlag {
  isEnabled: boolean;
  defaultTheme: 'light' | 'dark';
}
export const DEFAULT_DARK_MODE_FLAG: DarkModeFlag = { isEnabled: false, defaultTheme: 'light' };

export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });

/** The last flag the server sent, so a reload (and the login screen) starts with the right theme. */
/** Null until the server has answered once in this browser. */
export const darkModeFlagStore = createStore<DarkModeFlag | null>(
  typeof window === 'undefined' ? null : local.getJson<DarkModeFlag>(STORAGE_KEYS.darkModeFlag),
);

export function useDarkModeFlag(): DarkModeFlag {
  return useStore(darkModeFlagStore) ?? DEFAULT_DARK_MODE_FLAG;
}

/** Whether this browser's user picked a theme with the toggle (then the organization's default no longer applies). */
export function hasChosenColorScheme(): boolean {
  const stored = local.get(STORAGE_KEYS.colorScheme);
  return (stored === 'light' || stored === 'dark') && local.get(STORAGE_KEYS.colorSchemeFromOrganization) !== '1';
}

/** Applies a scheme the organization decided (not the user), so a later default still reaches this user. */
function setOrganizationScheme(setColorScheme: (s: MantineColorScheme) => void, scheme: MantineColorScheme): void {
  setColorScheme(scheme);
  local.set(STORAGE_KEYS.colorSchemeFromOrganization, '1');
}

/**
 * The scheme of a user who has not picked one with the toggle, under the organization's default.
 * A device set to dark is the person's own choice and wins over a light default; a device that says
 * light cannot be told from one never set (light is every system's default), so there an
 * organization's dark default wins. Hence: dark when either the organization or the device says
 * dark, which is Mantine's 'auto' (following the device, live) under a light default.
 */
export function schemeWithoutChoice(defaultTheme: DarkModeFlag['defaultTheme']): MantineColorScheme {
  return defaultTheme === 'dark' ? 'dark' : 'auto';
}

/**
 * Spec section 4: with the flag off the stored scheme is forced to light; with it on, a user who has
 * not chosen a theme follows the device's setting and the organization's default
 * (`schemeWithoutChoice`; the stored copy only paints the next reload), and a user's own choice is
 * kept.
 */
export function useEnforceDarkModeFlag(): void {
  const known = useStore(darkModeFlagStore);
  const { setColorScheme } = useMantineColorScheme();
  useEffect(() => {
    // Until the server has said, the provider shows light without touching the stored choice.
    if (!known) return;
    if (!known.isEnabled) {
      colorSchemeManager.set('light');
      setOrganizationScheme(setColorScheme, 'light');
    } else if (!hasChosenColorScheme()) {
      setOrganizationScheme(setColorScheme, schemeWithoutChoice(known.defaultTheme));
    }
  }, [known, setColorScheme]);
}

/** Toggle that switches the scheme about 350 ms after the click (spec section 4). */
export function useDelayedColorSchemeToggle(): { toggle: () => void; pending: boolean } {
  const { setColorScheme } = useMantineColorScheme();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef(false);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const toggle = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    pending.current = true;
    timer.current = setTimeout(() => {
      pending.current = false;
      const dark = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark';
      local.remove(STORAGE_KEYS.colorSchemeFromOrganization);
      setColorScheme(dark ? 'light' : 'dark');
    }, THEME_SWITCH_DELAY_MS);
  }, [setColorScheme]);
  return { toggle, pending: pending.current };
}
