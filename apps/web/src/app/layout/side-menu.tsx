import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, NavLink, Stack } from '@mantine/core';
import { IconPoint } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { lazyPart } from '../../components/on-first-use.ts';
import type { MenuItem } from '../menu.ts';
import { containsActive, isLeafActive } from './side-menu-active.ts';
import classes from './side-menu.module.css';

// The collapsed menu's popups (tooltips, hover cards: floating-ui) load when the menu is first collapsed (issue 67).
const CollapsedItem = lazyPart(() => import('./side-menu-collapsed.tsx'));

function ExpandedItem({ item, pathname, onNavigate, depth }: { item: MenuItem; pathname: string; onNavigate?: () => void; depth: number }) {
  const Icon = item.icon ?? (depth > 0 ? null : IconPoint);
  const label = item.label ? (
    <Badge size="xs" variant="light" color="gray">
      {item.label}
    </Badge>
  ) : undefined;
  const [opened, setOpened] = useState(() => containsActive(pathname, item));
  if (item.subSectionItems?.length) {
    return (
      <NavLink
        component="button"
        type="button"
        label={item.title}
        leftSection={Icon ? <Icon size={20} stroke={1.6} /> : undefined}
        opened={opened}
        onChange={setOpened}
        aria-expanded={opened}
        childrenOffset={depth === 0 ? 32 : 16}
        classNames={{ root: classes.link }}
      >
        {item.subSectionItems.map((s) => (
          <ExpandedItem key={s.path} item={s} pathname={pathname} onNavigate={onNavigate} depth={depth + 1} />
        ))}
      </NavLink>
    );
  }
  return (
    <NavLink
      component={Link}
      to={item.path}
      label={item.title}
      rightSection={label}
      leftSection={Icon ? <Icon size={20} stroke={1.6} /> : undefined}
      active={isLeafActive(pathname, item)}
      onClick={onNavigate}
      classNames={{ root: classes.link }}
    />
  );
}

export interface SideMenuProps {
  items: MenuItem[];
  collapsed: boolean;
  /** Called after a link is followed (closes the mobile menu). */
  onNavigate?: () => void;
}

/** Spec section 2 side menu; `items` are already filtered to what the user may open. */
export function SideMenu({ items, collapsed, onNavigate }: SideMenuProps) {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  if (collapsed) {
    return (
      <Stack gap={6} align="center" component="nav" aria-label={t('shell.mainMenu')}>
        <Suspense fallback={null}>
          {items.map((i) => (
            <CollapsedItem key={i.path} item={i} pathname={pathname} />
          ))}
        </Suspense>
      </Stack>
    );
  }
  return (
    <Stack gap={2} component="nav" aria-label={t('shell.mainMenu')}>
      {items.map((i) => (
        <ExpandedItem key={i.path} item={i} pathname={pathname} onNavigate={onNavigate} depth={0} />
      ))}
    </Stack>
  );
}
