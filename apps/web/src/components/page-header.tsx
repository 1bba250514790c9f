import type { ReactNode } from 'react';
import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDocumentTitle } from '@mantine/hooks';

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Trail above the title, last item is the current page (no link). */
  breadcrumbs?: { label: string; to?: string }[];
  /** Buttons on the right (Add, Export…); they wrap under the title on small screens. */
  actions?: ReactNode;
}

/** Title row of every screen; also sets the document title. */
export function PageHeader({ title, description, breadcrumbs, actions }: PageHeaderProps) {
  useDocumentTitle(`${title} · Fleetline`);
  return (
    <Stack gap={4} mb="lg">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Breadcrumbs separatorMargin={6} fz="sm">
          {breadcrumbs.map((b) =>
            b.to ? (
              <Anchor key={b.label} component={Link} to={b.to} size="sm">
                {b.label}
              </Anchor>
            ) : (
              <Text key={b.label} size="sm" c="dimmed">
                {b.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          )}
        </Stack>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </Stack>
  );
}
