import { Badge, Button, Card, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconMessage } from '@tabler/icons-react';
import { unreadMessagesQuery } from './messages-api.ts';

/** The driver's home: messages from dispatch not read yet, and the way to the conversation (issue 44). */
export function DriverMessagesCard({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const unread = useQuery({ ...unreadMessagesQuery(orgId), enabled: !!orgId });
  const n = unread.data?.unread ?? 0;
  return (
    <Card withBorder radius="md" padding="sm">
      <Group justify="space-between" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconMessage size={20} aria-hidden />
          <Text fw={600}>{t('messages.card')}</Text>
          {n > 0 && (
            <Badge color="red" aria-label={t('messages.unreadFromDispatch', { count: n })} data-testid="driver-unread-messages">
              {t('messages.newCount', { count: n })}
            </Badge>
          )}
        </Group>
        <Button component={Link} to="/driver/messages" variant="light" size="sm">
          {n > 0 ? t('messages.read') : t('messages.writeToDispatch')}
        </Button>
      </Group>
    </Card>
  );
}
