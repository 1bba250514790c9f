import { Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import { IconChevronRight, IconFolder } from '@tabler/icons-react';
import { canOpenRoute, isSuperAdmin } from '@fleet/api-contract/permissions';
import { useAccessUser } from '../../lib/control-store.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { HUB_INFO } from '../../features/settings/hub-info.ts';
import { findRoute, type AppRoute } from '../routes.ts';

/** Extra cards a hub shows besides its children (the settings hub links the user's own profile). */
const EXTRA: Record<string, string[]> = { '/settings': ['/my-account'] };

/**
 * A parent route without its own screen (/settings, /settings/organization-settings, /hos…): a card
 * for each sub-area the user may open. A controlling super administrator sees the organization's.
 */
export function SectionIndex({ route }: { route: AppRoute }) {
  const user = useAccessUser();
  const extra = (EXTRA[route.path] ?? [])
    .map((p) => findRoute(p))
    // A super administrator has no profile inside the organization they control.
    .filter((r): r is AppRoute => !!r && !isSuperAdmin(user));
  const children = [...extra, ...(route.children ?? [])].filter((c) => !c.path.includes(':') && !c.path.endsWith('-add') && canOpenRoute(user, c));
  return (
    <>
      <PageHeader
        title={route.title}
        breadcrumbs={route.path.split('/').length > 2 ? [{ label: 'Settings', to: '/settings' }, { label: route.title }] : undefined}
      />
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md">
        {children.map((c) => {
          const info = HUB_INFO[c.path];
          const Icon = info?.icon ?? IconFolder;
          return (
            <Card key={c.path} component={Link} to={c.path} withBorder padding="lg" radius="md">
              <Group wrap="nowrap" align="flex-start" gap="md">
                <ThemeIcon variant="light" size={40} radius="md">
                  <Icon size={22} />
                </ThemeIcon>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={600}>{c.title}</Text>
                  <Text size="sm" c="dimmed">
                    {c.underDevelopment ? 'Under development' : info?.description}
                  </Text>
                </div>
                <IconChevronRight size={18} opacity={0.5} aria-hidden style={{ flex: 'none', alignSelf: 'center' }} />
              </Group>
            </Card>
          );
        })}
      </SimpleGrid>
    </>
  );
}
