import { Badge, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataState } from '../../components/data-state.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { activityDetailQuery } from './activity-log-api.ts';

/** A before or after value: short scalars inline, objects as compact JSON. */
function Value({ v }: { v: unknown }) {
  if (v === undefined) return <Text size="sm" c="dimmed" fs="italic">absent</Text>;
  if (v === null || v === '') return <Text size="sm" c="dimmed" fs="italic">empty</Text>;
  if (typeof v === 'object') {
    return (
      <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 200, overflow: 'auto' }}>
        {JSON.stringify(v, null, 1)}
      </Code>
    );
  }
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {String(v)}
    </Text>
  );
}

/** One entry: who, when, from where, and the before/after difference field by field. */
export function ActivityDetail({ orgId, id }: { orgId: string; id: number }) {
  const q = useQuery(activityDetailQuery(orgId, id));
  const d = q.data;
  return (
    <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
      {d && (
        <Stack gap="md">
          <Group gap="xs">
            <Badge variant="light">{d.action}</Badge>
            <Badge variant="outline" color="gray">
              {d.entityType}
            </Badge>
          </Group>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={110}>When</Table.Th>
                <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Who</Table.Th>
                <Table.Td>
                  {d.actor.name ?? d.actor.email ?? 'System'}
                  {d.actor.role ? ` · ${d.actor.role}` : ''}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Record</Table.Th>
                <Table.Td style={{ wordBreak: 'break-all' }}>{d.entityId ?? '—'}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>IP address</Table.Th>
                <Table.Td>{d.ip ?? '—'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text fw={600}>Changes</Text>
          {d.changes.length === 0 ? (
            <Text size="sm" c="dimmed">
              No field changed (the action itself is the record).
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={420}>
              <Table withTableBorder withColumnBorders aria-label="Changes" layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w="26%">Field</Table.Th>
                    <Table.Th>Before</Table.Th>
                    <Table.Th>After</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.changes.map((c) => (
                    <Table.Tr key={c.field}>
                      <Table.Td>
                        <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                          {c.field}
                        </Text>
                      </Table.Td>
                      <Table.Td bg="var(--mantine-color-red-light)">
                        <Value v={c.before} />
                      </Table.Td>
                      <Table.Td bg="var(--mantine-color-green-light)">
                        <Value v={c.after} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </DataState>
  );
}
