import { ActionIcon, useComputedColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDarkModeFlag, useDelayedColorSchemeToggle } from '../../lib/color-scheme-base.ts';

/** The light/dark switch's state: shown only when the dark-mode flag allows it (spec section 3). */
export function useThemeToggle() {
  const flag = useDarkModeFlag();
  const scheme = useComputedColorScheme('light');
  const { toggle } = useDelayedColorSchemeToggle();
  const { t } = useTranslation();
  const dark = scheme === 'dark';
  return { shown: flag.isEnabled, dark, label: dark ? t('shell.lightTheme') : t('shell.darkTheme'), toggle };
}

/**
 * The switch as an icon button named by the browser's own tooltip (`title`), for the signed-out
 * header: Mantine's Tooltip would bring the floating-ui positioning code to the sign-in page.
 */
export function PlainThemeToggle() {
  const { shown, dark, label, toggle } = useThemeToggle();
  if (!shown) return null;
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} title={label} onClick={toggle} data-testid="theme-toggle">
      {dark ? <IconSun size={20} /> : <IconMoon size={20} />}
    </ActionIcon>
  );
}
