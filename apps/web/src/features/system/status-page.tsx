import type { ReactNode } from 'react';
import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';
import { homePath, useCurrentUser } from '../../lib/auth-store.ts';

/** Full-page message with a way back (under development, access denied, not found). */
export function StatusPage({ icon, title, message }: { icon: ReactNode; title: string; message: string }) {
  useDocumentTitle(`${title} · Fleetline`);
  const user = useCurrentUser();
  return (
    <Center py={64} px="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <ThemeIcon size={72} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to={homePath(user)} mt="sm">
          {user ? 'Go to home page' : 'Log In'}
        </Button>
      </Stack>
    </Center>
  );
}
