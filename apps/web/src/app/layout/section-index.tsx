import { Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { canOpenRoute } from '@fleet/api-contract';
import { useAccessUser } from '../../lib/control-store.ts';
import { PageHeader } from '../../components/page-header.tsx';
import type { AppRoute } from '../routes.ts';

/** A parent route without its own screen (/settings, /hos…): links to the children the user may open. */
export function SectionIndex({ route }: { route: AppRoute }) {
  const user = useAccessUser();
  const children = (route.children ?? []).filter((c) => !c.path.includes(':') && !c.path.endsWith('-add') && canOpenRoute(user, c));
  return (
    <>
      <PageHeader title={route.title} />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        {children.map((c) => (
          <Card key={c.path} component={Link} to={c.path} withBorder padding="lg" radius="md">
            <Text fw={600}>{c.title}</Text>
            {c.underDevelopment && (
              <Text size="sm" c="dimmed">
                Under development
              </Text>
            )}
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
