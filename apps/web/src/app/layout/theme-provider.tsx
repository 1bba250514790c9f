import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { colorSchemeManager, useDarkModeFlag } from '../../lib/color-scheme-base.ts';
import { cssVariablesResolver, theme } from '../../lib/theme.ts';

/** The theme for the app and the sign-in page's own bundle alike: dark mode only when the flag allows it (spec section 3). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const flag = useDarkModeFlag();
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      forceColorScheme={flag.isEnabled ? undefined : 'light'}
    >
      {children}
    </MantineProvider>
  );
}
