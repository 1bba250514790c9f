import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Last resort when a screen throws or its chunk cannot load even after the one reload. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Error happened';
  return (
    <Center py={64} px="md">
      <Stack align="center" gap="sm" maw={520} ta="center">
        <Title order={1} fz={24}>
          Something went wrong
        </Title>
        <Text c="dimmed">This screen could not be shown. Reloading usually fixes it; if not, please report it.</Text>
        <Code block>{message}</Code>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
