import { Button, Card, Group, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { formatDateTime, useViewerZone } from '../../lib/dates.ts';
import { useRefusedDevices } from './gateways-api.ts';

// Ids that reported through this organization's Traccar forwarding token but are not registered
// here (decision 0154): one click opens the add form with the id filled in. Ids refused with no
// organization (TCP, OsmAnd) are never listed: they may be another carrier's devices.

export function RefusedDevices({ onAdd }: { onAdd: (uniqueId: string, protocol: string) => void }) {
  const zone = useViewerZone();
  const q = useRefusedDevices(true);
  const rows = q.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Card component="section" withBorder radius="md" mb="md" aria-label="Refused ids to add">
      <Title order={2} fz="md">
        Refused device ids
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Reported through your Traccar forwarding but not registered here, so nothing was stored. Add the ones that are yours.
      </Text>
      {/* On a phone the protocol and attempts give way, so the Add button stays in view. */}
      <Table aria-label="Refused device ids">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Unique id</Table.Th>
            <Table.Th visibleFrom="sm">Protocol</Table.Th>
            <Table.Th>Last attempt</Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              Attempts
            </Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((d) => (
            <Table.Tr key={`${d.protocol}-${d.uniqueId}`}>
              <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                {d.uniqueId}
              </Table.Td>
              <Table.Td visibleFrom="sm">{d.protocol}</Table.Td>
              <Table.Td>{formatDateTime(d.lastAt, zone)}</Table.Td>
              <Table.Td ta="right" visibleFrom="sm">
                {d.attempts}
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconPlus size={14} />}
                    aria-label={`Add ${d.uniqueId} as a device`}
                    onClick={() => onAdd(d.uniqueId, d.protocol)}
                  >
                    Add
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
