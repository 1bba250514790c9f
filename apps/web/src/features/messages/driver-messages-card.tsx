import { Badge, Button, Card, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconMessage } from '@tabler/icons-react';
import { unreadMessagesQuery } from './messages-api.ts';

/** The driver's home: messages from dispatch not read yet, and the way to the conversation (issue 44). */
export function DriverMessagesCard({ orgId }: { orgId: string }) {
  const unread = useQuery({ ...unreadMessagesQuery(orgId), enabled: !!orgId });
  const n = unread.data?.unread ?? 0;
  return (
    <Card withBorder radius="md" padding="sm">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconMessage size={20} aria-hidden />
          <Text fw={600}>Messages</Text>
          {n > 0 && (
            <Badge color="red" aria-label={`${n} unread from dispatch`} data-testid="driver-unread-messages">
              {n} new
            </Badge>
          )}
        </Group>
        <Button component={Link} to="/driver/messages" variant="light" size="sm">
          {n > 0 ? 'Read' : 'Write to dispatch'}
        </Button>
      </Group>
    </Card>
  );
}
