import { ActionIcon, Burger, Group, UnstyledButton } from '@mantine/core';
import { IconHelp, IconSearch, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconMoon, IconSun } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@fleet/api-contract';
import { Avatar } from '../../components/avatar.tsx';
import { Hint } from '../../components/hint.tsx';
import { Logo } from '../../components/logo.tsx';
import { homePath } from '../../lib/auth-store.ts';
import type { MenuItem } from '../menu.ts';
import { NotificationsBell } from './notifications-bell.tsx';
import { openSearch } from './search-on-demand.tsx';
import { useThemeToggle } from './theme-toggle.tsx';
import classes from './header.module.css';

function ThemeToggle() {
  const { shown, dark, label, toggle } = useThemeToggle();
  if (!shown) return null;
  return (
    <Hint label={label}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} onClick={toggle} data-testid="theme-toggle">
        {dark ? <IconSun size={20} /> : <IconMoon size={20} />}
      </ActionIcon>
    </Hint>
  );
}

export interface HeaderProps {
  user: CurrentUser;
  mobile: boolean;
  mobileOpened: boolean;
  onToggleMobile: () => void;
  collapsed: boolean;
  onToggleCollapsed: () => void;
  nav: MenuItem[];
  onOpenProfile: () => void;
}

/** Spec section 2, header signed in: menu toggles, logo, navigation, help, bell, avatar (signed out: public-shell.tsx). */
export function Header(p: HeaderProps) {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const u = p.user;
  return (
    <Group h="100%" px={{ base: 'xs', xs: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap">
        {p.mobile ? (
          <Burger
            opened={p.mobileOpened}
            onClick={p.onToggleMobile}
            size="sm"
            aria-label={p.mobileOpened ? t('shell.closeMenu') : t('shell.openMenu')}
            data-testid="hamburger"
          />
        ) : (
          <Hint label={p.collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={p.onToggleCollapsed}
              aria-label={p.collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
              aria-expanded={!p.collapsed}
            >
              {p.collapsed ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
            </ActionIcon>
          </Hint>
        )}
        <Link
          to={homePath(u) === '/driver' ? '/driver' : '/dashboard'}
          aria-label={homePath(u) === '/driver' ? t('shell.homeDriver') : t('shell.homeOffice')}
          className={classes.logo}
        >
          <Logo height={p.mobile ? 24 : 28} />
        </Link>
        {!p.mobile && p.nav.length > 0 && (
          // Tablets (600-904 px) have no bottom navigation: the links stay, as icons over short labels.
          <Group component="nav" aria-label={t('shell.headerNav')} gap={4} ml={{ base: 4, sm: 'md' }} visibleFrom="xs" wrap="nowrap" data-testid="header-nav">
            {p.nav.map(({ path, title, icon: Icon }) => (
              <Link
                key={path}
                to={path}
                className={classes.navLink}
                data-active={pathname === path || undefined}
                aria-current={pathname === path ? 'page' : undefined}
              >
                {Icon && (
                  <span className={classes.navIcon} aria-hidden>
                    <Icon size={20} stroke={1.7} />
                  </span>
                )}
                <span>{title}</span>
              </Link>
            ))}
          </Group>
        )}
      </Group>
      <Group gap={4} wrap="nowrap">
        <ThemeToggle />
        <Hint label={t('shell.search')}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('shell.search')} onClick={openSearch} data-testid="search-button">
            <IconSearch size={20} />
          </ActionIcon>
        </Hint>
        <Hint label={t('shell.help')}>
          <ActionIcon component={Link} to="/help" variant="subtle" color="gray" size="lg" aria-label={t('shell.help')}>
            <IconHelp size={20} />
          </ActionIcon>
        </Hint>
        <NotificationsBell />
        <UnstyledButton onClick={p.onOpenProfile} aria-label={t('shell.openProfile')} ml={4} data-testid="avatar-button" data-href="/my-account">
          <Avatar
            size="sm"
            avatarUrl={u.profilePicture}
            firstName={u.firstName}
            lastName={u.lastName}
            title={`${u.firstName ?? ''} ${u.lastName ?? ''} (${u.roleName ?? u.role})`.trim()}
          />
        </UnstyledButton>
      </Group>
    </Group>
  );
}
