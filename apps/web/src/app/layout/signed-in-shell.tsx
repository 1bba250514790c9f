import { useCallback, useEffect, useMemo, useState } from 'react';
import { AppShell, ScrollArea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import type { CurrentUser } from '@fleet/api-contract';
import { api, setSessionExpiredHandler } from '../../lib/api-client.ts';
import { setCurrentUser, useCurrentUser } from '../../lib/auth-store.ts';
import { accessUser, useControlledOrganization } from '../../lib/control-store.ts';
import { useDarkModeFlagSync, useEnforceDarkModeFlag } from '../../lib/color-scheme.ts';
import { logout } from '../../lib/session.ts';
import { notify } from '../../lib/notifications-store.ts';
import { takeSessionEnded } from '../../lib/session-ended.ts';
import { local, STORAGE_KEYS } from '../../lib/storage.ts';
import { BREAKPOINTS } from '../../lib/theme.ts';
import { NotificationToasts } from '../../components/notification-toasts.tsx';
import { SearchSpotlight } from '../../features/search/search-spotlight.tsx';
import { filterMenu, HEADER_NAV, SIDE_MENU, translateMenu, withLabel } from '../menu.ts';
import { unreadMessagesQuery } from '../../features/messages/messages-api.ts';
import { LOGIN_PATH } from '../guard.ts';
import { BottomNav } from './bottom-nav.tsx';
import { ControlBanner } from './control-banner.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { GlobalLoadingBar } from './global-loading-bar.tsx';
import { Header } from './header.tsx';
import { ProfileDrawer } from './profile-drawer.tsx';
import { SideMenu } from './side-menu.tsx';

export const FIXED_SCROLL_CLASS = 'fixed-scroll';

/** Collapsed state is remembered; without a stored choice it starts collapsed below the tablet breakpoint. */
function initialCollapsed(): boolean {
  const stored = local.get(STORAGE_KEYS.navCollapsed);
  if (stored !== null) return stored === '1';
  return typeof window !== 'undefined' && window.innerWidth < BREAKPOINTS.sm;
}

/** Keeps the stored user current (permissions or names changed elsewhere). */
function useCurrentUserRefresh(user: CurrentUser | null) {
  const { data } = useQuery({
    queryKey: ['auth', 'me', user?.id],
    queryFn: ({ signal }) => api<CurrentUser>('/auth/me', { signal, toast: false }),
    enabled: !!user,
    staleTime: 60_000,
  });
  useEffect(() => {
    if (data && JSON.stringify(data) !== local.get(STORAGE_KEYS.user)) setCurrentUser(data);
  }, [data]);
}

/** The shell around every screen: header, side menu, bottom navigation, banners, toasts. */
export function AppLayout() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINTS.xs - 0.02}px)`, typeof window !== 'undefined' && window.innerWidth < BREAKPOINTS.xs) ?? false;
  const [collapsed, setCollapsed] = useState(initialCollapsed);
  const [mobileOpened, setMobileOpened] = useState(false);
  const [profileOpened, setProfileOpened] = useState(false);

  useDarkModeFlagSync();
  useEnforceDarkModeFlag();
  useCurrentUserRefresh(user);

  const doLogout = useCallback(async () => {
    setProfileOpened(false);
    await logout();
    await navigate(LOGIN_PATH, { replace: true });
  }, [navigate]);

  // A refresh that fails ends the session (spec section 4): there is none left to end on the server.
  // When the server ended it (a revoked stream, log out everywhere), the sign-in page says why.
  const endSession = useCallback(async () => {
    const ended = takeSessionEnded();
    await logout({ server: false });
    await navigate(LOGIN_PATH, { replace: true });
    if (ended) notify({ type: ended.type, title: ended.message, category: 'Signed out', isClosable: true });
  }, [navigate]);
  useEffect(() => {
    setSessionExpiredHandler(() => void endSession());
  }, [endSession]);

  // The mobile menu closes on navigation.
  useEffect(() => setMobileOpened(false), [pathname]);
  useEffect(() => {
    document.body.classList.toggle(FIXED_SCROLL_CLASS, mobile && mobileOpened);
    return () => document.body.classList.remove(FIXED_SCROLL_CLASS);
  }, [mobile, mobileOpened]);

  const toggleCollapsed = () =>
    setCollapsed((c) => {
      local.set(STORAGE_KEYS.navCollapsed, c ? '0' : '1');
      return !c;
    });

  // A super administrator in control mode sees the menus of the organization they control.
  const controlled = useControlledOrganization();
  const access = accessUser(user, controlled);
  // Unread messages from drivers beside the office's Messages item (issue 44); the stream keeps it current.
  const unread = useQuery({ ...unreadMessagesQuery(access?.organization?.id ?? ''), enabled: !!access?.organization && !!access.permissions.includes('MESSAGE_LIST') });
  const unreadLabel = unread.data?.unread ? String(unread.data.unread) : undefined;
  const { t, i18n } = useTranslation();
  const side = useMemo(() => translateMenu(withLabel(filterMenu(SIDE_MENU, accessUser(user, controlled)), '/messages', unreadLabel), t), [user, controlled, unreadLabel, t, i18n.language]);
  const nav = useMemo(() => translateMenu(filterMenu(HEADER_NAV, accessUser(user, controlled)), t), [user, controlled, t, i18n.language]);
  const signedIn = !!user;
  const showNavbar = signedIn && side.length > 0;
  const showFooter = signedIn && mobile && nav.length > 0;
  const navCollapsed = collapsed && !mobile;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={showNavbar ? { width: navCollapsed ? 72 : 264, breakpoint: 'xs', collapsed: { mobile: !mobileOpened } } : undefined}
      footer={showFooter ? { height: 64 } : undefined}
      padding={0}
    >
      <GlobalLoadingBar />
      <AppShell.Header>
        <Header
          user={user}
          mobile={mobile}
          mobileOpened={mobileOpened}
          onToggleMobile={() => setMobileOpened((o) => !o)}
          collapsed={navCollapsed}
          onToggleCollapsed={toggleCollapsed}
          nav={nav}
          onOpenProfile={() => setProfileOpened(true)}
        />
      </AppShell.Header>
      {showNavbar && (
        <AppShell.Navbar p={navCollapsed ? 'xs' : 'sm'} data-testid="side-menu" data-collapsed={navCollapsed || undefined}>
          <AppShell.Section grow component={ScrollArea}>
            <SideMenu items={side} collapsed={navCollapsed} onNavigate={() => setMobileOpened(false)} />
          </AppShell.Section>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <ControlBanner />
        {signedIn && <OfflineBanner />}
        <div id="content" style={signedIn ? { padding: 'var(--mantine-spacing-md)', maxWidth: 1600, margin: '0 auto' } : undefined}>
          <Outlet />
        </div>
      </AppShell.Main>
      {showFooter && (
        <AppShell.Footer>
          <BottomNav items={nav} />
        </AppShell.Footer>
      )}
      {user && <ProfileDrawer user={user} opened={profileOpened} onClose={() => setProfileOpened(false)} onLogout={() => void doLogout()} />}
      <NotificationToasts />
      {user && <SearchSpotlight />}
    </AppShell>
  );
}
