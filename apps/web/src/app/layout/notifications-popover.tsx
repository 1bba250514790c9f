import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Anchor, Button, Center, Divider, Group, Indicator, Loader, Popover, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { ServerNotificationCard } from '../../features/notifications/server-notification-card.tsx';
import {
  useClearNotifications,
  useMarkRead,
  useNotificationList,
  useNotificationStream,
  useUnreadCount,
} from '../../features/notifications/notifications-api.ts';

function Empty() {
  return (
    <Text size="sm" c="dimmed" ta="center" py="lg">
      No new notifications
    </Text>
  );
}

function PanelList({ status, opened }: { status: 'unread' | 'all'; opened: boolean }) {
  const list = useNotificationList({ status, size: 20, page: 0 }, opened);
  const read = useMarkRead();
  const clear = useClearNotifications();
  if (list.isLoading)
    return (
      <Center py="lg">
        <Loader size="sm" aria-label="Loading notifications" />
      </Center>
    );
  const items = list.data?.content ?? [];
  if (items.length === 0) return <Empty />;
  return (
    <ScrollArea.Autosize mah={380} type="auto">
      <Stack gap={0}>
        {items.map((n) => (
          <div key={n.id}>
            <ServerNotificationCard n={n} flat onRead={(id) => read.mutate({ ids: [id] })} onClose={(id) => clear.mutate({ ids: [id] })} />
            <Divider />
          </div>
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}

/**
 * Spec section 2, notifications panel: title, tabs New and All (first selected, Enter activates a
 * tab), the unread count on the bell, kept live by the user's notification stream; mark all read,
 * clear, and a link to /notifications (a blank-type link).
 */
export function NotificationsPopover() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  useNotificationStream();
  const unread = useUnreadCount().data?.unread ?? 0;
  const read = useMarkRead();
  const clear = useClearNotifications();
  return (
    <Popover width={360} position="bottom-end" shadow="md" withArrow opened={opened} onChange={setOpened}>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={unread ? t('shell.notificationsUnread', { count: unread }) : t('shell.notifications')}
          onClick={() => setOpened((o) => !o)}
        >
          <Indicator
            label={unread > 99 ? '99+' : unread}
            size={16}
            color="red.8"
            disabled={unread === 0}
            offset={2}
            data-testid="bell-badge"
            data-count={unread}
            aria-hidden
          >
            <IconBell size={20} />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} style={{ maxWidth: 'calc(100vw - 16px)' }}>
        <Group justify="space-between" px="md" pt="sm" pb="xs" wrap="nowrap">
          <Title order={2} fz="md">
            Notifications
          </Title>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" disabled={unread === 0} onClick={() => read.mutate({ all: true })}>
              Mark all read
            </Button>
            <Button size="compact-xs" variant="subtle" color="gray" onClick={() => clear.mutate({ all: true })}>
              Clear all
            </Button>
          </Group>
        </Group>
        <Tabs defaultValue="new" keepMounted={false} activateTabWithKeyboard>
          <Tabs.List grow>
            <Tabs.Tab value="new">New{unread ? ` (${unread})` : ''}</Tabs.Tab>
            <Tabs.Tab value="all">All</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="new">
            <PanelList status="unread" opened={opened} />
          </Tabs.Panel>
          <Tabs.Panel value="all">
            <PanelList status="all" opened={opened} />
          </Tabs.Panel>
        </Tabs>
        <Divider />
        <Group justify="center" p="xs">
          <Anchor href="/notifications" target="_blank" rel="noopener" size="sm">
            See all notifications
          </Anchor>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
