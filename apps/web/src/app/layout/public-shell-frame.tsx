import type { ReactNode } from 'react';
import { AppShell, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/logo.tsx';
import type { RenderLink } from '../../components/render-link.tsx';
import { PlainThemeToggle } from './theme-toggle.tsx';

/**
 * The frame of the signed-out screens (sign-in, sign-up, password reset): the logo, the theme switch
 * and the link to the other form. Kept apart from the signed-in shell so the sign-in page loads
 * none of the office's menus, search or notifications, and without the router so the sign-in page's
 * own bundle shows the same frame (issue 67).
 */
export function PublicShellFrame({
  children,
  pathname,
  link,
  onFirstUse,
}: {
  children: ReactNode;
  pathname: string;
  link: RenderLink;
  onFirstUse?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {link('/')({ 'aria-label': t('shell.home'), children: <Logo /> })}
          <Group gap="xs" wrap="nowrap">
            <PlainThemeToggle />
            {pathname === '/' ? (
              <Button renderRoot={link('/getting-started')}>{t('shell.getStarted')}</Button>
            ) : (
              <Button renderRoot={link('/')} variant="default">
                {t('auth.logInLink')}
              </Button>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      {/* The first key or tap on a form: the signed-in shell starts loading while the user types. */}
      <AppShell.Main onFocusCapture={onFirstUse} onPointerDownCapture={onFirstUse}>
        <div id="content">{children}</div>
      </AppShell.Main>
    </AppShell>
  );
}
