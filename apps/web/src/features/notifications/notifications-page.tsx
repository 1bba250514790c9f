import { useState } from 'react';
import { Button, Card, Group, Pagination, SegmentedControl, Select, Stack, Switch, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconChecks, IconSearch, IconTrash } from '@tabler/icons-react';
import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS, type NotificationKind } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ServerNotificationCard } from './server-notification-card.tsx';
import { useClearNotifications, useMarkRead, useNotificationList, useNotificationPreferences, useSavePreferences } from './notifications-api.ts';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

const PAGE_SIZE = 20;

function NotificationList() {
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') as 'all' | 'unread' | 'read' | null) ?? 'all';
  const kind = (params.get('kind') as NotificationKind | null) ?? undefined;
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const [search, setSearch] = useState(params.get('search') ?? '');
  const set = (key: string, value: string | null) =>
    setParams((prev) => withParams(prev, { [key]: value }, key !== 'page' ? 'page' : undefined), { replace: true });
  const list = useNotificationList({ page, size: PAGE_SIZE, status, kind, search: params.get('search') ?? undefined });
  const read = useMarkRead();
  const clear = useClearNotifications();
  const data = list.data;
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SegmentedControl
          aria-label="Read or not"
          value={status}
          onChange={(v) => set('status', v === 'all' ? null : v)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'unread', label: 'Unread' },
            { value: 'read', label: 'Read' },
          ]}
        />
        <Select
          aria-label="Kind"
          placeholder="Every kind"
          clearable
          data={NOTIFICATION_KINDS.map((k) => ({ value: k, label: NOTIFICATION_KIND_INFO[k].label }))}
          value={kind ?? null}
          onChange={(v) => set('kind', v)}
          style={{ flex: '1 1 200px', maxWidth: 280 }}
        />
        <TextInput
          aria-label="Search notifications"
          placeholder="Search"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && set('search', search.trim() || null)}
          onBlur={() => set('search', search.trim() || null)}
          style={{ flex: '1 1 200px', maxWidth: 280 }}
        />
        <Group gap="xs" ml="auto">
          <Button variant="default" leftSection={<IconChecks size={16} />} disabled={!data?.unread} onClick={() => read.mutate({ all: true })}>
            Mark all read
          </Button>
          <Button
            variant="default"
            color="red"
            leftSection={<IconTrash size={16} />}
            disabled={!data?.totalElements}
            onClick={() => clear.mutate({ all: true })}
          >
            Clear all
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" aria-live="polite">
        {data ? `${data.totalElements} notification${data.totalElements === 1 ? '' : 's'}, ${data.unread} unread` : ' '}
      </Text>
      <DataState
        isLoading={list.isLoading}
        error={list.error}
        onRetry={() => void list.refetch()}
        isEmpty={!!data && data.content.length === 0}
        emptyTitle={status === 'all' && !kind ? 'No notifications yet' : 'No notifications match the filters'}
        emptyDescription="Violations, drivers running out of time, devices gone quiet and finished imports show here, as chosen under Preferences."
      >
        <Stack gap="xs">
          {data?.content.map((n) => (
            <ServerNotificationCard key={n.id} n={n} onRead={(id) => read.mutate({ ids: [id] })} onClose={(id) => clear.mutate({ ids: [id] })} />
          ))}
        </Stack>
        {data && data.totalPages > 1 && (
          <Group justify="center" mt="md">
            <Pagination total={data.totalPages} value={page + 1} onChange={(p) => set('page', p > 1 ? String(p - 1) : null)} aria-label="Pages" />
          </Group>
        )}
      </DataState>
    </Stack>
  );
}

function Preferences() {
  const prefs = useNotificationPreferences();
  const save = useSavePreferences();
  const kinds = prefs.data?.kinds ?? [];
  const change = (kind: NotificationKind, channel: 'inApp' | 'email', on: boolean) => {
    const k = kinds.find((x) => x.kind === kind);
    if (!k) return;
    save.mutate({ kinds: { [kind]: { inApp: k.inApp, email: k.email, [channel]: on } } });
  };
  return (
    <Card withBorder padding="md">
      <Title order={2} fz="lg" mb={4}>
        What to tell you
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Each kind in the app (the bell) and by e-mail. Kinds your role cannot see are greyed out.
      </Text>
      <DataState isLoading={prefs.isLoading} error={prefs.error} onRetry={() => void prefs.refetch()}>
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kind</Table.Th>
                <Table.Th ta="center" w={72}>
                  App
                </Table.Th>
                <Table.Th ta="center" w={72}>
                  E-mail
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {kinds.map((k) => (
                <Table.Tr key={k.kind} data-kind={k.kind} style={{ opacity: k.allowed ? 1 : 0.55 }}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {k.label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {k.allowed ? k.description : 'Your role does not include this.'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group justify="center">
                      <Switch
                        aria-label={`${k.label} in the app`}
                        checked={k.inApp}
                        disabled={!k.allowed || save.isPending}
                        onChange={(e) => change(k.kind, 'inApp', e.currentTarget.checked)}
                      />
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group justify="center">
                      <Switch
                        aria-label={`${k.label} by e-mail`}
                        checked={k.email}
                        disabled={!k.allowed || save.isPending}
                        onChange={(e) => change(k.kind, 'email', e.currentTarget.checked)}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </DataState>
    </Card>
  );
}

/** `/notifications`: the full list with filters and paging, and the choice of kinds. */
export default function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'preferences' ? 'preferences' : 'list';
  return (
    <>
      <PageHeader title="Notifications" description="What happened in your fleet that you chose to hear about." />
      <Tabs value={tab} onChange={(v) => setParams(v === 'preferences' ? { tab: 'preferences' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="list">Notifications</Tabs.Tab>
          <Tabs.Tab value="preferences">Preferences</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="list">
          <NotificationList />
        </Tabs.Panel>
        <Tabs.Panel value="preferences">
          <Preferences />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
