import { HoverCard, NavLink, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconPoint } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { MenuItem } from '../menu.ts';
import { containsActive, isLeafActive } from './side-menu-active.ts';
import classes from './side-menu.module.css';

// A chunk of its own: side-menu.tsx loads it when the menu is first collapsed (issue 67).

function flatLeaves(items: MenuItem[], prefix = ''): { item: MenuItem; group: string }[] {
  return items.flatMap((i) => (i.subSectionItems?.length ? flatLeaves(i.subSectionItems, i.title) : [{ item: i, group: prefix }]));
}

/** Collapsed drawer: one icon per group; hovering (or focusing) shows the group's sub-items in a popup. */
export default function CollapsedItem({ item, pathname }: { item: MenuItem; pathname: string }) {
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
            active={isLeafActive(pathname, leaf)}
            rightSection={<IconChevronRight size={14} />}
          />
        ))}
      </HoverCard.Dropdown>
    </HoverCard>
  );
}
