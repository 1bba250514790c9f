import { ActionIcon, Anchor, Divider, Group, Popover, Tabs, Text, Title } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';

function Empty() {
  return (
    <Text size="sm" c="dimmed" ta="center" py="lg">
      No new notifications
    </Text>
  );
}

/** Spec section 2, notifications panel: title, tabs New and All (first selected), link to /notifications. */
export function NotificationsPopover() {
  return (
    <Popover width={340} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Notifications">
          <IconBell size={20} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="md" pt="sm" pb="xs">
          <Title order={2} fz="md">
            Notifications
          </Title>
        </Group>
        <Tabs defaultValue="new" keepMounted={false}>
          <Tabs.List grow>
            <Tabs.Tab value="new">New</Tabs.Tab>
            <Tabs.Tab value="all">All</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="new">
            <Empty />
          </Tabs.Panel>
          <Tabs.Panel value="all">
            <Empty />
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
