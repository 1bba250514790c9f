import { Button, Drawer, Group, Paper, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconFilterOff } from '@tabler/icons-react';
import type { ActivityLogEntry } from '@fleet/api-contract';
import { PageHeader } from '../../components/page-header.tsx';
import { useOpenParam } from '../../components/registry-toolbar.tsx';
import { ServerTable, type TableColumn } from '../../components/server-table.tsx';
import { addDays, dayStartIn, formatDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { useTableState } from '../../lib/table-state.ts';
import { ActivityDetail } from './activity-detail.tsx';
import { activityFiltersQuery, activityQuery, activityUsersQuery } from './activity-log-api.ts';
import { ActivityRecordLink } from './activity-record-link.tsx';
import { withParams, useSearchParams } from '../../lib/search-params.ts';

const FILTER_KEYS = ['user', 'action', 'entity', 'from', 'to'] as const;

/** Start or end of a calendar day in the viewer's zone (decision 0140) as an ISO instant, for the API's from/to. */
function dayBound(day: string | null, end: boolean): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return undefined;
  const start = Date.parse(dayStartIn(end ? addDays(day, 1) : day));
  return new Date(start - (end ? 1 : 0)).toISOString();
}

/** Every change in the organization, read-only: filters by user, action, entity type and dates; detail with the difference. */
export default function ActivityLogPage() {
  const orgId = useEffectiveOrganizationId();
  const [state, setState, query] = useTableState();
  const [params, setParams] = useSearchParams();
  const get = (k: (typeof FILTER_KEYS)[number]) => params.get(k) ?? null;
  const from = get('from');
  const to = get('to');
  const rangeError = from && to && to < from ? 'must be on or after From' : undefined;
  const filters = {
    ...query,
    userId: get('user') ?? undefined,
    action: get('action') ?? undefined,
    entityType: get('entity') ?? undefined,
    from: dayBound(from, false),
    to: rangeError ? undefined : dayBound(to, true),
  };
  const list = useQuery({ ...activityQuery(orgId ?? '', filters), enabled: !!orgId });
  const options = useQuery({ ...activityFiltersQuery(orgId ?? ''), enabled: !!orgId });
  const users = useQuery({ ...activityUsersQuery(orgId ?? ''), enabled: !!orgId });
  // A link may open an entry (`?open=<id>`), as the registry lists open a record.
  const [openParam, setOpenParam] = useOpenParam();
  const openId = openParam && /^\d+$/.test(openParam) ? Number(openParam) : null;

  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string | null) =>
    setParams((prev) => withParams(prev, { [key]: value }, 'page'), { replace: true });
  const anyFilter = FILTER_KEYS.some((k) => params.has(k));
  const selectedUser = users.data?.content.find((u) => u.id === get('user'));

  // Column keys are those of the earlier raw columns, so columns a user chose stay chosen.
  const columns: TableColumn<ActivityLogEntry>[] = [
    {
      key: 'createdAt',
      header: 'When',
      width: 170,
      render: (e) => (
        <Text span size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(e.createdAt)}
        </Text>
      ),
    },
    {
      key: 'action',
      header: 'Activity',
      primary: true,
      render: (e) => (
        <Text span size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
          {e.summary}
        </Text>
      ),
    },
    { key: 'entityType', header: 'Record', width: 200, render: (e) => <ActivityRecordLink record={e.record} /> },
    {
      key: 'actor',
      header: 'Who',
      hiddenByDefault: true,
      render: (e) => (
        <Text span size="sm">
          {e.actor.label}
          {e.actor.role && (
            <Text span size="xs" c="dimmed">
              {` · ${e.actor.role}`}
            </Text>
          )}
        </Text>
      ),
    },
    { key: 'ip', header: 'IP address', render: (e) => e.ip ?? '—', hiddenByDefault: true },
  ];

  return (
    <>
      <PageHeader
        title={selectedUser ? `Activity of ${[selectedUser.firstName, selectedUser.lastName].filter(Boolean).join(' ') || selectedUser.email}` : 'Activity Log'}
        description="Every change made in your organization: who did what to which record, when, and the values before and after. Entries cannot be edited or deleted."
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'Activity Log' }]}
      />
      <Paper withBorder radius="md" p="sm" mb="md">
        <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
          <Select
            label="User"
            placeholder="Everyone"
            searchable
            clearable
            data={(users.data?.content ?? []).map((u) => ({ value: u.id, label: [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email }))}
            value={get('user')}
            onChange={(v) => setFilter('user', v)}
            nothingFoundMessage="No match"
          />
          <Select
            label="Action"
            placeholder="Any action"
            searchable
            clearable
            data={options.data?.actionOptions ?? []}
            value={get('action')}
            onChange={(v) => setFilter('action', v)}
          />
          <Select
            label="Record type"
            placeholder="Any record"
            searchable
            clearable
            data={options.data?.entityTypeOptions ?? []}
            value={get('entity')}
            onChange={(v) => setFilter('entity', v)}
          />
          <TextInput label="From" type="date" value={from ?? ''} max={to ?? undefined} onChange={(e) => setFilter('from', e.currentTarget.value || null)} />
          <TextInput
            label="To"
            type="date"
            value={to ?? ''}
            min={from ?? undefined}
            error={rangeError}
            onChange={(e) => setFilter('to', e.currentTarget.value || null)}
          />
        </SimpleGrid>
        {anyFilter && (
          <Group justify="flex-end" mt="xs">
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconFilterOff size={14} />}
              onClick={() => setParams((prev) => withParams(prev, Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), 'page'), { replace: true })}
            >
              Clear filters
            </Button>
          </Group>
        )}
      </Paper>
      <ServerTable
        id="activity-log"
        label="Activity log"
        columns={columns}
        query={list}
        state={state}
        onStateChange={setState}
        rowKey={(e) => String(e.id)}
        onRowClick={(e) => setOpenParam(String(e.id))}
        searchPlaceholder="Search e-mail, action or record id"
        emptyTitle={anyFilter ? 'No activity matches these filters' : 'No activity yet'}
        emptyDescription={anyFilter ? 'Widen the dates or clear a filter.' : 'Changes appear here as soon as anyone makes them.'}
      />
      <Drawer opened={openId !== null} onClose={() => setOpenParam(null)} position="right" size="lg" title="Activity detail">
        {openId !== null && orgId && <ActivityDetail orgId={orgId} id={openId} />}
      </Drawer>
    </>
  );
}
