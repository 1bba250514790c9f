import { Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { MenuItem } from '../menu.ts';
import classes from './bottom-nav.module.css';

/** Sticky bottom navigation on mobile: the header navigation list. */
export function BottomNav({ items }: { items: MenuItem[] }) {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('shell.quickNav')} grow gap={0} h="100%" data-testid="bottom-nav">
      {items.map(({ path, title, icon: Icon }) => (
        <UnstyledButton
          key={path}
          component={Link}
          to={path}
          className={classes.item}
          data-active={pathname === path || undefined}
          aria-current={pathname === path ? 'page' : undefined}
        >
          {Icon && <Icon size={22} stroke={1.7} />}
          <Text size="xs" fw={500} inherit>
            {title}
          </Text>
        </UnstyledButton>
      ))}
    </Group>
  );
}
