import { Card, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RefusedDeviceAdmin } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';

// Diagnostics for the super administrator (decision 0154): every id refused as unknown on this API
// instance, with the organization whose forwarding token it came with (none: TCP or OsmAnd).

export function RefusedDevicesAdmin() {
  const zone = useViewerZone();
  const q = useQuery({
    queryKey: ['diagnostics', 'refused-devices'],
    queryFn: ({ signal }) => api<RefusedDeviceAdmin[]>('/admin/diagnostics/refused-devices', { signal }),
    refetchInterval: 30_000,
  });
  const rows = q.data ?? [];
  return (
    <Card component="section" withBorder radius="md" mt="lg" aria-label="Refused device ids, all organizations">
      <Title order={2} fz="md">
        Refused device ids (diagnostics)
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Devices that reported with an id no organization registered, newest first, since this server started. Organizations see only those refused through their
        own forwarding token.
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          None since the server started.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Refused device ids">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Unique id</Table.Th>
                <Table.Th>Protocol</Table.Th>
                <Table.Th>Token of</Table.Th>
                <Table.Th>From address</Table.Th>
                <Table.Th>Last attempt</Table.Th>
                <Table.Th ta="right">Attempts</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={`${d.organizationId ?? ''}-${d.protocol}-${d.uniqueId}`}>
                  <Table.Td ff="monospace">{d.uniqueId}</Table.Td>
                  <Table.Td>{d.protocol}</Table.Td>
                  <Table.Td>{d.organizationId ? (d.organizationName ?? d.organizationId) : 'none (TCP or OsmAnd)'}</Table.Td>
                  <Table.Td ff="monospace">{d.remoteAddress ?? '—'}</Table.Td>
                  <Table.Td>{formatDateTime(d.lastAt, zone)}</Table.Td>
                  <Table.Td ta="right">{d.attempts}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
