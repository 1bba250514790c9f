import { Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AppShell } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { CurrentUser } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { setCurrentUser } from '../../lib/auth-store.ts';
import { accessUser, useControlledOrganization } from '../../lib/control-store.ts';
import { logout } from '../../lib/session.ts';
import { local, STORAGE_KEYS } from '../../lib/storage.ts';
import { BREAKPOINTS } from '../../lib/theme.ts';
import { ConfirmHost } from '../../components/confirm-dialog.tsx';
import { lazyPart, useOnceTrue } from '../../components/on-first-use.ts';
import { filterMenu, HEADER_NAV, SIDE_MENU, translateMenu, withLabel } from '../menu.ts';
import { unreadMessagesQuery } from '../../features/messages/messages-api.ts';
import { LOGIN_PATH } from '../guard.ts';
import { BottomNav } from './bottom-nav.tsx';
import { ControlBanner } from './control-banner.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { Header } from './header.tsx';
import { SearchOnDemand } from './search-on-demand.tsx';
import { SideMenu } from './side-menu.tsx';
import sideClasses from './side-menu.module.css';

// The profile drawer loads on the avatar's first tap (issue 67).
const ProfileDrawer = lazyPart(() => import('./profile-drawer.tsx').then((m) => ({ default: m.ProfileDrawer })));

const FIXED_SCROLL_CLASS = 'fixed-scroll';

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

/**
 * The signed-in shell around every screen: header, side menu, bottom navigation, banners, search,
 * the profile drawer. A chunk of its own (loaded by app-layout.tsx), so the sign-in page does not
 * download the office's menus.
 */
export default function SignedInShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINTS.xs - 0.02}px)`, typeof window !== 'undefined' && window.innerWidth < BREAKPOINTS.xs) ?? false;
  const [collapsed, setCollapsed] = useState(initialCollapsed);
  const [mobileOpened, setMobileOpened] = useState(false);
  const [profileOpened, setProfileOpened] = useState(false);
  const profileUsed = useOnceTrue(profileOpened);

  useCurrentUserRefresh(user);

  const doLogout = useCallback(async () => {
    setProfileOpened(false);
    await logout();
    await navigate(LOGIN_PATH, { replace: true });
  }, [navigate]);

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
  const unread = useQuery({
    ...unreadMessagesQuery(access?.organization?.id ?? ''),
    enabled: !!access?.organization && !!access.permissions.includes('MESSAGE_LIST'),
  });
  const unreadLabel = unread.data?.unread ? String(unread.data.unread) : undefined;
  const { t } = useTranslation(); // a new `t` on each change of language: the menus below follow it
  const side = useMemo(
    () => translateMenu(withLabel(filterMenu(SIDE_MENU, accessUser(user, controlled)), '/messages', unreadLabel), t),
    [user, controlled, unreadLabel, t],
  );
  const nav = useMemo(() => translateMenu(filterMenu(HEADER_NAV, accessUser(user, controlled)), t), [user, controlled, t]);
  const showNavbar = side.length > 0;
  const showFooter = mobile && nav.length > 0;
  const navCollapsed = collapsed && !mobile;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={showNavbar ? { width: navCollapsed ? 72 : 264, breakpoint: 'xs', collapsed: { mobile: !mobileOpened } } : undefined}
      footer={showFooter ? { height: 64 } : undefined}
      padding={0}
    >
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
          {/* The browser's own scrolling: Mantine's ScrollArea takes floating-ui into every first load (issue 67). */}
          <AppShell.Section grow className={sideClasses.scroll}>
            <SideMenu items={side} collapsed={navCollapsed} onNavigate={() => setMobileOpened(false)} />
          </AppShell.Section>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <ControlBanner />
        <OfflineBanner />
        <div id="content" style={{ padding: 'var(--mantine-spacing-md)', maxWidth: 1600, margin: '0 auto' }}>
          {children}
        </div>
      </AppShell.Main>
      {showFooter && (
        <AppShell.Footer>
          <BottomNav items={nav} />
        </AppShell.Footer>
      )}
      {profileUsed && (
        <Suspense fallback={null}>
          <ProfileDrawer user={user} opened={profileOpened} onClose={() => setProfileOpened(false)} onLogout={() => void doLogout()} />
        </Suspense>
      )}
      <SearchOnDemand />
      {/* Destructive actions ask first; only signed-in screens have any. */}
      <ConfirmHost />
    </AppShell>
  );
}
