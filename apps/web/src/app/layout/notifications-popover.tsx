import type { ReactElement } from 'react';
import { Anchor, Button, Center, Divider, Group, Loader, Popover, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { ServerNotificationCard } from '../../features/notifications/server-notification-card.tsx';
import { useClearNotifications, useMarkRead, useNotificationList } from '../../features/notifications/notifications-api.ts';

// The panel, in a chunk of its own: notifications-bell.tsx loads it on the bell's first tap (issue 67).

export interface NotificationsPopoverProps {
  opened: boolean;
  setOpened: (opened: boolean) => void;
  unread: number;
  /** The bell button, the popover's target. */
  bell: ReactElement;
}

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
export default function NotificationsPopover({ opened, setOpened, unread, bell }: NotificationsPopoverProps) {
  const read = useMarkRead();
  const clear = useClearNotifications();
  return (
    <Popover width={360} position="bottom-end" shadow="md" withArrow opened={opened} onChange={setOpened}>
      <Popover.Target>{bell}</Popover.Target>
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
