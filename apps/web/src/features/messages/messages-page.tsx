import { Badge, Card, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Driver, Page } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { api } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth-store.ts';
import { formatShortDateTime } from '../../lib/dates.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { Conversation } from './conversation.tsx';
import { inboxQuery } from './messages-api.ts';
import classes from './messages.module.css';
import { useSearchParams } from '../../lib/search-params.ts';

/**
 * The office's inbox (/messages, issue 44): every driver's conversation, the latest first with its
 * unread count; the chosen one (?driverId=) open beside the list (below it on a phone). A driver
 * without a conversation yet is picked from the drivers list (with DRIVER_LIST).
 */
export default function MessagesPage() {
  const orgId = useEffectiveOrganizationId() ?? '';
  const [params, setParams] = useSearchParams();
  const driverId = params.get('driverId');
  const inbox = useQuery({ ...inboxQuery(orgId), enabled: !!orgId });
  const open = (id: string | null) => setParams(id ? { driverId: id } : {}, { replace: true });
  const current = inbox.data?.content.find((c) => c.driver.id === driverId);
  const drivers = useDriverChoices(orgId);
  const name = current ? `${current.driver.firstName} ${current.driver.lastName}` : (drivers.find((d) => d.value === driverId)?.label ?? 'Driver');

  return (
    <Stack gap="md">
      <PageHeader title="Messages" description="Conversations with your drivers, newest first" />
      <div className={classes.inbox}>
        <Card withBorder radius="md" padding="xs">
          <Stack gap={4}>
            {drivers.length > 0 && (
              <Select
                aria-label="Write to a driver"
                placeholder="Write to a driver…"
                searchable
                clearable
                data={drivers}
                value={null}
                onChange={(v) => open(v)}
                nothingFoundMessage="No driver by that name"
                mb={4}
              />
            )}
            <DataState isLoading={inbox.isLoading} error={inbox.error} onRetry={() => void inbox.refetch()}>
              {inbox.data?.content.length === 0 && (
                <Text c="dimmed" size="sm" p="sm">
                  No conversations yet.
                </Text>
              )}
              <nav aria-label="Conversations">
                {inbox.data?.content.map((c) => (
                  <Link
                    key={c.driver.id}
                    to={`/messages?driverId=${c.driver.id}`}
                    replace
                    className={classes.item}
                    aria-current={c.driver.id === driverId ? 'true' : undefined}
                  >
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text fw={600} size="sm" truncate>
                        {c.driver.firstName} {c.driver.lastName}
                      </Text>
                      {c.unread > 0 && (
                        <Badge size="sm" color="red" circle aria-label={`${c.unread} unread`}>
                          {c.unread}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed" truncate>
                      {c.last.side === 'OFFICE' ? 'You: ' : ''}
                      {c.last.body}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatShortDateTime(c.last.sentAt)}
                    </Text>
                  </Link>
                ))}
              </nav>
            </DataState>
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="md">
          {driverId ? (
            <Conversation key={driverId} orgId={orgId} driverId={driverId} side="OFFICE" title={name} height="min(60vh, 560px)" />
          ) : (
            <Text c="dimmed" size="sm">
              Choose a conversation, or write to a driver.
            </Text>
          )}
        </Card>
      </div>
    </Stack>
  );
}

/** The organization's active drivers to write to, when the user may list drivers (else none). */
function useDriverChoices(orgId: string): Array<{ value: string; label: string }> {
  const user = useCurrentUser();
  const allowed = !!user?.permissions.includes('DRIVER_LIST');
  const q = useQuery({
    queryKey: ['messages', orgId, 'driver-choices'],
    queryFn: ({ signal }) => api<Page<Driver>>(orgPathFor(orgId, '/drivers'), { query: { size: 500, sort: 'lastName,asc' }, signal, toast: false }),
    enabled: allowed && !!orgId,
    staleTime: 5 * 60_000,
  });
  return (q.data?.content ?? []).map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }));
}
