import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, HoverCard, NavLink, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconPoint } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { MenuItem } from '../menu.ts';
import classes from './side-menu.module.css';

const isActive = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);
const containsActive = (pathname: string, item: MenuItem): boolean =>
  isActive(pathname, item.path) || !!item.subSectionItems?.some((s) => containsActive(pathname, s));

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
      active={pathname === item.path}
      onClick={onNavigate}
      classNames={{ root: classes.link }}
    />
  );
}

function flatLeaves(items: MenuItem[], prefix = ''): { item: MenuItem; group: string }[] {
  return items.flatMap((i) => (i.subSectionItems?.length ? flatLeaves(i.subSectionItems, i.title) : [{ item: i, group: prefix }]));
}

/** Collapsed drawer: one icon per group; hovering (or focusing) shows the group's sub-items in a popup. */
function CollapsedItem({ item, pathname }: { item: MenuItem; pathname: string }) {
  const Icon = item.icon ?? IconPoint;
  const active = containsActive(pathname, item);
  if (!item.subSectionItems?.length) {
    return (
      <Tooltip label={item.title} position="right">
        <UnstyledButton component={Link} to={item.path} className={classes.mini} data-active={active || undefined} aria-label={item.title}>
          <Icon size={22} stroke={1.6} />
        </UnstyledButton>
      </Tooltip>
    );
  }
  return (
    <HoverCard position="right-start" shadow="md" openDelay={80} closeDelay={150} offset={8} withinPortal>
      <HoverCard.Target>
        <UnstyledButton className={classes.mini} data-active={active || undefined} aria-label={item.title} aria-haspopup="menu">
          <Icon size={22} stroke={1.6} />
        </UnstyledButton>
      </HoverCard.Target>
      <HoverCard.Dropdown p={6} miw={220}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4}>
          {item.title}
        </Text>
        {flatLeaves(item.subSectionItems).map(({ item: leaf, group }) => (
          <NavLink
            key={leaf.path}
            component={Link}
            to={leaf.path}
            label={leaf.title}
            description={group && group !== item.title ? group : undefined}
            active={pathname === leaf.path}
            rightSection={<IconChevronRight size={14} />}
          />
        ))}
      </HoverCard.Dropdown>
    </HoverCard>
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
        {items.map((i) => (
          <CollapsedItem key={i.path} item={i} pathname={pathname} />
        ))}
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
