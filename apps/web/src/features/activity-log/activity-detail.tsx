import { Accordion, Code, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataState } from '../../components/data-state.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { activityDetailQuery } from './activity-log-api.ts';
import { ActivityRecordLink } from './activity-record-link.tsx';

/** A before or after value in words; an empty side says so. */
function Value({ v }: { v: string | null }) {
  if (v === null) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        empty
      </Text>
    );
  }
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {v}
    </Text>
  );
}

/** One entry: the sentence, who, when, from where, the record, and each changed field labelled, before and after. */
export function ActivityDetail({ orgId, id }: { orgId: string; id: number }) {
  const q = useQuery(activityDetailQuery(orgId, id));
  const d = q.data;
  return (
    <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
      {d && (
        <Stack gap="md">
          <Text fw={600} size="lg" style={{ wordBreak: 'break-word' }}>
            {d.summary}
          </Text>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={110}>When</Table.Th>
                <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Who</Table.Th>
                <Table.Td style={{ wordBreak: 'break-word' }}>
                  {d.actor.label}
                  {d.actor.role ? ` · ${d.actor.role}` : ''}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Record</Table.Th>
                <Table.Td>
                  <ActivityRecordLink record={d.record} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>IP address</Table.Th>
                <Table.Td>{d.ip ?? '—'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text fw={600}>Changes</Text>
          {d.labelledChanges.length === 0 ? (
            <Text size="sm" c="dimmed">
              No field changed (the action itself is the record).
            </Text>
          ) : (
            <Table withTableBorder withColumnBorders aria-label="Changes" layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="30%">Field</Table.Th>
                  <Table.Th>Before</Table.Th>
                  <Table.Th>After</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.labelledChanges.map((c) => (
                  <Table.Tr key={c.field}>
                    <Table.Td>
                      <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                        {c.label}
                      </Text>
                    </Table.Td>
                    {/* Only a value is tinted: an empty side is nothing removed or added. */}
                    <Table.Td bg={c.before === null ? undefined : 'var(--mantine-color-red-light)'}>
                      <Value v={c.before} />
                    </Table.Td>
                    <Table.Td bg={c.after === null ? undefined : 'var(--mantine-color-green-light)'}>
                      <Value v={c.after} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Accordion variant="contained" chevronPosition="right">
            <Accordion.Item value="raw">
              <Accordion.Control>
                <Text size="sm">Technical details</Text>
              </Accordion.Control>
              <Accordion.Panel>
                <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 320, overflow: 'auto' }}>
                  {JSON.stringify(
                    { action: d.action, entityType: d.entityType, entityId: d.entityId, actorEmail: d.actor.email, before: d.before, after: d.after },
                    null,
                    1,
                  )}
                </Code>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </Stack>
      )}
    </DataState>
  );
}
